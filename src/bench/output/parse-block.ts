/**
 * Reads bench_serving's console result block back into JSONL-keyed metrics (spec §6, §10).
 * Tolerant by design: it accepts every label variant SGLang has printed (the old
 * "Max reqeuest concurrency" typo, lines added or dropped between versions), trailing spaces or
 * none, hand-made typos within two edits, duplicated lines and truncated blocks. Whatever it
 * cannot read becomes a warning; it never fills in a value the text does not state.
 */

/** A metric as the block states it: a number (Infinity for `inf`), a string (backend, `trace`) or null (`not set`). */
export type BlockValue = number | string | null;

export interface ParsedBlock {
  /** Values keyed like the JSONL record (`mean_ttft_ms`), in the order the block lists them. */
  metrics: Record<string, BlockValue>;
  /** What could not be read, one line each. */
  warnings: string[];
}

/** A block found inside a larger text, with the line range it spans (end exclusive). */
export interface LocatedBlock extends ParsedBlock {
  startLine: number;
  endLine: number;
}

type ValueKind = 'string' | 'number' | 'rate' | 'concurrency';

/** Canonical label (without the colon) → JSONL key and how to read its value. */
const LABELS: ReadonlyArray<readonly [label: string, key: string, kind: ValueKind]> = [
  ['Backend', 'backend', 'string'],
  ['Traffic request rate', 'request_rate', 'rate'],
  ['Max request concurrency', 'max_concurrency', 'concurrency'],
  ['Successful requests', 'completed', 'number'],
  ['Benchmark duration (s)', 'duration', 'number'],
  ['Total input tokens', 'total_input_tokens', 'number'],
  ['Total input text tokens', 'total_input_text_tokens', 'number'],
  ['Total input vision tokens', 'total_input_vision_tokens', 'number'],
  ['Total generated tokens', 'total_output_tokens', 'number'],
  ['Total generated tokens (retokenized)', 'total_output_tokens_retokenized', 'number'],
  ['Request throughput (req/s)', 'request_throughput', 'number'],
  ['Input token throughput (tok/s)', 'input_throughput', 'number'],
  ['Output token throughput (tok/s)', 'output_throughput', 'number'],
  ['Peak output token throughput (tok/s)', 'max_output_tokens_per_s', 'number'],
  ['Peak concurrent requests', 'max_concurrent_requests', 'number'],
  ['Total token throughput (tok/s)', 'total_throughput', 'number'],
  ['Concurrency', 'concurrency', 'number'],
  ['Accept length', 'accept_length', 'number'],
  ['Mean E2E Latency (ms)', 'mean_e2e_latency_ms', 'number'],
  ['Median E2E Latency (ms)', 'median_e2e_latency_ms', 'number'],
  ['Std E2E Latency (ms)', 'std_e2e_latency_ms', 'number'],
  ['P90 E2E Latency (ms)', 'p90_e2e_latency_ms', 'number'],
  ['P99 E2E Latency (ms)', 'p99_e2e_latency_ms', 'number'],
  ['Mean TTFT (ms)', 'mean_ttft_ms', 'number'],
  ['Median TTFT (ms)', 'median_ttft_ms', 'number'],
  ['Std TTFT (ms)', 'std_ttft_ms', 'number'],
  ['P99 TTFT (ms)', 'p99_ttft_ms', 'number'],
  ['Mean TPOT (ms)', 'mean_tpot_ms', 'number'],
  ['Median TPOT (ms)', 'median_tpot_ms', 'number'],
  ['Std TPOT (ms)', 'std_tpot_ms', 'number'],
  ['P99 TPOT (ms)', 'p99_tpot_ms', 'number'],
  ['Mean ITL (ms)', 'mean_itl_ms', 'number'],
  ['Median ITL (ms)', 'median_itl_ms', 'number'],
  ['Std ITL (ms)', 'std_itl_ms', 'number'],
  ['P95 ITL (ms)', 'p95_itl_ms', 'number'],
  ['P99 ITL (ms)', 'p99_itl_ms', 'number'],
  ['Max ITL (ms)', 'max_itl_ms', 'number'],
  ['Failed requests', 'failed', 'number'],
  ['Request goodput (req/s)', 'request_goodput', 'number'],
];

/** Labels other SGLang versions printed for the same value; read silently. */
const ALIASES: Readonly<Record<string, string>> = {
  'max reqeuest concurrency': 'Max request concurrency',
  'maximum request concurrency': 'Max request concurrency',
  'request rate configured (rps)': 'Traffic request rate',
  'mean e2el (ms)': 'Mean E2E Latency (ms)',
  'median e2el (ms)': 'Median E2E Latency (ms)',
};

/** `P50 TTFT (ms)`, `P99.9 ITL (ms)`, `P95 E2EL (ms)`: any percentile, keyed `p{n}_{metric}_ms` as vLLM and SGLang name them. */
const PERCENTILE = /^p(\d+(?:\.\d+)?) (ttft|tpot|itl|e2e latency|e2el) \(ms\)$/;
const PERCENTILE_METRIC: Readonly<Record<string, string>> = { ttft: 'ttft', tpot: 'tpot', itl: 'itl', 'e2e latency': 'e2e_latency', e2el: 'e2e_latency' };

function normalizeLabel(label: string): string {
  return label.trim().replace(/\s+/g, ' ').toLowerCase();
}

const BY_LABEL = new Map(LABELS.map(([label, key, kind]) => [normalizeLabel(label), { label, key, kind }]));

const HEADER = /^\s*=+\s*Serving Benchmark Result\s*=+\s*$/i;
/** vLLM's variant: the title alone on a line between two `=` rules. */
const BARE_TITLE = /^\s*Serving Benchmark Result\s*$/i;
const CLOSING = /^\s*={10,}\s*$/;
const SECTION = /^\s*-{3,}[^:]*-{3,}\s*$/;
const METRIC_LINE = /^\s*([A-Za-z][^:]*?)\s*:\s*(.*?)\s*$/;

/** Optimal-string-alignment distance (an adjacent swap counts as one edit), capped for speed. */
function editDistance(a: string, b: string, cap: number): number {
  if (Math.abs(a.length - b.length) > cap) return cap + 1;
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

const digitsOf = (text: string): string => text.replace(/\D/g, '');

/** Finds the canonical label for a line's label: exact, known alias, or a typo within two edits (same digits). */
function resolveLabel(raw: string): { label: string; key: string; kind: ValueKind; typo: boolean } | null {
  const norm = normalizeLabel(raw);
  const exact = BY_LABEL.get(norm) ?? BY_LABEL.get(normalizeLabel(ALIASES[norm] ?? ''));
  if (exact) return { ...exact, typo: false };
  const percentile = PERCENTILE.exec(norm);
  if (percentile) {
    return { label: raw.trim(), key: `p${percentile[1]}_${PERCENTILE_METRIC[percentile[2]!]}_ms`, kind: 'number', typo: false };
  }
  let best: { label: string; key: string; kind: ValueKind } | null = null;
  let bestDistance = 3;
  for (const [candidate, entry] of BY_LABEL) {
    // P95 vs P99 is one edit apart but a different metric: digits must agree exactly.
    if (digitsOf(candidate) !== digitsOf(norm)) continue;
    const distance = editDistance(norm, candidate, 2);
    if (distance < bestDistance) [best, bestDistance] = [entry, distance];
  }
  return best ? { ...best, typo: true } : null;
}

/** Reads a number as Python printed it (`inf`, `nan`, `1e-05`, `1,234.5`); null when it is not one. */
function readNumber(text: string): number | null {
  const t = text.trim();
  if (/^[+-]?(inf|infinity)$/i.test(t)) return t.startsWith('-') ? -Infinity : Infinity;
  if (/^nan$/i.test(t)) return NaN;
  const plain = /^\d{1,3}(,\d{3})+(\.\d+)?$/.test(t) ? t.replace(/,/g, '') : t;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(plain)) return null;
  return Number(plain);
}

function readValue(kind: ValueKind, text: string): { value: BlockValue } | null {
  if (kind === 'string') return text ? { value: text } : null;
  if (kind === 'rate' && /^trace$/i.test(text)) return { value: 'trace' };
  if (kind === 'concurrency' && /^not set$/i.test(text)) return { value: null };
  const n = readNumber(text);
  return n === null ? null : { value: n };
}

/** Reads the lines of one block (header excluded) until its closing line; returns where it stopped. */
function readBlockLines(lines: readonly string[], from: number): LocatedBlock {
  const metrics: Record<string, BlockValue> = {};
  const warnings: string[] = [];
  let i = from;
  let closed = false;
  for (; i < lines.length; i++) {
    const line = lines[i]!;
    if (HEADER.test(line)) break;
    if (CLOSING.test(line)) {
      closed = true;
      i++;
      break;
    }
    if (line.trim() === '' || SECTION.test(line)) continue;
    const match = METRIC_LINE.exec(line);
    if (!match) {
      if (Object.keys(metrics).length === 0) continue;
      break;
    }
    const [, rawLabel, rawValue] = match as unknown as [string, string, string];
    const resolved = resolveLabel(rawLabel);
    if (!resolved) {
      warnings.push(`unrecognised result line '${line.trim()}' ignored`);
      continue;
    }
    if (resolved.typo) warnings.push(`label '${rawLabel.trim()}' read as '${resolved.label}'`);
    const parsed = readValue(resolved.kind, rawValue);
    if (!parsed) {
      warnings.push(`${resolved.label}: unreadable value '${rawValue}'`);
      continue;
    }
    if (resolved.key in metrics) {
      const previous = metrics[resolved.key];
      if (!Object.is(previous, parsed.value)) {
        warnings.push(`${resolved.label} stated twice (${String(previous)} and ${String(parsed.value)}); kept the first`);
      }
      continue;
    }
    metrics[resolved.key] = parsed.value;
  }
  if (!closed) warnings.push('result block has no closing ===== line (truncated?)');
  if (Object.keys(metrics).length === 0) warnings.push('result block holds no readable metric');
  return { metrics, warnings, startLine: from - 1, endLine: i };
}

/** servebench's extras section, printed right after the block (src/bench/output/extras-block.ts). */
const EXTRAS_HEADER = /^\s*-+\s*servebench extras\s*-+\s*$/i;
const EXTRAS: ReadonlyArray<readonly [label: string, key: string]> = [
  ['Failed requests', 'failed'],
  ['Resent requests (keep-alive closed)', 'resent_requests'],
  ['Mean queue time (ms)', 'mean_queue_time_ms'],
  ['P99 queue time (ms)', 'p99_queue_time_ms'],
  ['Requested request rate (req/s)', 'requested_request_rate'],
  ['Achieved request rate (req/s)', 'achieved_request_rate'],
  ['Peak in-flight requests', 'peak_in_flight_requests'],
  ['Peak output tok/s (1 s window)', 'peak_output_tokens_per_s_1s_window'],
  ['Mean reasoning TTFT (ms)', 'mean_reasoning_ttft_ms'],
  ['Median reasoning TTFT (ms)', 'median_reasoning_ttft_ms'],
  ['P99 reasoning TTFT (ms)', 'p99_reasoning_ttft_ms'],
];
const EXTRAS_LABELS: Readonly<Record<string, string>> = Object.fromEntries(EXTRAS.map(([label, key]) => [normalizeLabel(label), key]));

/** Each key's label as the result block and the extras print it (the extras win for `failed`, which both name). */
const LABEL_OF_KEY = new Map<string, string>([...LABELS.map(([label, key]): [string, string] => [key, label]), ...EXTRAS.map(([label, key]): [string, string] => [key, label])]);

/**
 * A metric key as a person reads it: the label the result block or the extras print for it
 * (`mean_ttft_ms` → `Mean TTFT (ms)`), else the key in words (`failed_http_5xx` → `Failed: http 5xx`).
 */
export function metricLabel(key: string): string {
  const printed = LABEL_OF_KEY.get(key);
  if (printed !== undefined) return printed;
  const failed = /^failed_(.+)$/.exec(key);
  if (failed) return `Failed: ${failed[1]!.replace(/_/g, ' ')}`;
  const unit = key.endsWith('_ms') ? ' (ms)' : '';
  const words = key.replace(/_ms$/, '').replace(/_/g, ' ');
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}${unit}`;
}

/**
 * The sub-section a prediction ends its extras with (src/predict/expected-error.ts): the block's own
 * figures again, each with the model's expected error, so nothing in it is a new metric.
 */
const EXPECTED_ERROR_HEADER = /^\s*-+\s*expected error of the prediction\s*-+\s*$/i;

/** Reads the extras section into `block` (indented `cause: n` lines → `failed_<cause>`); returns the line after it. */
function readExtras(lines: readonly string[], from: number, block: LocatedBlock): number {
  let i = from;
  let inExpectedError = false;
  for (; i < lines.length && !CLOSING.test(lines[i]!); i++) {
    inExpectedError ||= EXPECTED_ERROR_HEADER.test(lines[i]!);
    if (inExpectedError) continue;
    const match = METRIC_LINE.exec(lines[i]!);
    const value = match ? readNumber(match[2]!) : null;
    if (!match || value === null) {
      block.warnings.push(`servebench extras line '${lines[i]!.trim()}' unreadable`);
      continue;
    }
    const label = normalizeLabel(match[1]!);
    const key = EXTRAS_LABELS[label] ?? (/^\s/.test(lines[i]!) ? `failed_${label.replace(/\W+/g, '_')}` : null);
    if (key) block.metrics[key] = value;
    else block.warnings.push(`servebench extras line '${lines[i]!.trim()}' not recognised`);
  }
  return Math.min(i + 1, lines.length);
}

/** Every result block in a text, in order, each with the line range it spans (end exclusive). */
export function findResultBlocks(text: string): LocatedBlock[] {
  const lines = text.split(/\r?\n/);
  const blocks: LocatedBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const bare = BARE_TITLE.test(lines[i]!) && CLOSING.test(lines[i + 1] ?? '');
    if (!HEADER.test(lines[i]!) && !bare) continue;
    const block = readBlockLines(lines, bare ? i + 2 : i + 1);
    if (bare) block.startLine = i;
    if (EXTRAS_HEADER.test(lines[block.endLine] ?? '')) block.endLine = readExtras(lines, block.endLine + 1, block);
    blocks.push(block);
    i = block.endLine - 1;
  }
  return blocks;
}

/**
 * Parses the first result block in `text` (the header line is optional: bare metric lines are
 * read too). Labels become JSONL keys: `Mean TTFT (ms):` → `mean_ttft_ms`.
 */
export function parseResultBlock(text: string): ParsedBlock {
  const [first] = findResultBlocks(text);
  if (first) return { metrics: first.metrics, warnings: first.warnings };
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex((l) => METRIC_LINE.test(l));
  if (start < 0) return { metrics: {}, warnings: ['no result block found'] };
  const { metrics, warnings } = readBlockLines(lines, start);
  return { metrics, warnings: warnings.filter((w) => !w.startsWith('result block has no closing')) };
}
