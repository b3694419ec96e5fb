/** The parts `npm run bench -- NAME …` runs, in the order they run; none named: all but volume. */
export const benchParts = ['startup', 'lighthouse', 'scripts', 'interactions', 'trace', 'throughput', 'clicks', 'views', 'leaves', 'conversions', 'memory', 'costs'] as const;

/** Runs only when named, alone: the other arguments are its options (--views N, --engine, --memory-limit, --keep). */
export const volumePart = 'volume';

export const benchUsage = `Usage: npm run bench [-- PART ...]        the parts named, or all but volume: ${benchParts.join(', ')}
       npm run bench -- volume [--views N] [--engine sqlite|postgres] [--memory-limit MB|off] [--keep]
Prints figures (timings never gate the tests): docs/benchmarks.md.
Exit codes: 0 every part ran, 1 a part failed, 64 bad arguments (a part it does not know).`;

export type BenchArguments = { help: true } | { volume: string[] } | { parts: string[] } | { problem: string };

/** What the arguments ask for, or the line that says what is wrong with them (exit 64). */
export function benchArguments(argv: readonly string[]): BenchArguments {
  if (argv.includes('--help') || argv.includes('-h')) return { help: true };
  if (argv.includes(volumePart)) return { volume: argv.filter((arg) => arg !== volumePart) };
  const unknown = argv.filter((arg) => !(benchParts as readonly string[]).includes(arg));
  if (unknown.length > 0) {
    return { problem: `no part named ${unknown.map((arg) => JSON.stringify(arg)).join(', ')}; the parts are ${[...benchParts, volumePart].join(', ')}` };
  }
  return { parts: argv.length === 0 ? [...benchParts] : [...argv] };
}
