/**
 * Builds the catalog record of a `servebench bench` run from what the bench pipeline already has:
 * its JSONL result record, its resolved arguments and its request outputs. The deployment it ran
 * against is what the server's `/get_server_info` (in the record) reports, the sim's as any other's.
 */
import { createHash } from 'node:crypto';
import type { PyValue } from '../core/pyrepr.js';
import type { RequestOutput } from '../bench/index.js';
import { readJsonlRecord, toPlain } from './ingest/jsonl.js';
import { recipeFromServerInfo } from './ingest/server-info.js';
import { encodeJson } from './store/json-codec.js';
import { suspectWarnings } from './suspect.js';
import type { RequestRecord, RunInput } from './types.js';

export interface BenchRunParts {
  /** The JSONL record as written (`buildResultRecord`), PyFloat values allowed. */
  record: Record<string, PyValue>;
  /** The resolved Namespace (bench/args/resolved-namespace.ts: snake_case + extensions); secrets are redacted when stored. */
  args: Record<string, unknown>;
  outputs: readonly RequestOutput[];
  /** When the run started. */
  startedAt: Date;
  /** e.g. `servebench 0.1.0`. */
  toolVersion: string;
  /** The JSONL file the record was appended to, if any. */
  outputFile?: string | null;
  labels?: Record<string, string>;
  warnings?: string[];
  /**
   * The outputs are a prediction's, timed on a virtual clock that starts at 0 (predict/virtual): every
   * request was sent, at its startTime, 0 included. Measured outputs use 0 for "never sent".
   */
  virtualClock?: boolean;
}

/**
 * Per-request records from bench request outputs (seconds, relative to the first send). On the run's
 * clock a startTime of 0 means never sent; on a prediction's `virtualClock` it is the first wave's.
 */
export function requestRecordsFromOutputs(outputs: readonly RequestOutput[], virtualClock = false): RequestRecord[] {
  const sent = (o: RequestOutput): boolean => virtualClock || o.startTime > 0;
  // A loop, not Math.min(...starts): spreading a large run's start times overflows the call stack.
  let t0 = Infinity;
  for (const o of outputs) if (sent(o)) t0 = Math.min(t0, o.startTime);
  return outputs.map((o) => ({
    startTime: sent(o) ? o.startTime - t0 : null,
    ttft: o.success ? o.ttft : null,
    latency: o.success ? o.latency : null,
    itl: o.itl,
    promptLen: o.promptLen,
    outputLen: o.outputLen,
    success: o.success,
    error: o.error,
    cause: o.failureCause,
    queueTime: sent(o) ? o.queueTime : null,
    server: o.server === undefined ? null : { ...o.server },
  }));
}

/** The `RunInput` for `catalog.recordRun` after a bench run. */
export function runInputFromBench(parts: BenchRunParts): RunInput {
  const plain = toPlain(parts.record) as Record<string, unknown>;
  const { metrics, serverInfo, labels, serverMetrics, repeat, shards } = readJsonlRecord(plain);
  const startedAt = parts.startedAt.toISOString();
  const contentHash = createHash('sha256').update(`${startedAt}\n${encodeJson(plain)}`).digest('hex');
  return {
    source: { kind: 'bench', file: parts.outputFile ?? null, contentHash },
    metrics,
    args: parts.args,
    model: typeof parts.args.model === 'string' ? parts.args.model : null,
    startedAt,
    toolVersion: parts.toolVersion,
    serverInfo,
    recipe: recipeFromServerInfo(serverInfo),
    labels: { ...labels, ...(parts.labels ?? {}) },
    warnings: [...(parts.warnings ?? []), ...suspectWarnings(metrics, shards)],
    requests: requestRecordsFromOutputs(parts.outputs, parts.virtualClock ?? false),
    serverMetrics,
    repeat,
    shards,
  };
}
