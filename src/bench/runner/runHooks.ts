/**
 * The single extension point after a run's JSONL record is written: listeners (the catalog)
 * receive the finished run. Nothing is registered by the bench engine itself.
 */
import type { BenchArgs } from '../args/types.js';
import type { BenchmarkMetrics, ServebenchExtras } from '../metrics/types.js';
import type { JsonRecord } from '../output/record.js';
import type { RequestOutput } from '../types.js';

export interface RecordedRun {
  args: BenchArgs;
  metrics: BenchmarkMetrics;
  extras: ServebenchExtras;
  /** The record exactly as appended to the JSONL file. */
  record: JsonRecord;
  /** The JSONL file it was appended to. */
  outputFile: string;
  outputs: readonly RequestOutput[];
}

export type RunListener = (run: RecordedRun) => void | Promise<void>;

const listeners: RunListener[] = [];

/** Registers `listener` for every run recorded in this process; returns its removal function. */
export function onRunRecorded(listener: RunListener): () => void {
  listeners.push(listener);
  return () => {
    const at = listeners.indexOf(listener);
    if (at !== -1) listeners.splice(at, 1);
  };
}

/** Hands a recorded run to every listener, in registration order. */
export async function notifyRunRecorded(run: RecordedRun): Promise<void> {
  for (const listener of listeners) await listener(run);
}
