/**
 * The models a command's launches name, and the one network step of finding them: each hub id's
 * config.json fetched into the Hugging Face cache before anything resolves a model (on this thread,
 * a sim's thread or a search's workers, which read the cache only). Its notes go to stderr, so a
 * command's stdout stays what the reference prints.
 */
import { splitCommandLine } from '../core/command-line.js';
import { fetchModelConfigs, type ModelRequest, parseLaunchArgs } from '../deployment/index.js';
import { parseDeployment } from '../sim/index.js';
import type { SweepPlan } from '../sweep/index.js';

/** Fetches the config.json of every hub id in `requests` that the HF cache lacks; `command` prefixes its notes. */
export async function fetchModels(command: string, requests: readonly ModelRequest[]): Promise<void> {
  await fetchModelConfigs(requests, { notice: (line) => process.stderr.write(`servebench ${command}: ${line}\n`) });
}

/** The model of one sim's launch flags; none for a truth-mode sim, whose fixed timings need no model. */
export function simModels(argv: readonly string[]): ModelRequest[] {
  const { launch, truth } = parseLaunchArgs(argv);
  return truth === null ? [launch] : [];
}

/** The models a sweep predicts or simulates: its launches', or the searched model; none against a real server. */
export function sweepModels(plan: SweepPlan): ModelRequest[] {
  if (plan.kind === 'configs') return [{ modelPath: plan.modelPath, revision: null, simModel: null }];
  const { target } = plan;
  if (target.mode === 'predict') return parseDeployment(splitCommandLine(target.shared ?? ''), target.prefills, target.decodes).instances.map((instance) => instance.config);
  return target.mode === 'sim' ? simModels(splitCommandLine(target.flags)) : [];
}
