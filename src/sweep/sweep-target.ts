/**
 * What a sweep measures: a prediction, the in-process sim in real time, or a real server. Each
 * target runs one bench at given args; `measureAtFor` turns that into the sweep's `MeasureAt`,
 * recording every point as a catalog run labelled with its sweep and load.
 */
import type { BenchArgs } from '../bench/args/types.js';
import type { BenchmarkMetrics, ServebenchExtras } from '../bench/metrics/types.js';
import type { RequestOutput } from '../bench/types.js';
import type { RunInput } from '../catalog/types.js';
import type { PyValue } from '../core/pyrepr.js';
import { storedCrossValidation, type CrossValidationSummary } from '../sim/model/efficiency.js';
import { argsAtLoad } from './load-args.js';
import { formatLoad, type LoadKind } from './load-series.js';
import { openLiveTarget, runLive } from './live-bench.js';
import { pointRunInput } from './point-record.js';
import type { PredictDeployment } from './predict-deployment.js';
import { predictBench } from './prediction.js';
import type { MeasureAt } from './sweep.js';
import type { WorkloadCache } from './workload-cache.js';

export type TargetMode = 'predict' | 'sim' | 'server';

export interface BenchOutcome {
  outputs: readonly RequestOutput[];
  durationS: number;
  metrics: BenchmarkMetrics;
  extras: ServebenchExtras;
  serverInfo: PyValue;
}

export interface SweepTarget {
  mode: TargetMode;
  /** The args every point starts from (model resolved). */
  args: BenchArgs;
  /** The deployment behind the target, when servebench knows it (predict, sim). */
  deployment: PredictDeployment | null;
  /** For predictions, the model's cross-validated error (null before its first fit); null for targets that measure. */
  prediction: { expectedError: CrossValidationSummary | null } | null;
  run(args: BenchArgs): Promise<BenchOutcome>;
  close(): Promise<void>;
}

/** A virtual-time target: every point is a prediction against `deployment`. */
export function predictionTarget(deployment: PredictDeployment, args: BenchArgs, workloads: WorkloadCache): SweepTarget {
  return {
    mode: 'predict',
    args,
    deployment,
    prediction: { expectedError: storedCrossValidation() },
    run: async (pointArgs) => ({ ...(await predictBench(deployment, pointArgs, workloads)), serverInfo: null }),
    close: async () => {},
  };
}

/** A real-time target: the sim of `simFlags` started in-process, or the server the bench flags name. */
export async function liveTarget(args: BenchArgs, simFlags: string | null, deployment: PredictDeployment | null): Promise<SweepTarget> {
  const live = await openLiveTarget(args, simFlags);
  return {
    mode: simFlags === null ? 'server' : 'sim',
    args: live.args,
    deployment,
    prediction: null,
    // The sim replays the same prompts at every load: flush its prefix cache so a point does not
    // reuse the previous point's prefills (a real server's cache is the user's call: --flush-cache).
    run: (pointArgs) => runLive(live, simFlags === null ? pointArgs : { ...pointArgs, flush_cache: true }),
    close: () => live.close(),
  };
}

export interface MeasureOptions {
  kind: LoadKind;
  promptsPerLoad: number | null;
  labels: Record<string, string>;
  /** Stores a point's run; returns its id, or null when nothing is recorded. */
  record(run: RunInput): string | null;
}

/** The sweep's `MeasureAt` over a target. */
export function measureAtFor(target: SweepTarget, options: MeasureOptions): MeasureAt {
  return async (load) => {
    const args = argsAtLoad(target.args, options.kind, load, options.promptsPerLoad);
    const startedAt = new Date();
    const outcome = await target.run(args);
    const run = pointRunInput({
      ...outcome,
      args,
      startedAt,
      labels: { ...options.labels, mode: target.mode, sweep_load: formatLoad(load) },
      deployment: target.deployment,
      prediction: target.prediction ?? undefined,
    });
    return { metrics: run.metrics, outputs: outcome.outputs, durationSeconds: outcome.durationS, runId: options.record(run) };
  };
}
