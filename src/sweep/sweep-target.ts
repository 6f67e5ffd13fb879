/**
 * What a sweep measures: a prediction, the in-process sim in real time, or a real server. Each
 * target runs one bench at a given run config (`--num-runs` times when measured so); `measureAtFor`
 * turns that into the sweep's `MeasureAt`, recording every run as a catalog run labelled with its
 * sweep and load (a point's runs as one repeat group).
 */
import { openBench, RunInterrupted, signalName, type BenchIo, type BenchRunConfig, type BenchSession, type BenchTarget, type BenchmarkMetrics, type ServebenchExtras, type RepeatMembership, type RequestOutput } from '../bench/index.js';
import type { RunInput } from '../catalog/index.js';
import { deepFreeze } from '../core/deep-freeze.js';
import { UserError } from '../core/errors.js';
import type { PyValue } from '../core/pyrepr.js';
import { redactText } from '../core/redact.js';
import { storedCrossValidation, type CrossValidationSummary, describeDeployment } from '../sim/index.js';
import { type LaunchDeployment } from '../deployment/index.js';
import { embeddedSimTarget, predictBench, type WorkloadCache } from '../predict/index.js';
import { configAtLoad } from './load-config.js';
import { formatLoad, type LoadKind } from './load-series.js';
import { pointRunInput } from './point-record.js';
import type { MeasureAt, PointMeasurement } from './sweep.js';
import { repeatedPoint, type PointRun } from './repeated-point.js';

export type TargetMode = 'predict' | 'sim' | 'server';

export interface BenchOutcome {
  outputs: readonly RequestOutput[];
  durationS: number;
  metrics: BenchmarkMetrics;
  extras: ServebenchExtras;
  serverInfo: PyValue;
  /** Wall seconds per engine second of a time-scaled sim (the times above are its engine's); absent or 1: real time. */
  simTimeScale?: number;
  /** One run of a point measured several times; absent or null when measured once. */
  repeat?: RepeatMembership | null;
}

export interface SweepTarget {
  mode: TargetMode;
  /** What is measured, for the sweep's first line. */
  description: string;
  /** The run config of the bench flags, every point's start. */
  config: BenchRunConfig;
  /** The server a real-time target measures (address and model resolved); null for predictions. */
  server: BenchTarget | null;
  /** The deployment behind the target, when servebench knows it (predict, sim). */
  deployment: LaunchDeployment | null;
  /** For predictions, the model's cross-validated error (null before its first fit); null for targets that measure. */
  prediction: { expectedError: CrossValidationSummary | null } | null;
  /** The point's runs: one, or `--num-runs` of a measurement. */
  run(config: BenchRunConfig): Promise<BenchOutcome[]>;
  close(): Promise<void>;
}

/** A virtual-time target: every point is a prediction against `deployment`. */
export function predictionTarget(deployment: LaunchDeployment, config: BenchRunConfig, workloads: WorkloadCache): SweepTarget {
  return {
    mode: 'predict',
    description: describeDeployment(deployment),
    config,
    server: null,
    deployment,
    prediction: { expectedError: storedCrossValidation() },
    run: async (config) => [{ ...(await predictBench(deployment, config, workloads)), serverInfo: null }],
    close: async () => {},
  };
}

/** A sweep's points print one line each; the bench's own lines stay quiet, its notices (a stop signal) do not. */
const POINT_IO: BenchIo = {
  print: () => {},
  notice: (line) => process.stderr.write(`${line}\n`),
  env: process.env,
};

/** One point through the bench pipeline (its runs); a stop signal ends the sweep. */
async function measurePoint(session: BenchSession, config: BenchRunConfig): Promise<BenchOutcome[]> {
  try {
    return (await session.measure(config, { onStop: 'abandon' })).results;
  } catch (error) {
    if (!(error instanceof RunInterrupted)) throw error;
    throw new UserError(`the sweep was stopped by ${signalName(error.signal)}; points finished so far are in the catalog`, error.exitCode);
  }
}

/** A real-time target: the sim of `simFlags` started in-process, or the server the bench flags name. */
export async function liveTarget(config: BenchRunConfig, simFlags: string | null, deployment: LaunchDeployment | null): Promise<SweepTarget> {
  const session = await openBench(config, POINT_IO, { sim: simFlags === null ? null : embeddedSimTarget(simFlags), console: null, workerThreads: false });
  const server = session.target;
  return {
    mode: simFlags === null ? 'server' : 'sim',
    description: deployment ? describeDeployment(deployment) : `server ${redactText(server.baseUrl ?? `${server.host}:${server.port}`)}`,
    config,
    server,
    deployment,
    prediction: null,
    // The sim replays the same prompts at every load: flush its prefix cache so a point does not
    // reuse the previous point's prefills (a real server's cache is the user's call: --flush-cache).
    run: (point) => measurePoint(session, simFlags === null ? point : deepFreeze({ ...point, load: { ...point.load, flushCache: true } })),
    close: () => session.close(),
  };
}

export interface MeasureOptions {
  kind: LoadKind;
  promptsPerLoad: number | null;
  labels: Record<string, string>;
  /** Stores a point's run; returns its id, or null when nothing is recorded. */
  record(run: RunInput): string | null;
}

/** A time-scaled sim point's label: its figures are in the engine's time, measured that many times slower. */
function timeScaleLabel(simTimeScale: number | undefined): Record<string, string> {
  return simTimeScale === undefined || simTimeScale === 1 ? {} : { sim_time_scale: String(simTimeScale) };
}

/** The sweep's `MeasureAt` over a target; a point measured several times is their means, with intervals (`repeatedPoint`). */
export function measureAtFor(target: SweepTarget, options: MeasureOptions): MeasureAt {
  return async (load) => {
    const config = configAtLoad(target.config, options.kind, load, options.promptsPerLoad);
    const startedAt = new Date();
    const outcomes = await target.run(config);
    const runs = outcomes.map((outcome) => {
      const run = pointRunInput({
        ...outcome,
        config,
        server: target.server,
        startedAt,
        labels: { ...options.labels, mode: target.mode, sweep_load: formatLoad(load), ...timeScaleLabel(outcome.simTimeScale) },
        deployment: target.deployment,
        prediction: target.prediction ?? undefined,
      });
      return { metrics: run.metrics, outputs: outcome.outputs, durationSeconds: outcome.durationS, runId: options.record(run) };
    });
    const first = runs[0]!;
    const measurement: PointMeasurement =
      runs.length === 1 ? first : { ...repeatedPointOf(runs, config.repeat.confidenceLevel), runId: first.runId };
    const { simTimeScale } = outcomes[0]!;
    return simTimeScale === undefined || simTimeScale === 1 ? measurement : { ...measurement, simTimeScale };
  };
}

/** The measurement of a point's runs: their means, pooled requests, and the intervals. */
function repeatedPointOf(runs: readonly PointRun[], level: number): Omit<PointMeasurement, 'runId'> {
  const { metrics, outputs, durationSeconds, summary } = repeatedPoint(runs, level);
  return { metrics, outputs, durationSeconds, repeat: summary };
}
