/**
 * Turns one sweep point (or one prediction) into what a bench run leaves behind: the JSONL
 * result record and the catalog run, so every point is a normal run in the catalog, labelled
 * with its sweep and load.
 */
import { type BenchmarkMetrics, type BenchRunConfig, type BenchTarget, type ServebenchExtras, buildResultRecord, resolvedNamespace, type RepeatMembership, type RequestOutput } from '../bench/index.js';
import { runInputFromBench, parseDeploymentInstance, type RecipeConfig, type RunInput } from '../catalog/index.js';
import type { PyValue } from '../core/pyrepr.js';
import type { CrossValidationSummary } from '../sim/index.js';
import type { LaunchDeployment } from '../deployment/index.js';

import { TOOL_VERSION as VERSION } from '../core/version.js';

export interface PointRunInput {
  /** The point's run config, and the server it measured (null for predictions): its resolved Namespace is the arguments of the record and the catalog run. */
  config: BenchRunConfig;
  server: BenchTarget | null;
  metrics: BenchmarkMetrics;
  extras: ServebenchExtras;
  outputs: readonly RequestOutput[];
  /** The server's `/get_server_info` body; null for predictions. */
  serverInfo: PyValue;
  startedAt: Date;
  labels: Record<string, string>;
  /** The predicted or simulated deployment, stored as the run's recipe. */
  deployment: LaunchDeployment | null;
  /** Set for predictions: the model's expected error, stored in the record (`buildResultRecord`). */
  prediction?: { expectedError: CrossValidationSummary | null };
  /** One run of a point measured several times: the catalog keeps the point's runs as one repeat group. */
  repeat?: RepeatMembership | null;
}

/**
 * The deployment as the catalog stores it, a recipe: one instance per server, its flags as given
 * (secrets redacted) and the facts they state, read from them as a recipe document's are.
 */
export function recipeOf(deployment: LaunchDeployment, launcher: string): RecipeConfig {
  const warnings: string[] = [];
  const instances = deployment.instances.map((instance) =>
    parseDeploymentInstance({ kind: 'launch', launcher, args: instance.config.rawArgs, startLine: 0, endLine: 0 }, warnings),
  );
  return { instances, env: {}, origin: 'command line' };
}

/** The catalog run of a point; its `metrics` are the JSONL record's values as plain numbers. */
export function pointRunInput(input: PointRunInput): RunInput {
  const { metrics, serverInfo, outputs, extras, prediction, repeat } = input;
  const args = resolvedNamespace(input.config, input.server);
  const record = buildResultRecord({ args, metrics, serverInfo, outputs, extras, prediction, repeat });
  const run = runInputFromBench({
    record,
    args: args as unknown as Record<string, unknown>,
    outputs: input.outputs,
    startedAt: input.startedAt,
    toolVersion: `servebench ${VERSION}`,
    labels: input.labels,
    virtualClock: prediction !== undefined,
  });
  const launcher = input.labels.mode === 'predict' ? 'servebench predict' : 'servebench sim';
  return input.deployment === null ? run : { ...run, recipe: recipeOf(input.deployment, launcher) };
}
