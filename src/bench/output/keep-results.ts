/**
 * Keeps a `servebench bench` run: the JSONL line, the plots, the catalog run. The catalog run is
 * recorded even when the line could not be appended (the disk filled up, the folder went away
 * mid-run), and the append's error is raised after it; a catalog that cannot be written (locked,
 * corrupt) costs a warning line, not the measurement, which the JSONL line then holds.
 */
import { describeError } from '../../core/errors.js';
import { TOOL_VERSION } from '../../core/version.js';
import type { BenchArgs } from '../args/types.js';
import type { BenchRunConfig } from '../run-config.js';
import type { RequestOutput } from '../types.js';
import { appendJsonl } from './jsonl-file.js';
import type { JsonRecord } from './record.js';

/** What a kept run hands the catalog. */
export interface RunRecording {
  /** The JSONL record as written. */
  record: JsonRecord;
  /** The resolved Namespace, stored as the run's arguments. */
  args: Record<string, unknown>;
  outputs: readonly RequestOutput[];
  startedAt: Date;
  /** e.g. `servebench 0.1.0`. */
  toolVersion: string;
  /** The JSONL file the record was appended to; null when the append failed. */
  outputFile: string | null;
  /** `--db`; null = `SERVEBENCH_DB` or the default location. */
  dbPath: string | null;
}

/** Where results go besides the JSONL file; the command wires them (they load the plotting and the database only when used). */
export interface ResultKeepers {
  /** `--plot-throughput`: the per-second plots as PNG files next to the JSONL file. */
  plotThroughput(outputFile: string, outputs: readonly RequestOutput[]): Promise<void>;
  /** Records the run in the catalog; its id and the catalog file. */
  recordRun(recording: RunRecording): Promise<{ id: string; path: string }>;
}

export interface KeptRun {
  record: JsonRecord;
  /** The resolved Namespace, stored as the run's arguments. */
  args: BenchArgs;
  config: BenchRunConfig;
  outputFile: string;
  outputs: readonly RequestOutput[];
  startedAt: Date;
}

async function recordInCatalog(run: KeptRun, appendedTo: string | null, keepers: ResultKeepers, notice: (line: string) => void): Promise<void> {
  try {
    const { id, path } = await keepers.recordRun({
      record: run.record,
      args: { ...run.args },
      outputs: run.outputs,
      startedAt: run.startedAt,
      toolVersion: `servebench ${TOOL_VERSION}`,
      outputFile: appendedTo,
      dbPath: run.config.catalog.db,
    });
    notice(`Run ${id} recorded in ${path}`);
  } catch (error) {
    const kept = appendedTo === null ? 'nor in a JSONL file' : `its record is in ${appendedTo}`;
    notice(`warning: the run was not recorded in the catalog (${describeError(error)}); ${kept}`);
  }
}

/** Appends the record, writes the plots, records the catalog run; throws the append's error last. */
export async function keepResults(run: KeptRun, keepers: ResultKeepers, notice: (line: string) => void): Promise<void> {
  let appendError: unknown = null;
  try {
    appendJsonl(run.outputFile, run.record);
  } catch (error) {
    appendError = error;
  }
  const appended = appendError === null;
  if (appended && run.config.output.plotThroughput && run.outputs.some((output) => output.success)) await keepers.plotThroughput(run.outputFile, run.outputs);
  if (run.config.catalog.record) await recordInCatalog(run, appended ? run.outputFile : null, keepers, notice);
  if (!appended) throw appendError;
}
