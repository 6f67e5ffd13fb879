/** `key=value` run labels as typed on a command line (`--label`) or in the dashboard's filter. */

/** `[key, value]`, both trimmed; null when there is no `=` or nothing before it. */
export function splitLabelPair(pair: string): [key: string, value: string] | null {
  const eq = pair.indexOf('=');
  return eq <= 0 ? null : [pair.slice(0, eq).trim(), pair.slice(eq + 1).trim()];
}
