/**
 * The columns of a best-practice summary table (Model, Hardware, Cards, Deploy Mode, Dataset,
 * Quantization, TPOT, Output TPS per card, Configuration) in the spellings pages use, and what
 * each cell states. The same names label a recipe's fact lines (`Hardware: Atlas 800I A3 32Card`,
 * `DataSets: 3.5K1.5K`, `TPOT: 50ms`), so both are read here.
 *
 * A TPOT written with its unit (`50ms`) is the latency class a recipe aims at, as in recipe
 * headings; a bare number under a `TPOT(ms)` header is the mean TPOT the run measured.
 */
import { parseHeading, workloadLabel } from './heading.js';

export type SummaryField = 'model' | 'hardware' | 'cards' | 'deployMode' | 'dataset' | 'quantization' | 'tpot' | 'outputPerCard' | 'configuration';

/** What a summary row or fact line states; absent = not stated. */
export interface RowFacts {
  model?: string;
  hardware?: string;
  cards?: number;
  deployMode?: 'pd-mixed' | 'pd-separation';
  datasetLabel?: string;
  quantization?: string;
  targetLatencyMs?: number;
  meanTpotMs?: number;
  outputPerCard?: number;
}

/** Header spellings (lower-case, `_` read as a space, so servebench's own CSV reads back). */
const HEADERS: ReadonlyArray<readonly [RegExp, SummaryField]> = [
  [/^model( name)?$/, 'model'],
  [/^(hardware|device|accelerator)$/, 'hardware'],
  [/^(cards?|card ?num(ber)?|number of cards|card count|gpus|npus)$/, 'cards'],
  [/^deploy(ment)? ?mode$/, 'deployMode'],
  [/^(dataset|data ?sets?|workload)$/, 'dataset'],
  [/^quanti[sz]ation$/, 'quantization'],
  [/^(mean )?tpot( ?\(ms\)| ms)?$/, 'tpot'],
  [/^output (tps|tok s|tok\/s|tokens\/s|throughput) ?\(?per card\)?$/, 'outputPerCard'],
  [/^(optimal )?configuration$/, 'configuration'],
];

function normalizeHeader(text: string): string {
  return text.trim().toLowerCase().replace(/_/g, ' ').replace(/\s+/g, ' ');
}

/** The field a header names, or null for a column this does not read. */
export function columnOf(header: string): SummaryField | null {
  const name = normalizeHeader(header);
  return HEADERS.find(([re]) => re.test(name))?.[1] ?? null;
}

const NUMBER = /^\d[\d,]*(\.\d+)?$/;

function number(text: string): number {
  return Number(text.replace(/,/g, ''));
}

/**
 * What one cell states, or null when the text cannot be a value of its column (a one-cell-per-line
 * table ends at the first row that does not fit). An empty or `-` cell states nothing.
 */
export function readCell(field: SummaryField | null, raw: string): RowFacts | null {
  const text = raw.trim();
  if (text === '' || text === '-' || field === null || field === 'configuration') return {};
  switch (field) {
    case 'model':
      return { model: text };
    case 'hardware': {
      // `Atlas 800I A3 32Card` states the cards as well.
      const { hardware, cards } = parseHeading(text);
      return { hardware: hardware ?? text, ...(cards !== undefined ? { cards } : {}) };
    }
    case 'cards': {
      const m = /^(\d+)\s*(cards?|gpus?|npus?)?$/i.exec(text);
      return m ? { cards: Number(m[1]) } : null;
    }
    case 'deployMode':
      if (/separat|disagg/i.test(text)) return { deployMode: 'pd-separation' };
      return /mix|co-?locat|aggregat/i.test(text) ? { deployMode: 'pd-mixed' } : null;
    case 'dataset':
      return { datasetLabel: workloadLabel(text, true) ?? text };
    case 'quantization':
      return /^[\w .+-]{1,30}$/.test(text) ? { quantization: text } : null;
    case 'tpot': {
      const target = /^(\d+(?:\.\d+)?)\s*ms$/i.exec(text);
      if (target) return { targetLatencyMs: Number(target[1]) };
      return NUMBER.test(text) ? { meanTpotMs: number(text) } : null;
    }
    case 'outputPerCard':
      return NUMBER.test(text) ? { outputPerCard: number(text) } : null;
  }
}

/** `Model:`, `Deploy Mode:`, `DataSets:`, `TPOT:` ... as a recipe's fact lines write them. */
const FACT_LABEL = /\b(model|hardware|cards?|card ?num|deploy ?mode|data ?sets?|dataset|quantization|tpot)\s*:/gi;

/**
 * The facts of a labelled line (`Model: X Hardware: Y Cards: 8 Deploy Mode: PD Mixed`), each value
 * running to the next label; null when the line has no such label or a value does not fit.
 */
export function readFactLine(line: string): RowFacts | null {
  const labels = [...line.matchAll(FACT_LABEL)];
  if (labels.length === 0 || line.slice(0, labels[0]!.index).trim() !== '') return null;
  const facts: RowFacts = {};
  for (let i = 0; i < labels.length; i++) {
    const label = labels[i]!;
    const value = line.slice(label.index + label[0].length, labels[i + 1]?.index ?? line.length);
    const cell = readCell(columnOf(label[1]!), value);
    if (cell === null) return null;
    Object.assign(facts, cell);
  }
  return facts;
}
