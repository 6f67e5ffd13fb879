/**
 * A JSON object's top-level members as the client wrote them: keys decoded, values kept as their
 * source text. The router rewrites request bodies through this instead of JSON.parse/stringify so
 * that every value it does not set (a 64-bit seed, a float written 1e400, key order) reaches the
 * worker byte for byte; a JS number would round integers above 2^53.
 */

export interface JsonMember {
  key: string;
  /** The value's source text, whitespace around it trimmed. */
  raw: string;
}

/** The end (exclusive) of the string literal that starts at `start` (its opening quote). */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i + 1;
  }
  throw new SyntaxError('unterminated string');
}

/** The end (exclusive) of the value starting at `start`: through its matching bracket, or up to the next `,`/`}` at this depth. */
function valueEnd(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const char = text[i];
    if (char === '"') {
      i = stringEnd(text, i) - 1;
      if (depth === 0) return i + 1;
    } else if (char === '{' || char === '[') depth++;
    else if (char === '}' || char === ']') {
      if (depth === 0) return i;
      depth--;
      if (depth === 0) return i + 1;
    } else if (char === ',' && depth === 0) return i;
  }
  return text.length;
}

/**
 * The members of `text`, which must already be known to be a valid JSON object (JSON.parse
 * accepted it): this only finds where each member's text lies.
 */
export function jsonMembers(text: string): JsonMember[] {
  const members: JsonMember[] = [];
  let i = text.indexOf('{') + 1;
  for (;;) {
    while (i < text.length && /[\s,]/.test(text[i]!)) i++;
    if (i >= text.length || text[i] === '}') return members;
    const keyEnd = stringEnd(text, i);
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    i = text.indexOf(':', keyEnd) + 1;
    while (/\s/.test(text[i]!)) i++;
    const end = valueEnd(text, i);
    members.push({ key, raw: text.slice(i, end).trim() });
    i = end;
  }
}

/** An object's text from members; a later member of the same key is not expected (callers drop it first). */
export function jsonObjectText(members: readonly JsonMember[]): string {
  return `{${members.map((member) => `${JSON.stringify(member.key)}:${member.raw}`).join(',')}}`;
}
