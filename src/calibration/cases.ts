/**
 * Published bench_serving runs as cases for fitting and judging the performance model: one
 * deployment's SGLang flags, the bench flags, and the figures the run published. The format is the
 * one of shared/reference/published/*.json; reference-log-cases.json holds the reference logs in it.
 */
import { UserError } from '../core/errors.js';
import { isObject } from '../core/json-object.js';

/** What a run published (ms unless named); absent figures are null. */
export interface PublishedFigures {
  tpotMs: number;
  ttftMs: number;
  outputTps: number;
  acceptLength: number | null;
  durationS: number | null;
  medianTtftMs: number | null;
  itlMs: number | null;
  medianItlMs: number | null;
}

export interface PredictionCase {
  id: string;
  name: string;
  /** The file the case came from (for messages). */
  file: string;
  source: string;
  modelPath: string;
  hardware: string;
  cards: number;
  /** One instance's SGLang flags; under PD separation, the flags both instances share. */
  launchFlags: string[];
  /** PD separation: each instance's own flags (both null for a PD-mixed server). */
  prefillFlags: string[] | null;
  decodeFlags: string[] | null;
  /** bench_serving flags without --backend, --host, --port. */
  benchFlags: string[];
  backend: string;
  /**
   * Token totals of a ShareGPT run, whose prompts are not available offline: the harness draws a
   * log-normal length shape (seed 1) rescaled to them instead of building the dataset.
   */
  workloadLengths: { inputTotal: number; outputTotal: number } | null;
  published: PublishedFigures;
  /** One of the reference logs (shared/reference/logs), which the calibration must keep within its bounds. */
  referenceLog: boolean;
}

type Json = Record<string, unknown>;

function fail(file: string, where: string, problem: string): never {
  throw new UserError(`${file}: ${where}: ${problem}; fix the case file (format: shared/reference/README.md)`);
}

function stringList(file: string, where: string, value: unknown, field: string): string[] {
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) fail(file, where, `'${field}' must be a list of strings`);
  return value as string[];
}

function positive(file: string, where: string, value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) fail(file, where, `'${field}' must be a positive number, got ${JSON.stringify(value)}`);
  return value;
}

function optionalPositive(file: string, where: string, value: unknown, field: string): number | null {
  return value === undefined || value === null ? null : positive(file, where, value, field);
}

function publishedOf(file: string, where: string, value: unknown): PublishedFigures {
  if (!isObject(value)) fail(file, where, "'published' must be an object");
  const p = value as Json;
  return {
    tpotMs: positive(file, where, p.tpot_ms, 'published.tpot_ms'),
    ttftMs: positive(file, where, p.ttft_ms, 'published.ttft_ms'),
    outputTps: positive(file, where, p.output_tps, 'published.output_tps'),
    acceptLength: optionalPositive(file, where, p.accept_length, 'published.accept_length'),
    durationS: optionalPositive(file, where, p.duration_s, 'published.duration_s'),
    medianTtftMs: optionalPositive(file, where, p.median_ttft_ms, 'published.median_ttft_ms'),
    itlMs: optionalPositive(file, where, p.itl_ms, 'published.itl_ms'),
    medianItlMs: optionalPositive(file, where, p.median_itl_ms, 'published.median_itl_ms'),
  };
}

function workloadLengthsOf(file: string, where: string, value: unknown): PredictionCase['workloadLengths'] {
  if (value === undefined) return null;
  if (!isObject(value)) fail(file, where, "'workload_lengths' must be an object");
  const w = value as Json;
  return {
    inputTotal: positive(file, where, w.input_total, 'workload_lengths.input_total'),
    outputTotal: positive(file, where, w.output_total, 'workload_lengths.output_total'),
  };
}

/**
 * The cases of one case file (parsed JSON). `file` names it in messages; cases without an `id` get
 * the file's initial and their position (`A3` is the third case of ascend-train.json).
 */
export function parseCaseFile(json: unknown, file: string): PredictionCase[] {
  if (!isObject(json) || !Array.isArray((json as Json).cases)) fail(file, 'top level', "expected an object with a 'cases' list");
  const initial = (file.split('/').pop() ?? 'C').charAt(0).toUpperCase();
  return ((json as Json).cases as unknown[]).map((raw, index) => {
    const where = `case ${index + 1}`;
    if (!isObject(raw)) fail(file, where, 'must be an object');
    const c = raw as Json;
    if (typeof c.name !== 'string' || c.name === '') fail(file, where, "'name' must be a non-empty string");
    if (typeof c.model_path !== 'string' || c.model_path === '') fail(file, where, "'model_path' must be a non-empty string");
    if (typeof c.hardware !== 'string' || c.hardware === '') fail(file, where, "'hardware' must be a non-empty string");
    const prefill = c.prefill_flags === undefined ? null : stringList(file, where, c.prefill_flags, 'prefill_flags');
    const decode = c.decode_flags === undefined ? null : stringList(file, where, c.decode_flags, 'decode_flags');
    if ((prefill === null) !== (decode === null)) fail(file, where, "PD separation needs both 'prefill_flags' and 'decode_flags'");
    return {
      id: typeof c.id === 'string' && c.id !== '' ? c.id : `${initial}${index + 1}`,
      name: c.name,
      file,
      source: typeof c.source === 'string' ? c.source : '',
      modelPath: c.model_path,
      hardware: c.hardware,
      cards: positive(file, where, c.cards, 'cards'),
      launchFlags: stringList(file, where, c.launch_flags, 'launch_flags'),
      prefillFlags: prefill,
      decodeFlags: decode,
      benchFlags: stringList(file, where, c.bench_flags, 'bench_flags'),
      backend: typeof c.backend === 'string' && c.backend !== '' ? c.backend : 'sglang',
      workloadLengths: workloadLengthsOf(file, where, c.workload_lengths),
      published: publishedOf(file, where, c.published),
      referenceLog: c.reference_log === true,
    };
  });
}
