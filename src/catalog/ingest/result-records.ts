/**
 * Runs of a JSON result file, whichever tool wrote it, told apart by content: a GuideLLM report
 * (`benchmarks` with `metrics`), an AIPerf or GenAI-Perf summary export (metrics as `{unit, avg,
 * ...}` objects), a `vllm bench serve` result (`model_id`, `burstiness`, ...), else bench_serving's
 * or servebench's JSONL record. A file is one JSON object, or one object per line (JSONL, and
 * vLLM's `--append-result`), where a line that is not one is skipped and counted.
 */
import { basename } from 'node:path';
import { UserError } from '../../core/errors.js';
import { isObject } from '../../core/json-object.js';
import type { RunInput } from '../types.js';
import { contentHash } from './content-hash.js';
import { isGuidellmReport, readGuidellmReport } from './guidellm-report.js';
import { isRepeatedRunsRecord, parsePythonJson, readJsonlRecord } from './jsonl.js';
import { recipeFromServerInfo } from './server-info.js';
import { suspectWarnings } from '../suspect.js';
import { profileExportTool, readProfileExportJson } from './profile-export.js';
import { isVllmResult, readVllmResult } from './vllm-result.js';

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

/** AIPerf's per-request records (`profile_export.jsonl`) hold no run's figures: its summary export does. */
function isPerRequestRecord(record: Readonly<Record<string, unknown>>): boolean {
  return isObject(record.metadata) && isObject(record.metrics) && 'request_start_ns' in record.metadata;
}

/** The runs of one record of bench_serving, servebench or vLLM. */
function recordRun(record: Record<string, unknown>, recordText: string, file: string, line: number): RunInput {
  const source = { kind: 'ingest' as const, file, contentHash: contentHash(recordText), title: `${basename(file)}:${line}` };
  if (isVllmResult(record)) return readVllmResult(record, source);
  const read = readJsonlRecord(record);
  const serverVersion = (read.serverInfo as { version?: unknown } | null)?.version;
  return {
    source,
    metrics: read.metrics,
    args: read.args,
    model: typeof read.args.model === 'string' ? read.args.model : null,
    serverInfo: read.serverInfo,
    // The deployment the server reported, read as bench reads it when it records the run itself.
    recipe: recipeFromServerInfo(read.serverInfo),
    // The record does not say which servebench version wrote it; the server's version is a fact it states.
    toolVersion: read.fromServebench ? 'servebench' : typeof serverVersion === 'string' ? `sglang ${serverVersion}` : null,
    requests: read.requests,
    labels: read.labels,
    warnings: [...read.warnings, ...suspectWarnings(read.metrics, read.shards)],
    serverMetrics: read.serverMetrics,
    repeat: read.repeat,
    shards: read.shards,
  };
}

/** Every run of a JSON or JSONL result file. Throws `UserError` when no record can be read. */
export function readResultRecords(text: string, file: string): RunInput[] {
  const { records, skipped } = jsonRecords(text);
  if (records.length === 0) {
    throw new UserError(`${file} holds no readable JSON result record; pass a bench_serving, vLLM, GuideLLM, AIPerf or GenAI-Perf result file, or a console log`);
  }
  if (records.length === 1 && skipped.length === 0) {
    const { record } = records[0]!;
    if (isGuidellmReport(record)) return readGuidellmReport(record, file);
    const tool = profileExportTool(record);
    if (tool) return [readProfileExportJson(record, tool, text, file)];
  }
  if (records.every((r) => isPerRequestRecord(r.record))) {
    throw new UserError(`${file} holds AIPerf per-request records, not a run's results; ingest the run's profile_export_aiperf.json or .csv`);
  }
  const fileWarnings = skipped.length ? [skippedLinesWarning(file, skipped)] : [];
  // A repeated measurement's summary is derived from its runs' records, which are read for themselves.
  return records.filter(({ record }) => !isRepeatedRunsRecord(record)).map(({ record, text: recordText, line }) => {
    const run = recordRun(record, recordText, file, line);
    return { ...run, warnings: [...fileWarnings, ...(run.warnings ?? [])] };
  });
}
