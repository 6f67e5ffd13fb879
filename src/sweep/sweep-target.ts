/**
 * What a sweep measures: a prediction, the in-process sim in real time, or a real server. Each
 * target runs one bench at a given run config; `measureAtFor` turns that into the sweep's
 * `MeasureAt`, recording every point as a catalog run labelled with its sweep and load.
 */
import { resolvedNamespace } from '../bench/args/resolved-namespace.js';
import type { BenchRunConfig } from '../bench/run-config.js';
import type { BenchTarget } from '../bench/target.js';
import type { BenchmarkMetrics, ServebenchExtras } from '../bench/metrics/types.js';
import type { RequestOutput } from '../bench/types.js';
import type { RunInput } from '../catalog/types.js';
import { deepFreeze } from '../core/deep-freeze.js';
import type { PyValue } from '../core/pyrepr.js';
import { redactText } from '../core/redact.js';
import { storedCrossValidation, type CrossValidationSummary } from '../sim/model/efficiency.js';
import type { WorkloadFlags } from './bench-setup.js';
import { configAtLoad } from './load-config.js';
import { openLiveTarget, runLive } from './live-bench.js';
import { formatLoad, type LoadKind } from './load-series.js';
import { pointRunInput } from './point-record.js';
import { describeDeployment, type PredictDeployment } from './predict-deployment.js';
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
  /** What is measured, for the sweep's first line. */
  description: string;
  /** The bench flags every point starts from. */
  flags: WorkloadFlags;
  /** The server a real-time target measures (address and model resolved); null for predictions. */
  server: BenchTarget | null;
  /** The deployment behind the target, when servebench knows it (predict, sim). */
  deployment: PredictDeployment | null;
  /** For predictions, the model's cross-validated error (null before its first fit); null for targets that measure. */
  prediction: { expectedError: CrossValidationSummary | null } | null;
  run(config: BenchRunConfig): Promise<BenchOutcome>;
  close(): Promise<void>;
}

/** A virtual-time target: every point is a prediction against `deployment`. */
export function predictionTarget(deployment: PredictDeployment, flags: WorkloadFlags, workloads: WorkloadCache): SweepTarget {
  return {
    mode: 'predict',
    description: describeDeployment(deployment),
    flags,
    server: null,
    deployment,
    prediction: { expectedError: storedCrossValidation() },
    run: async (config) => ({ ...(await predictBench(deployment, config, workloads)), serverInfo: null }),
    close: async () => {},
  };
}

/** A real-time target: the sim of `simFlags` started in-process, or the server the bench flags name. */
export async function liveTarget(flags: WorkloadFlags, simFlags: string | null, deployment: PredictDeployment | null): Promise<SweepTarget> {
  const live = await openLiveTarget(flags.config, simFlags);
  const server = live.target;
  return {
    mode: simFlags === null ? 'server' : 'sim',
    description: deployment ? describeDeployment(deployment) : `server ${redactText(server.baseUrl ?? `${server.host}:${server.port}`)}`,
    flags,
    server,
    deployment,
    prediction: null,
    // The sim replays the same prompts at every load: flush its prefix cache so a point does not
    // reuse the previous point's prefills (a real server's cache is the user's call: --flush-cache).
    run: (config) => runLive(live, simFlags === null ? config : deepFreeze({ ...config, load: { ...config.load, flushCache: true } })),
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
    const config = configAtLoad(target.flags.config, options.kind, load, options.promptsPerLoad);
    const startedAt = new Date();
    const outcome = await target.run(config);
    const run = pointRunInput({
      ...outcome,
      args: resolvedNamespace(target.flags.args, config, target.server),
      startedAt,
      labels: { ...options.labels, mode: target.mode, sweep_load: formatLoad(load) },
      deployment: target.deployment,
      prediction: target.prediction ?? undefined,
    });
    return { metrics: run.metrics, outputs: outcome.outputs, durationSeconds: outcome.durationS, runId: options.record(run) };
  };
}
