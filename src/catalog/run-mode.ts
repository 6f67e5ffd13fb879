/**
 * What a stored run is: `measured` on a real server, `simulated` (a run against servebench's sim,
 * which measures the performance model in real time) or `predicted` (the model in virtual time).
 * Tables of best practice are made of measured runs; the other two are plans. Pure.
 */
export const RUN_MODES = ['measured', 'simulated', 'predicted'] as const;
export type RunMode = (typeof RUN_MODES)[number];

/** What a run states about where its figures came from. */
export interface ModeEvidence {
  labels?: Record<string, string> | null;
  args?: Record<string, unknown> | null;
  metrics?: Record<string, unknown> | null;
}

/**
 * A run's mode from what it carries: a sweep point's `mode` label (`predict`, `sim`, `server`), a
 * prediction's expected error in its record (`*_prediction_error`), a bench run's `--sim` flags (in its
 * arguments, or the `deploy=simulated` label such runs get), an eval's synthetic answers. Whatever
 * says none of these was measured.
 */
export function runModeOf(run: ModeEvidence): RunMode {
  const labels = run.labels ?? {};
  const metrics = run.metrics ?? {};
  if (labels.mode === 'predict' || Object.keys(metrics).some((key) => key.endsWith('_prediction_error'))) return 'predicted';
  const sim = run.args?.sim;
  if (labels.mode === 'sim' || labels.deploy === 'simulated' || (typeof sim === 'string' && sim !== '') || metrics.answers === 'synthetic') {
    return 'simulated';
  }
  return 'measured';
}
