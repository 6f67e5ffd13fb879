/**
 * The source text of a JSON object's top-level values (pure). JSON.parse turns every number into a
 * double, which loses a bootstrap room above 2^53; Node 20's parser gives no access to the source
 * text, so the few fields that need it are read from the text itself.
 */

/** Index just past the JSON value starting at `i` (whitespace skipped first); `text` is valid JSON. */
function skipValue(text: string, i: number): number {
  i = skipSpace(text, i);
  const c = text[i];
  if (c === '"') return skipString(text, i);
  if (c === '{' || c === '[') {
    let depth = 0;
    for (; i < text.length; i++) {
      const d = text[i];
      if (d === '"') i = skipString(text, i) - 1;
      else if (d === '{' || d === '[') depth++;
      else if ((d === '}' || d === ']') && --depth === 0) return i + 1;
    }
    return i;
  }
  while (i < text.length && !',}] \t\r\n'.includes(text[i]!)) i++;
  return i;
}

function skipString(text: string, i: number): number {
  for (i++; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i + 1;
  }
  return i;
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && ' \t\r\n'.includes(text[i]!)) i++;
  return i;
}

/** The source text of each of `keys` present at the top level of the JSON object `text` (already known to parse). */
export function rawTopLevelValues(text: string, keys: readonly string[]): Map<string, string> {
  const found = new Map<string, string>();
  let i = skipSpace(text, 0) + 1;
  while (i < text.length) {
    i = skipSpace(text, i);
    if (text[i] !== '"') break;
    const keyEnd = skipString(text, i);
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    const valueStart = skipSpace(text, skipSpace(text, keyEnd) + 1);
    const valueEnd = skipValue(text, valueStart);
    if (keys.includes(key)) found.set(key, text.slice(valueStart, valueEnd));
    i = skipSpace(text, valueEnd) + 1;
  }
  return found;
}
