/**
 * RFC 4180 CSV: quoted fields may hold commas, quotes (doubled) and line breaks. A file can hold
 * several tables one after another, separated by blank lines (AIPerf's and GenAI-Perf's exports
 * do); each becomes its own block of rows.
 */

/** The records of a CSV text, fields unquoted; an empty line is a record of one empty field. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch !== '"') field += ch;
      else if (text[i + 1] === '"') field += text[++i];
      else quoted = false;
    } else if (ch === '"' && field === '') {
      quoted = true;
    } else if (ch === ',') {
      record.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      record.push(field);
      records.push(record);
      record = [];
      field = '';
    } else {
      field += ch;
    }
  }
  if (field !== '' || record.length > 0) records.push([...record, field]);
  return records;
}

/** The blocks of non-empty records between empty ones, fields trimmed. */
export function csvBlocks(records: readonly string[][]): string[][][] {
  const blocks: string[][][] = [];
  let current: string[][] | null = null;
  for (const record of records) {
    if (record.every((f) => f.trim() === '')) {
      current = null;
      continue;
    }
    if (!current) blocks.push((current = []));
    current.push(record.map((f) => f.trim()));
  }
  return blocks;
}
