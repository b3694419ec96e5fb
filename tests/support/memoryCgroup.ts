import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A memory cgroup of its own for the processes a test starts, so the kernel holds them to a limit as a
 * small server's would (cgroup v1's memory controller, or cgroup v2 with memory enabled for children).
 * Processes enter it through `inside`, which starts them in it: everything they start follows.
 */
export interface MemoryCgroup {
  version: 1 | 2;
  dir: string;
  /** The command that runs `command` inside the cgroup (`sh` writes its pid to cgroup.procs, then execs it, so the pid stays the command's). */
  inside(command: string, args: readonly string[]): { command: string; args: string[] };
  /** The most the cgroup has been charged, page cache included (v1 memory.max_usage_in_bytes, v2 memory.peak). */
  peakBytes(): number;
  /** What it is charged now. */
  usageBytes(): number;
  /** How many processes the kernel has killed for memory in it (v1 memory.oom_control, v2 memory.events). */
  oomKills(): number;
  /** Anonymous memory (the processes' own) and file cache it is charged now, from memory.stat. */
  charged(): { anonBytes: number; fileBytes: number };
  /** Removes the cgroup, first killing (SIGKILL) any process still in it, which only the test can have started; never throws. */
  remove(): void;
}

/** The open cgroup, or why none can be used here. */
export type MemoryCgroupOpened = { cgroup: MemoryCgroup } | { unusable: string };

const read = (file: string) => readFileSync(file, 'utf8');
/** A "key value" line of a cgroup file, as a number (0 when the key is not there). */
const field = (text: string, key: string) => Number(new RegExp(`^${key} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);

/** This process's cgroup path in the hierarchy whose /proc/self/cgroup line matches. */
function ownPath(line: RegExp): string | undefined {
  return read('/proc/self/cgroup').split('\n').map((entry) => line.exec(entry)?.[1]).find((found) => found !== undefined);
}

/** Makes a uniquely named child of the first parent that takes one, or says why none did. */
function makeChild(parents: readonly string[], name: string): { dir: string } | { unusable: string } {
  const refusals: string[] = [];
  for (const parent of [...new Set(parents)]) {
    const dir = path.join(parent, name);
    try {
      mkdirSync(dir);
      return { dir };
    } catch (error) {
      refusals.push(`${dir}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  }
  return { unusable: `no memory cgroup could be made (${refusals.join('; ')})` };
}

function wrapper(dir: string) {
  return (command: string, args: readonly string[]) => ({
    command: 'sh',
    args: ['-c', 'echo $$ > "$0" && exec "$@"', path.join(dir, 'cgroup.procs'), command, ...args],
  });
}

function removeDir(dir: string) {
  let pids: string[] = [];
  try {
    pids = read(path.join(dir, 'cgroup.procs')).split('\n').filter(Boolean);
  } catch {
    // No such cgroup any more.
  }
  for (const pid of pids) {
    try {
      process.kill(Number(pid), 'SIGKILL');
    } catch {
      // It has just ended.
    }
  }
  // A cgroup whose last process has just exited can be busy for a moment.
  for (let attempt = 0; attempt < 50; attempt++) {
    try {
      rmdirSync(dir);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    }
  }
}

function openV1(mount: string, name: string, limitBytes: number): MemoryCgroupOpened {
  const own = ownPath(/^\d+:(?:[^:]*,)?memory(?:,[^:]*)?:(.*)$/) ?? '/';
  const made = makeChild([path.join(mount, own), mount], name);
  if ('unusable' in made) return made;
  const { dir } = made;
  const file = (name: string) => path.join(dir, name);
  try {
    writeFileSync(file('memory.limit_in_bytes'), String(limitBytes));
    // With swap accounting, memory and swap together: swap cannot hide what the processes hold.
    if (existsSync(file('memory.memsw.limit_in_bytes'))) writeFileSync(file('memory.memsw.limit_in_bytes'), String(limitBytes));
  } catch (error) {
    removeDir(dir);
    return { unusable: `the memory cgroup ${dir} refused its limit: ${(error as Error).message}` };
  }
  return {
    cgroup: {
      version: 1,
      dir,
      inside: wrapper(dir),
      peakBytes: () => Number(read(file('memory.max_usage_in_bytes'))),
      usageBytes: () => Number(read(file('memory.usage_in_bytes'))),
      oomKills: () => field(read(file('memory.oom_control')), 'oom_kill'),
      charged: () => {
        const stat = read(file('memory.stat'));
        return { anonBytes: field(stat, 'rss'), fileBytes: field(stat, 'cache') };
      },
      remove: () => removeDir(dir),
    },
  };
}

function openV2(mount: string, name: string, limitBytes: number): MemoryCgroupOpened {
  // A cgroup with processes cannot enable controllers for children (v2's rule), except the root: so the
  // child goes under this process's own cgroup if it already hands memory down, else under the root.
  const own = path.join(mount, ownPath(/^0::(.*)$/) ?? '/');
  const handsDownMemory = (dir: string) => {
    try {
      return read(path.join(dir, 'cgroup.subtree_control')).split(/\s+/).includes('memory');
    } catch {
      return false;
    }
  };
  const parents = [own, mount].filter(handsDownMemory);
  if (parents.length === 0) return { unusable: `cgroup v2 at ${mount}, but neither ${own} nor the root enables the memory controller for children (cgroup.subtree_control)` };
  const made = makeChild(parents, name);
  if ('unusable' in made) return made;
  const { dir } = made;
  const file = (name: string) => path.join(dir, name);
  try {
    writeFileSync(file('memory.max'), String(limitBytes));
    if (existsSync(file('memory.swap.max'))) writeFileSync(file('memory.swap.max'), '0');
  } catch (error) {
    removeDir(dir);
    return { unusable: `the memory cgroup ${dir} refused its limit: ${(error as Error).message}` };
  }
  return {
    cgroup: {
      version: 2,
      dir,
      inside: wrapper(dir),
      // memory.peak came with Linux 5.19; before it, the current charge is the best there is.
      peakBytes: () => Number(read(existsSync(file('memory.peak')) ? file('memory.peak') : file('memory.current'))),
      usageBytes: () => Number(read(file('memory.current'))),
      oomKills: () => field(read(file('memory.events')), 'oom_kill'),
      charged: () => {
        const stat = read(file('memory.stat'));
        return { anonBytes: field(stat, 'anon'), fileBytes: field(stat, 'file') };
      },
      remove: () => removeDir(dir),
    },
  };
}

/**
 * Opens a memory cgroup limited to limitBytes (memory and swap) named after `label` and this process,
 * under this process's own cgroup where it can (so whatever limits this process's also hold), or says why
 * it cannot: not root, no memory controller, a read-only /sys/fs/cgroup.
 */
export function openMemoryCgroup(label: string, limitBytes: number, root = '/sys/fs/cgroup'): MemoryCgroupOpened {
  if (process.platform !== 'linux') return { unusable: `memory cgroups are Linux's (this is ${process.platform})` };
  const name = `${label}-${process.pid}-${Date.now()}`;
  const v1 = path.join(root, 'memory');
  if (existsSync(path.join(v1, 'memory.limit_in_bytes'))) return openV1(v1, name, limitBytes);
  if (existsSync(path.join(root, 'cgroup.controllers'))) {
    if (!read(path.join(root, 'cgroup.controllers')).split(/\s+/).includes('memory')) return { unusable: `cgroup v2 at ${root} has no memory controller` };
    return openV2(root, name, limitBytes);
  }
  return { unusable: `no cgroup memory controller under ${root} (neither v1's memory/ nor v2's cgroup.controllers)` };
}
