export interface WaitUntilOptions {
  /** Gives up after this long. */
  timeoutMs?: number;
  /** Pause between checks. */
  intervalMs?: number;
}

/**
 * Bounded polling for a condition outside the test's control (a row committed by another process, a log
 * line): resolves with the first result that is neither undefined nor false, or throws after timeoutMs
 * with what was awaited and the last thing seen, so a failure says more than "timeout".
 */
export async function waitUntil<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  { timeoutMs = 10_000, intervalMs = 25 }: WaitUntilOptions = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const result = await check();
      if (result !== undefined && result !== false) return result;
      lastError = undefined;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const detail = lastError === undefined ? '' : ` (last attempt: ${lastError instanceof Error ? lastError.message : String(lastError)})`;
      throw new Error(`waited ${timeoutMs} ms for ${what}${detail}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
