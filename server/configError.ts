/** A bad environment value: the message names the variable and what is wrong with it. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
