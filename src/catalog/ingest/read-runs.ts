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

function fromJsonl(text: string, file: string, options: ReadOptions): RunInput[] {
  const runs: RunInput[] = [];
  const skipped: number[] = [];
  const lines = text.split(/\r?\n/);
  // One record per line (JSONL), unless the file is a single pretty-printed JSON object.
  const isJsonl = lines.every((l) => !l.trim() || l.trim().startsWith('{'));
  const records = isJsonl ? lines.map((l, i) => ({ text: l, line: i + 1 })).filter((r) => r.text.trim()) : [{ text, line: 1 }];
  for (const { text: recordText, line } of records) {
    let parsed: unknown;
    try {
      parsed = parsePythonJson(recordText);
    } catch {
      skipped.push(line);
      continue;
    }
    if (!isObject(parsed)) {
      skipped.push(line);
      continue;
    }
    const record = readJsonlRecord(parsed);
    const model = typeof record.args.model === 'string' ? record.args.model : null;
    const serverVersion = (record.serverInfo as { version?: unknown } | null)?.version;
    const warnings = [...record.warnings];
    runs.push({
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
    });
  }
  if (runs.length === 0) throw new UserError(`${file} holds no readable JSON result record; pass a bench_serving JSONL file or console log`);
  if (skipped.length) for (const run of runs) run.warnings!.push(`${file}: line(s) ${skipped.join(', ')} are not JSON records; skipped`);
  return runs;
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

/** Every run in a file's text. Throws `UserError` for binary, empty or unrecognised input. */
export function readRunsFromText(text: string, file: string, options: ReadOptions = {}): RunInput[] {
  if (looksBinary(text)) throw new UserError(`${file} is a binary file, not a bench log; pass a console log, JSONL result file or recipe document`);
  const trimmed = text.trim();
  if (trimmed === '') throw new UserError(`${file} is empty; nothing ingested`);
  return trimmed.startsWith('{') ? fromJsonl(text, file, options) : fromDocument(text, file, options);
}
