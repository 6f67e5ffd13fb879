/**
 * What a stored run is: `measured` on a real server, `simulated` (a run against servebench's sim,
 * which measures the performance model in real time) or `predicted` (the model in virtual time).
 * Tables of best practice are made of measured runs; the other two are plans. Pure.
 */
import { reportsSimServer } from './ingest/server-bodies.js';

export const RUN_MODES = ['measured', 'simulated', 'predicted'] as const;
export type RunMode = (typeof RUN_MODES)[number];

/** What a run states about where its figures came from. */
export interface ModeEvidence {
  labels?: Record<string, string> | null;
  args?: Record<string, unknown> | null;
  metrics?: Record<string, unknown> | null;
  /** The server's `/get_server_info` body. */
  serverInfo?: unknown;
}

/**
 * A run's mode from what it carries: a sweep point's `mode` label (`predict`, `sim`, `server`), a
 * prediction's expected error in its record (`*_prediction_error`), the sim's `/get_server_info`
 * (whether bench started it or it runs apart), an ingested record's `--sim` flags (or the
 * `deploy=simulated` label bench runs got before they kept the server's report), an eval's synthetic
 * answers. Whatever says none of these was measured.
 */
export function runModeOf(run: ModeEvidence): RunMode {
  const labels = run.labels ?? {};
  const metrics = run.metrics ?? {};
  if (labels.mode === 'predict' || Object.keys(metrics).some((key) => key.endsWith('_prediction_error'))) return 'predicted';
  const sim = run.args?.sim;
  if (
    labels.mode === 'sim' ||
    reportsSimServer(run.serverInfo) ||
    labels.deploy === 'simulated' ||
    (typeof sim === 'string' && sim !== '') ||
    metrics.answers === 'synthetic'
  ) {
    return 'simulated';
  }
  return 'measured';
}
