/**
 * Keeps a finished `servebench bench` run in the catalog: its JSONL record, resolved arguments
 * (secrets redacted by the store), per-request records, labels, and as its recipe the deployment
 * its server reported (from-bench.ts), the sim's as any other server's.
 */
import type { RunRecording } from '../bench/index.js';
import { openCatalog } from './store/catalog.js';
import { runInputFromBench } from './from-bench.js';

/** Records the run `servebench bench` kept; returns its id and the catalog file it went into. */
export function recordBenchRun(recording: RunRecording): { id: string; path: string } {
  const { dbPath, ...parts } = recording;
  const catalog = openCatalog(dbPath);
  try {
    return { id: catalog.recordRun(runInputFromBench(parts)), path: catalog.path };
  } finally {
    catalog.close();
  }
}
