/**
 * A stand-in affiliate network for the conversion tests: it holds a postback URL template written with
 * the network's own macros, as the operator pastes it into the network's settings, fills the macros
 * for each event and sends the postback over real HTTP, as the network's servers would.
 */
export type NetworkEvent = Record<string, string>;

export interface PostbackAnswer {
  status: number;
  text: string;
}

export interface StandInNetwork {
  /** The URL the network would call for this event: every macro replaced by its value, URL-encoded. */
  urlFor(event: NetworkEvent): string;
  send(event: NetworkEvent): Promise<PostbackAnswer>;
}

export interface NetworkOptions {
  /** The postback URL template, e.g. https://site/api/conversions?key=K&txid={ActionId}. */
  template: string;
  /** How a macro looks: {Name} (Impact), !!name!! (ShareASale), [NAME] and so on. */
  macro: (name: string) => string;
  /** GET (the default), or POST with the query string moved into a form body. */
  method?: 'GET' | 'POST';
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function standInNetwork({ template, macro, method = 'GET' }: NetworkOptions): StandInNetwork {
  const urlFor = (event: NetworkEvent) =>
    Object.entries(event).reduce((url, [name, value]) => url.replace(new RegExp(escapeRegExp(macro(name)), 'g'), encodeURIComponent(value)), template);
  return {
    urlFor,
    async send(event) {
      const url = new URL(urlFor(event));
      const response =
        method === 'GET'
          ? await fetch(url)
          : await fetch(`${url.origin}${url.pathname}`, {
              method: 'POST',
              headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
              body: url.searchParams.toString(),
            });
      return { status: response.status, text: (await response.text()).trim() };
    },
  };
}

/** Runs tasks with at most `limit` under way at once; resolves to their results in order. */
export async function inParallel<T>(tasks: ReadonlyArray<() => Promise<T>>, limit: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await tasks[index]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}
