/**
 * Keeps a finished `servebench bench` run in the catalog: its JSONL record, resolved arguments
 * (secrets redacted by the store), per-request records, labels and, for `--sim` runs, the simulated
 * deployment's launch flags as its recipe.
 */
import { openCatalog } from './store/catalog.js';
import { runInputFromBench, type BenchRunParts } from './from-bench.js';
import { recipeFromLaunchCommands } from './ingest/read-runs.js';

export interface BenchRecording extends BenchRunParts {
  /** `--db`; null = `SERVEBENCH_DB` or the default location. */
  dbPath: string | null;
  /** `--sim` launch flags when the run targeted the in-process simulator. */
  simFlags: string | null;
}

/** Records the run; returns its id and the catalog file it went into. */
export function recordBenchRun(recording: BenchRecording): { id: string; path: string } {
  const { dbPath, simFlags, ...parts } = recording;
  const run = runInputFromBench(parts);
  if (simFlags !== null) {
    const warnings = run.warnings ?? [];
    run.recipe = recipeFromLaunchCommands([`sglang serve ${simFlags}`], warnings);
    run.warnings = warnings;
    run.labels = { deploy: 'simulated', ...run.labels };
  }
  const catalog = openCatalog(dbPath);
  try {
    return { id: catalog.recordRun(run), path: catalog.path };
  } finally {
    catalog.close();
  }
}
