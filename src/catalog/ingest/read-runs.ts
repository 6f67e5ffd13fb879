/**
 * Turns the text of one input file into catalog runs: bench_serving/servebench JSONL records, or
 * console logs and recipe documents (result blocks with their arguments, launch commands and
 * headings). Pure: the caller reads the file. Bad input is a `UserError` naming the file.
 */
import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import { UserError } from '../../core/errors.js';
import { isObject } from '../../core/json-object.js';
import type { RecipeConfig, RunInput } from '../types.js';
import { capWarnings } from '../warnings.js';
import { boundMetrics, boundRequests } from './bounds.js';
import { extractRuns, type ExtractedRun } from './document.js';
import { labelsFromFileName } from './file-name.js';
import { parsePythonJson, readJsonlRecord } from './jsonl.js';
import { parseDeploymentInstance } from './launch-config.js';
import { detectCommand, shellWords } from './shell-command.js';
import { quantizationFor, readSummaryRows } from './summary-table.js';

export interface ReadOptions {
  /** User labels; they win over labels read from the file. */
  labels?: Record<string, string>;
  /** Launch commands to attach to runs whose file states no deployment. */
  launchCommands?: string[];
}

/** sha256 of a run's text with line endings and trailing spaces normalised, so a re-saved copy is the same run. */
export function contentHash(text: string): string {
  const normalized = text.split(/\r?\n/).map((l) => l.trimEnd()).join('\n').trim();
  return createHash('sha256').update(normalized).digest('hex');
}

function looksBinary(text: string): boolean {
  const sample = text.slice(0, 8192);
  if (sample.includes('\u0000')) return true;
  const control = sample.match(/[\u0001-\u0008\u000e-\u001f\ufffd]/g)?.length ?? 0;
  return control > sample.length * 0.05;
}

/** The deployment given with `--launch` (one command per instance). */
export function recipeFromLaunchCommands(commands: readonly string[], warnings: string[]): RecipeConfig {
  const instances = commands.map((text) => {
    const words = shellWords(text);
    const found = detectCommand(words) ?? { kind: 'launch' as const, launcher: 'sglang serve', args: words };
    if (found.kind === 'bench') throw new UserError(`--launch '${text}' is a bench command; give the server launch command`);
    return parseDeploymentInstance({ ...found, startLine: 0, endLine: 1 }, warnings);
  });
  return { instances, env: {}, origin: 'command line (--launch)' };
}

/** How many of the skipped line numbers the warning lists; the rest are only counted. */
const SKIPPED_LINES_SHOWN = 5;

/** The one warning for a file's unreadable lines: how many, and the first few line numbers. */
function skippedLinesWarning(file: string, skipped: readonly number[]): string {
  const shown = skipped.slice(0, SKIPPED_LINES_SHOWN).join(', ');
  const rest = skipped.length > SKIPPED_LINES_SHOWN ? ` and ${skipped.length - SKIPPED_LINES_SHOWN} more` : '';
  const count = skipped.length === 1 ? '1 line is' : `${skipped.length} lines are`;
  return `${file}: ${count} not a JSON result record (line${skipped.length === 1 ? '' : 's'} ${shown}${rest}); skipped`;
}

/** A JSON object, or null for text that is not one (a bad JSONL line). */
function parseObject(text: string): Record<string, unknown> | null {
  try {
    const parsed = parsePythonJson(text);
    return isObject(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/** One record of a JSON file, with the text it was read from and its line number. */
interface JsonRecordAt {
  record: Record<string, unknown>;
  text: string;
  line: number;
}

/**
 * The records of a JSON file: the whole text when it is one (pretty-printed) object, else one
 * per line (JSONL), where a line that is not a JSON object is skipped and only its number kept.
 */
function jsonRecords(text: string): { records: JsonRecordAt[]; skipped: number[] } {
  const whole = parseObject(text);
  if (whole) return { records: [{ record: whole, text, line: 1 }], skipped: [] };
  const records: JsonRecordAt[] = [];
  const skipped: number[] = [];
  text.split(/\r?\n/).forEach((lineText, i) => {
    if (!lineText.trim()) return;
    const record = parseObject(lineText);
    if (record) records.push({ record, text: lineText, line: i + 1 });
    else skipped.push(i + 1);
  });
  return { records, skipped };
}

function fromJsonl(text: string, file: string, options: ReadOptions): RunInput[] {
  const { records, skipped } = jsonRecords(text);
  if (records.length === 0) throw new UserError(`${file} holds no readable JSON result record; pass a bench_serving JSONL file or console log`);
  const fileWarnings = skipped.length ? [skippedLinesWarning(file, skipped)] : [];
  return records.map(({ record: parsed, text: recordText, line }) => {
    const record = readJsonlRecord(parsed);
    const model = typeof record.args.model === 'string' ? record.args.model : null;
    const serverVersion = (record.serverInfo as { version?: unknown } | null)?.version;
    const warnings = [...fileWarnings, ...record.warnings];
    return {
      source: { kind: 'ingest', file, contentHash: contentHash(recordText), title: `${basename(file)}:${line}` },
      metrics: record.metrics,
      args: record.args,
      model,
      serverInfo: record.serverInfo,
      // The record does not say which servebench version wrote it; the server's version is a fact it states.
      toolVersion: record.fromServebench ? 'servebench' : typeof serverVersion === 'string' ? `sglang ${serverVersion}` : null,
      requests: record.requests,
      labels: { ...labelsFromFileName(file), ...record.labels, ...(options.labels ?? {}) },
      recipe: options.launchCommands?.length ? recipeFromLaunchCommands(options.launchCommands, warnings) : null,
      warnings,
    } satisfies RunInput;
  });
}

/** Labels a run gets from its heading, its file name and the page's summary table (user labels applied last). */
function runLabels(run: ExtractedRun, file: string, quantization: string | null, user: Record<string, string>): Record<string, string> {
  const labels: Record<string, string> = {};
  const facts = run.heading;
  if (!facts?.hardware) Object.assign(labels, labelsFromFileName(file));
  if (facts?.hardware) labels.hardware = facts.hardware;
  if (facts?.cards !== undefined) labels.cards = String(facts.cards);
  if (facts?.nodes !== undefined) labels.nodes = String(facts.nodes);
  if (facts?.deployMode) labels.deploy = facts.deployMode;
  if (facts?.targetLatencyMs !== undefined) labels['target-latency-ms'] = String(facts.targetLatencyMs);
  if (facts?.datasetLabel) labels.dataset = facts.datasetLabel;
  if (quantization) labels.quantization = quantization;
  return { ...labels, ...user };
}

function fromDocument(text: string, file: string, options: ReadOptions): RunInput[] {
  const extracted = extractRuns(text);
  if (extracted.length === 0) {
    throw new UserError(`${file} holds no bench_serving result block ('Serving Benchmark Result') or JSONL record; nothing ingested`);
  }
  const summary = readSummaryRows(text);
  const launchWarnings: string[] = [];
  const given = options.launchCommands?.length ? recipeFromLaunchCommands(options.launchCommands, launchWarnings) : null;
  return extracted.map((run) => {
    const quantization = run.heading && summary.length ? quantizationFor(run.heading, summary) : null;
    const environment = run.environment;
    const warnings = [...run.warnings];
    let recipe = run.recipe;
    if (!recipe && given) {
      recipe = given;
      warnings.push(...launchWarnings);
    }
    const model = typeof run.args?.model === 'string' ? run.args.model : (run.heading?.model ?? null);
    return {
      source: { kind: 'ingest', file, contentHash: contentHash(run.text), title: run.title },
      metrics: run.block.metrics,
      args: run.args,
      model,
      toolVersion: environment.sglang ? `sglang ${environment.sglang}` : null,
      environment,
      labels: runLabels(run, file, quantization, options.labels ?? {}),
      recipe,
      warnings,
    } satisfies RunInput;
  });
}

/** A run with its out-of-bounds values nulled (see bounds.ts) and its warnings capped in size. */
function withinBounds(run: RunInput): RunInput {
  const metrics = boundMetrics(run.metrics);
  const requests = boundRequests(run.requests ?? []);
  const warnings = [...(run.warnings ?? []), ...[metrics.warning, requests.warning].filter((w): w is string => w !== null)];
  return { ...run, metrics: metrics.metrics, requests: requests.requests, warnings: capWarnings(warnings) };
}

/**
 * Every run in a file's text. Throws `UserError` for binary, empty or unrecognised input; values
 * no run can produce are stored as null with a warning (bounds.ts).
 */
export function readRunsFromText(text: string, file: string, options: ReadOptions = {}): RunInput[] {
  if (looksBinary(text)) throw new UserError(`${file} is a binary file, not a bench log; pass a console log, JSONL result file or recipe document`);
  const trimmed = text.trim();
  if (trimmed === '') throw new UserError(`${file} is empty; nothing ingested`);
  // A JSONL file whose first line is the bad one is still read as JSONL.
  const isJson = trimmed.startsWith('{') || /\.jsonl?$/i.test(file);
  const runs = isJson ? fromJsonl(text, file, options) : fromDocument(text, file, options);
  return runs.map(withinBounds);
}
