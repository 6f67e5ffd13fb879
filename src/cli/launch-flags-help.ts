/**
 * The help groups of the launch flags `sim` and `predict` read, made from the launch parser's own
 * table (deployment/flags/effective-flags.ts), with a bare launch's values as the defaults.
 */
import { SGLANG_FLAGS, SIM_MODEL_FLAGS, SIM_SERVER_FLAGS, TRUTH_DEFAULTS, TRUTH_FLAGS, type FlagSpec, defaultLaunchConfig } from '../deployment/index.js';
import type { HelpEntry, HelpGroup } from '../core/command-parser.js';

function entries<T>(specs: readonly FlagSpec<T>[], defaults: Partial<T>): HelpEntry[] {
  return specs.map((spec) => ({
    names: spec.names.map((name) => `--${name}`),
    metavar: spec.metavar,
    help: spec.takes === undefined ? spec.help : `${spec.help}; takes ${spec.takes}`,
    default: defaults[spec.field],
  }));
}

const BARE_LAUNCH = defaultLaunchConfig();

export const SGLANG_FLAGS_HELP: HelpGroup = {
  title: 'SGLang launch flags the simulation reads',
  description:
    "Any other SGLang server flag is accepted and listed as ignored. A pasted 'sglang serve ...' " +
    "or 'python -m sglang.launch_server ...' command works as is; flags may be abbreviated.",
  entries: entries(SGLANG_FLAGS, BARE_LAUNCH),
};

export const SIM_MODEL_FLAGS_HELP: HelpGroup = { title: 'sim flags', entries: entries(SIM_MODEL_FLAGS, BARE_LAUNCH) };

export const SIM_SERVER_FLAGS_HELP: HelpGroup = { title: 'sim server flags', entries: entries(SIM_SERVER_FLAGS, BARE_LAUNCH) };

export const TRUTH_FLAGS_HELP: HelpGroup = {
  title: 'truth mode',
  description: "Chunks at exactly scheduled times instead of the model's: give both --truth-ttft-ms and --truth-itl-ms.",
  entries: entries(TRUTH_FLAGS, TRUTH_DEFAULTS),
};
