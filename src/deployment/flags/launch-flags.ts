/**
 * SGLang launch flags → LaunchConfig. Pure apart from reading the file `--hardware-spec` names:
 * argv in, config out, `UsageError` for a bad command line.
 * Accepts argparse's `--flag value`, `--flag=value` and unique-prefix abbreviations (SGLang's parser
 * is argparse with `allow_abbrev`), and the leading words of a pasted `sglang serve` or
 * `python -m sglang.launch_server` command.
 */
import { UsageError } from '../../core/errors.js';
import { redactArgv } from '../../core/redact.js';
import type { LaunchConfig, TruthOptions } from '../launch-config.js';
import { SGLANG_FLAGS, SIM_MODEL_FLAGS, SIM_SERVER_FLAGS, TRUTH_DEFAULTS, TRUTH_FLAGS, type FlagSpec } from './effective-flags.js';
import { primaryFlagName, SGLANG_SERVER_FLAGS, type FlagArity } from './sglang-flags.js';

export interface ParsedLaunch {
  launch: LaunchConfig;
  /** Set when `--truth-ttft-ms` and `--truth-itl-ms` are given. */
  truth: TruthOptions | null;
}

/** Words a pasted launch command may start with; dropped before parsing. */
const LEADING_WORDS = new Set(['python', 'python3', '-m', 'sglang.launch_server', 'sglang', 'serve', 'launch_server']);

/** Each name and alias of a table's flags, to its entry. */
function byName<T>(tables: readonly (readonly FlagSpec<T>[])[]): Map<string, FlagSpec<T>> {
  return new Map(tables.flat().flatMap((spec) => spec.names.map((name): [string, FlagSpec<T>] => [name, spec])));
}

const EFFECTIVE = byName([SGLANG_FLAGS, SIM_MODEL_FLAGS, SIM_SERVER_FLAGS]);
const TRUTH = byName([TRUTH_FLAGS]);

/** The sim's own flags, which SGLang does not know, with their arity. */
const SIM_ONLY_ARITY = new Map<string, FlagArity>(
  [...SIM_MODEL_FLAGS, ...SIM_SERVER_FLAGS, ...TRUTH_FLAGS].flatMap((spec) => spec.names.map((name): [string, FlagArity] => [name, spec.metavar === undefined ? 'none' : 'one'])),
);

function arityOf(name: string): FlagArity | undefined {
  return SIM_ONLY_ARITY.get(name) ?? SGLANG_SERVER_FLAGS.get(name);
}

const ALL_NAMES: string[] = [...new Set([...SGLANG_SERVER_FLAGS.keys(), ...SIM_ONLY_ARITY.keys()])];

/** Every flag name a written one may abbreviate (argparse accepts any unique prefix). */
function flagsStartingWith(written: string): string[] {
  return ALL_NAMES.filter((name) => name.startsWith(written));
}

/** The flag a written name stands for; as written when it is no known flag or an ambiguous prefix. */
function fullFlagName(written: string): string {
  if (arityOf(written) !== undefined) return written;
  const matches = flagsStartingWith(written);
  return matches.length === 1 ? matches[0]! : written;
}

/**
 * The SGLang flag a written name stands for, as servebench names it: any of SGLang's spellings or a
 * unique prefix (`--tensor-parallel-size`, `--tp`, `--speculative-algo`), with or without its dashes;
 * null when it is no SGLang flag.
 */
export function sglangFlagName(written: string): string | null {
  const name = fullFlagName(written.replace(/^--?/, ''));
  return SGLANG_SERVER_FLAGS.has(name) ? primaryFlagName(name) : null;
}

/** Resolves a flag as argparse does: an exact name wins, else a unique prefix; else a usage error. */
function resolveFlagName(written: string): string {
  const name = fullFlagName(written);
  if (arityOf(name) !== undefined) return name;
  const matches = flagsStartingWith(written);
  if (matches.length > 1) {
    throw new UsageError(`ambiguous option: --${written} could match ${matches.slice(0, 6).map((m) => `--${m}`).join(', ')}`);
  }
  throw new UsageError(`unrecognized argument --${written}: it is neither an SGLang server flag nor a sim flag (see 'servebench sim --help')`);
}

/** The default LaunchConfig of a bare `sglang serve --model-path X` (SGLang's own defaults). */
export function defaultLaunchConfig(): LaunchConfig {
  return {
    modelPath: '',
    revision: null,
    servedModelName: null,
    host: '127.0.0.1',
    port: 30000,
    tpSize: 1,
    dpSize: 1,
    epSize: 1,
    enableDpAttention: false,
    enableDpLmHead: false,
    moeDenseTpSize: null,
    maxRunningRequests: null,
    maxTotalTokens: null,
    chunkedPrefillSize: null,
    maxPrefillTokens: null,
    contextLength: null,
    memFractionStatic: null,
    kvCacheDtype: null,
    quantization: null,
    dtype: null,
    pageSize: null,
    disableRadixCache: false,
    enableMixedChunk: false,
    disableOverlapSchedule: false,
    disableCudaGraph: false,
    cudaGraphMaxBs: null,
    speculativeAlgorithm: null,
    speculativeNumSteps: null,
    speculativeEagleTopk: null,
    speculativeNumDraftTokens: null,
    disaggregationMode: 'null',
    disaggregationBootstrapPort: 8998,
    disaggregationTransferBackend: 'mooncake',
    disaggregationIbDevice: null,
    nnodes: 1,
    reasoningParser: null,
    toolCallParser: null,
    enableMetrics: false,
    logLevel: 'info',
    decodeLogInterval: 40,
    logRequests: false,
    logRequestsLevel: 2,
    hardware: 'h100',
    hardwareProfile: null,
    simModel: null,
    simSeed: 0,
    simDataset: null,
    simRealtime: false,
    ignoredFlags: [],
    rawArgs: [],
  };
}

function dropLeadingWords(argv: readonly string[]): string[] {
  let start = 0;
  while (start < argv.length && LEADING_WORDS.has(argv[start]!)) start++;
  // Line continuations survive when a multi-line recipe is split naively.
  return argv.slice(start).filter((arg) => arg !== '\\');
}

/**
 * Parses SGLang launch flags (plus the sim-only `--hardware`, `--hardware-spec`, `--sim-model`, `--sim-seed`, `--sim-realtime` and the
 * `--truth-*` flags) into a LaunchConfig. Throws `UsageError` naming the offending flag.
 */
export function parseLaunchArgs(argv: readonly string[]): ParsedLaunch {
  const args = dropLeadingWords(argv);
  const config = defaultLaunchConfig();
  const truth: Partial<TruthOptions> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('--') || arg === '--') {
      throw new UsageError(`unexpected argument '${arg}': SGLang flags start with '--' (e.g. --model-path ${arg})`);
    }
    const eq = arg.indexOf('=');
    const written = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    const name = resolveFlagName(written);
    const arity = arityOf(name)!;
    const values: string[] = [];
    if (eq !== -1) {
      if (arity === 'none') throw new UsageError(`argument --${name}: ignored explicit argument '${arg.slice(eq + 1)}'`);
      values.push(arg.slice(eq + 1));
    } else if (arity === 'one') {
      const next = args[i + 1];
      if (next === undefined || (next.startsWith('--') && !/^--?\d/.test(next))) throw new UsageError(`argument --${name}: expected one argument`);
      values.push(next);
      i++;
    } else if (arity === 'list') {
      while (i + 1 < args.length && !args[i + 1]!.startsWith('--')) values.push(args[++i]!);
    }
    const value = values[0] ?? '';
    const effective = EFFECTIVE.get(name);
    const truthFlag = TRUTH.get(name);
    if (effective) effective.set(config, value, name);
    else if (truthFlag) truthFlag.set(truth, value, name);
    else config.ignoredFlags.push(`--${name}`);
  }
  if (config.modelPath === '') {
    throw new UsageError('the following arguments are required: --model-path (e.g. --model-path Qwen/Qwen3-8B)');
  }
  config.rawArgs = redactArgv(args, fullFlagName);
  return { launch: config, truth: completeTruth(truth) };
}

function completeTruth(truth: Partial<TruthOptions>): TruthOptions | null {
  const given = Object.keys(truth).length > 0;
  if (!given) return null;
  if (truth.ttftMs === undefined || truth.itlMs === undefined) {
    throw new UsageError('truth mode needs both --truth-ttft-ms and --truth-itl-ms (e.g. --truth-ttft-ms 50 --truth-itl-ms 20)');
  }
  const sharedSteps = truth.sharedSteps ?? TRUTH_DEFAULTS.sharedSteps;
  if (sharedSteps && truth.itlMs === 0) {
    throw new UsageError('--truth-shared-steps needs a step: give --truth-itl-ms above 0 (e.g. --truth-itl-ms 20)');
  }
  return { ttftMs: truth.ttftMs, itlMs: truth.itlMs, tokensPerChunk: truth.tokensPerChunk ?? TRUTH_DEFAULTS.tokensPerChunk, sharedSteps };
}

