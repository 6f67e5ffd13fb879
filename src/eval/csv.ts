/**
 * RFC 4180 CSV as the public MMLU and GPQA files are written: fields separated by commas, a field
 * in double quotes may hold commas, line breaks and doubled quotes. Blank lines are skipped (as
 * pandas' `read_csv` skips them). Pure.
 */
import { ServebenchError } from '../core/errors.js';

/** One parsed record and the 1-based line it starts on (for error messages). */
export interface CsvRecord {
  fields: string[];
  line: number;
}

/** Thrown for text that is not CSV (a quote left open); `line` is where the bad field starts. */
export class CsvSyntaxError extends ServebenchError {
  readonly code = 'E_CSV_SYNTAX';
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

/** Every non-blank record of `text`, in order. A leading byte-order mark is ignored. */
export function parseCsv(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let recordLine = 1;
  let quotedFieldLine = 0;
  let inQuotes = false;
  // Whether the current record has anything yet: a line holding nothing is not a record.
  let started = false;
  const endRecord = (): void => {
    if (started) {
      fields.push(field);
      records.push({ fields, line: recordLine });
    }
    fields = [];
    field = '';
    started = false;
  };
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (let i = start; i < text.length; i++) {
    const c = text[i]!;
    if (inQuotes) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else inQuotes = false;
      } else {
        if (c === '\n') line++;
        field += c;
      }
      continue;
    }
    if (!started) recordLine = line;
    if (c === '"') {
      inQuotes = true;
      quotedFieldLine = line;
      started = true;
    } else if (c === ',') {
      fields.push(field);
      field = '';
      started = true;
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endRecord();
      line++;
    } else {
      field += c;
      started = true;
    }
  }
  if (inQuotes) throw new CsvSyntaxError(quotedFieldLine, `a quoted field opened on line ${quotedFieldLine} is never closed`);
  endRecord();
  return records;
}
