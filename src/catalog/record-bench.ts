/**
 * Keeps a finished `servebench bench` run in the catalog: its JSONL record, resolved arguments
 * (secrets redacted by the store), per-request records, labels and, for `--sim` runs, the simulated
 * deployment's launch flags as its recipe.
 */
import type { RunRecording } from '../bench/index.js';
import { openCatalog } from './store/catalog.js';
import { runInputFromBench } from './from-bench.js';
import { recipeFromLaunchCommands } from './ingest/read-runs.js';

/** Records the run `servebench bench` kept; returns its id and the catalog file it went into. */
export function recordBenchRun(recording: RunRecording): { id: string; path: string } {
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
