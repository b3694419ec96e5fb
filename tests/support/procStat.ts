/**
 * The fields of a /proc/PID/stat line after the command name, the state (field 3) first: "pid (comm) state
 * ppid …", where the command name may hold spaces and parentheses, so the fields are read after the last ")".
 * Field N of proc(5) is at index N - 3: the parent (4) at 1, utime (14) at 11, stime (15) at 12.
 */
export function procStatFields(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}
