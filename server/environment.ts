/** The environment as the settings are read from it: process.env, or a test's own table. */
export type Env = Record<string, string | undefined>;

/** Treats unset and blank the same: an empty `PORT=` in a unit file means "use the default". */
export function given(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}
