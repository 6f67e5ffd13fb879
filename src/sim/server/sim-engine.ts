/** The engine a sim's launch flags make: the performance model's, or truth mode's exact schedule. */
import { UserError } from '../../core/errors.js';
import { createEngine } from '../engine/index.js';
import type { TruthOptions, LaunchConfig } from '../../deployment/index.js';
import { resolveInstance, type ResolvedInstance } from '../model/resolve-instance.js';
import { createTruthEngine } from '../truth/truth-engine.js';
import type { Engine } from '../types.js';
import type { ServerLog } from './server-log.js';

/** The resolved instance the engine models; in truth mode null when the model is unknown (truth mode needs none). */
export function resolveSimDeployment(launch: LaunchConfig, truth: TruthOptions | null): ResolvedInstance | null {
  if (truth === null) return resolveInstance(launch);
  try {
    return resolveInstance(launch);
  } catch (error) {
    if (error instanceof UserError) return null;
    throw error;
  }
}

/** The sim's engine; `log` observes its scheduler steps (SGLang's batch lines). */
export function createSimEngine(launch: LaunchConfig, deployment: ResolvedInstance | null, truth: TruthOptions | null, log: ServerLog | null = null): Engine {
  if (truth !== null) return createTruthEngine(truth);
  return createEngine(launch, { ...(deployment === null ? {} : { deployment }), onRankStep: log?.rankStepObserver });
}
