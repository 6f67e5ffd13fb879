/**
 * Reading Linux /proc/<pid>[/task/<tid>]/stat lines. Fields are counted after the last ')' because
 * the command name in parentheses may itself contain spaces and parentheses.
 */

/** The fields after the command name: index 0 is field 3 (state), index n is field n + 3. */
export function statFieldsAfterName(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}
