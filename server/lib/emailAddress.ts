/** One address, as people type it: a local part, @, and a domain with at least one dot. */
const emailPattern = /^[^\s@<>()[\]\\,;:"]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/;

/** True for one plain e-mail address (no display name), at most 254 characters as SMTP allows. */
export function isEmailAddress(value: string): boolean {
  return value.length <= 254 && emailPattern.test(value);
}
