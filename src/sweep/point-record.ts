/**
 * Turns one sweep point (or one prediction) into what a bench run leaves behind: the JSONL
 * result record and the catalog run, so every point is a normal run in the catalog, labelled
 * with its sweep and load.
 */
import { type BenchmarkMetrics, type BenchRunConfig, type BenchTarget, type ServebenchExtras, buildResultRecord, resolvedNamespace, type RepeatMembership, type RequestOutput } from '../bench/index.js';
import { runInputFromBench, parseDeploymentInstance, type RecipeConfig, type RunInput } from '../catalog/index.js';
import type { PyValue } from '../core/pyrepr.js';
import { resolveInstance, type CrossValidationSummary } from '../sim/index.js';
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
  /** The predicted or simulated deployment, stored as the run's recipe where the server reported none. */
  deployment: LaunchDeployment | null;
  /** Set for predictions: the model's expected error, stored in the record (`buildResultRecord`). */
  prediction?: { expectedError: CrossValidationSummary | null };
  /** One run of a point measured several times: the catalog keeps the point's runs as one repeat group. */
  repeat?: RepeatMembership | null;
}

/**
 * A predicted deployment as the catalog stores it, a recipe: one instance per server, its flags as
 * given (secrets redacted) and the facts they state, read from them as a recipe document's are, with
 * the device and weights' format the model runs it on (what the sim reports of a simulated one).
 */
export function recipeOf(deployment: LaunchDeployment, launcher: string): RecipeConfig {
  const warnings: string[] = [];
  const instances = deployment.instances.map((instance) => {
    const parsed = parseDeploymentInstance({ kind: 'launch', launcher, args: instance.config.rawArgs, startLine: 0, endLine: 0 }, warnings);
    const { hardware, quant } = resolveInstance(instance.config);
    const { key, name, unit, devicesPerCard } = hardware;
    return { ...parsed, hardware: { key, name, unit, devicesPerCard }, weightFormat: quant.name };
  });
  return { instances, env: {}, origin: 'command line' };
}

/**
 * The catalog run of a point; its `metrics` are the JSONL record's values as plain numbers. Its recipe
 * is the deployment the server reported (the sim's, or a real server's), else the predicted one.
 */
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
  if (run.recipe !== null && run.recipe !== undefined) return run;
  const launcher = input.labels.mode === 'predict' ? 'servebench predict' : 'servebench sim';
  return input.deployment === null ? run : { ...run, recipe: recipeOf(input.deployment, launcher) };
}
