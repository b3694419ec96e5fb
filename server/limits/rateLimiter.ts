/**
 * Keys a limiter holds at most unless told otherwise. A key costs about 80 bytes of heap as an IPv4
 * address, 130 as a visitor hash and 110 as an IPv6 /64 (the map's entry, the number and the key), so a
 * full limiter holds at most about 13 MB, and as much again for the keys it has scheduled to look at; a
 * flood rarely fills one (see "forgotten" below).
 */
export const defaultMaxKeys = 100_000;

/**
 * A token bucket per key (a visitor hash, a client address): `burst` reports at once, then one every
 * `refillMs`. Real visitors click a button or two; a script replaying reports is held to a trickle.
 *
 * Memory is bounded whatever the traffic. A key is forgotten once its bucket has filled up again, as if it
 * had never been seen: a key that sent one report is gone within two refills of it (one refill for its
 * bucket to fill, at most one more for its turn below). So a flood of new addresses holds about what two
 * refills bring (a second of them for views' addresses), not all it has sent, and the map never holds more
 * than `maxKeys` (`defaultMaxKeys` unless given): past it the longest-known keys go first.
 */
export interface RateLimiter {
  /** Takes one token; returns 0 when allowed, otherwise the milliseconds until the next token. */
  take(key: string, now?: number): number;
  /** What take would wait, without taking anything. */
  wait(key: string, now?: number): number;
  /** Keys held now: never more than maxKeys. */
  readonly size: number;
  /** Keys waiting for their slot (see below): never more than 2 × maxKeys. */
  readonly scheduled: number;
}

export function createRateLimiter({ burst, refillMs, maxKeys = defaultMaxKeys }: { burst: number; refillMs: number; maxKeys?: number }): RateLimiter {
  // Each key's bucket is one number, the moment it is full again (a generic cell rate algorithm): it holds
  // burst − (fullAt − now) / refillMs tokens now. One number costs far less than a tokens-and-time object.
  const fullAt = new Map<string, number>();
  // Which keys to look at when: slot s lists the keys whose bucket was full by s × refillMs ms (since the
  // epoch), as last known. Each key sits in one slot at a time: entered in its full bucket's slot when the
  // map takes it, and moved on, when that slot ends, if it has been taken again since. A walk over every key
  // at once would stop the thread for milliseconds on a full map; this forgets them a slot at a time, as
  // reports arrive, looking at each key about once per refill.
  //
  // The slots hold a key the map has forgotten until its slot comes, so a flood of new keys faster than the
  // map's bound would grow them: past 2 × maxKeys a key is not scheduled, and only the bound forgets it.
  const slots = new Map<number, string[]>();
  const slotOf = (time: number) => Math.ceil(time / refillMs);
  /** The first slot not yet looked at. */
  let nextSlot = -Infinity;
  let scheduled = 0;

  const enter = (key: string, slot: number) => {
    if (scheduled >= 2 * maxKeys) return;
    scheduled += 1;
    // Never behind the walk, even if the clock went back: a key in a slot already passed would stay forever.
    const at = Math.max(slot, nextSlot);
    const keys = slots.get(at);
    if (keys) keys.push(key);
    else slots.set(at, [key]);
  };

  // Looks at every slot that has ended by `now`: forgets the keys whose bucket is full, moves the others on.
  // No slot is ever more than burst + 1 ahead of the last report, so after a quiet spell the walk ends
  // within that many steps of it and starts again from now.
  const forgetFull = (now: number) => {
    const ended = Math.floor(now / refillMs);
    if (slots.size === 0) nextSlot = Math.max(nextSlot, ended + 1);
    for (; nextSlot <= ended && slots.size > 0; nextSlot += 1) {
      const keys = slots.get(nextSlot);
      if (!keys) continue;
      slots.delete(nextSlot);
      scheduled -= keys.length;
      for (const key of keys) {
        const full = fullAt.get(key);
        // Forgotten already: by the bound below, or through its other entry (a key the bound forgot and the
        // map took again has two until it is forgotten).
        if (full === undefined) continue;
        if (full <= now) fullAt.delete(key);
        else enter(key, slotOf(full));
      }
    }
  };

  // Full (a flood from many addresses): forget the longest-known hundredth at once. One key at a time would
  // cost far more than it looks: a Map keeps deleted entries as holes until it is rebuilt, and every new
  // iterator walks past all of them, so forgetting keys one by one took 45 µs each past 100,000 keys.
  // Their slots keep them until they come, and are then passed over.
  const forgetBatch = Math.max(1, Math.ceil(maxKeys / 100));
  const forgetOldest = () => {
    let forgotten = 0;
    for (const key of fullAt.keys()) {
      fullAt.delete(key);
      if ((forgotten += 1) >= forgetBatch) break;
    }
  };

  /** The wait before a bucket full at `full` has a token at `now`: 0 when it has one. */
  const waitFor = (full: number, now: number) => {
    const beyondOne = full - now - (burst - 1) * refillMs;
    return beyondOne > 0 ? Math.ceil(beyondOne) : 0;
  };

  return {
    take(key, now = Date.now()) {
      forgetFull(now);
      const full = fullAt.get(key);
      if (full === undefined) {
        if (fullAt.size >= maxKeys) forgetOldest();
        fullAt.set(key, now + refillMs);
        enter(key, slotOf(now + refillMs));
        return 0;
      }
      const wait = waitFor(full, now);
      if (wait > 0) return wait;
      fullAt.set(key, Math.max(full, now) + refillMs);
      return 0;
    },
    wait(key, now = Date.now()) {
      const full = fullAt.get(key);
      return full === undefined ? 0 : waitFor(full, now);
    },
    get size() {
      return fullAt.size;
    },
    get scheduled() {
      return scheduled;
    },
  };
}
