/**
 * SGLang launch flags → LaunchConfig. Pure apart from reading the file `--hardware-spec` names:
 * argv in, config out, `UsageError` for a bad command line.
 * Accepts argparse's `--flag value`, `--flag=value` and unique-prefix abbreviations (SGLang's parser
 * is argparse with `allow_abbrev`), and the leading words of a pasted `sglang serve` or
 * `python -m sglang.launch_server` command.
 */
import { UsageError } from '../../core/errors.js';
import { AT_LEAST_ONE, LISTEN_PORT, MAX_TIMER_SECONDS, SEED, parseFlagNumber, type FlagRange, type NumberKind } from '../../core/flag-range.js';
import { redactArgv } from '../../core/redact.js';
import { findHardware, hardwareNames } from '../model/catalog.js';
import type { LaunchConfig } from '../types.js';
import { readHardwareSpec } from './hardware-spec-file.js';
import { SGLANG_SERVER_FLAGS, type FlagArity } from './sglang-flags.js';

/** Truth mode: every request's chunks at exactly scheduled times (spec: sim lateness ground truth). */
export interface TruthOptions {
  ttftMs: number;
  itlMs: number;
  tokensPerChunk: number;
  /**
   * Every chunk on one step clock shared by all requests (multiples of `itlMs`), the first at the
   * first step at least `ttftMs` after arrival: a continuous-batching engine's pattern, where one
   * decode step writes to every running stream at once. Otherwise each request keeps its own phase.
   */
  sharedSteps: boolean;
}

export interface ParsedLaunch {
  launch: LaunchConfig;
  /** Set when `--truth-ttft-ms` and `--truth-itl-ms` are given. */
  truth: TruthOptions | null;
}

const DISAGGREGATION_CHOICES = ['null', 'prefill', 'decode'] as const;

/** Words a pasted launch command may start with; dropped before parsing. */
const LEADING_WORDS = new Set(['python', 'python3', '-m', 'sglang.launch_server', 'sglang', 'serve', 'launch_server']);

type Setter = (config: LaunchConfig, value: string, flag: string) => void;
type TruthSetter = (truth: Partial<TruthOptions>, value: string, flag: string) => void;

/** A launch flag's number, read and range-checked as every command's numeric flags are. */
function number(flag: string, value: string, kind: NumberKind, range: FlagRange): number {
  return parseFlagNumber(`--${flag}`, value, kind, range);
}

function count(flag: string, value: string): number {
  return number(flag, value, 'int', AT_LEAST_ONE);
}

/** SGLang disables chunked prefill with -1 (any value ≤ 0 does in the deployment model). */
const CHUNKED_PREFILL_RANGE: FlagRange = { min: -1, meaning: '-1: no chunking' };
/** A share of device memory. */
const MEM_FRACTION_RANGE: FlagRange = { above: 0, max: 1 };
/** Truth-mode delays are timers, so no longer than Node's longest one. */
const TRUTH_DELAY_MS_RANGE: FlagRange = { min: 0, max: MAX_TIMER_SECONDS * 1000 };

function choice<T extends string>(flag: string, value: string, choices: readonly T[]): T {
  if (!(choices as readonly string[]).includes(value)) {
    const list = choices.map((c) => `'${c}'`).join(', ');
    throw new UsageError(`argument --${flag}: invalid choice: '${value}' (choose from ${list})`);
  }
  return value as T;
}

/** A catalogued device by key or alias (case-insensitive), stored as its key. */
function hardwareKey(flag: string, value: string): string {
  const profile = findHardware(value);
  if (profile === undefined) {
    const list = hardwareNames().map((name) => `'${name}'`).join(', ');
    throw new UsageError(`argument --${flag}: invalid choice: '${value}' (choose from ${list}, or describe the device with --hardware-spec FILE.json)`);
  }
  return profile.key;
}

/** Flags that shape the simulation, by their SGLang name (aliases share a setter). */
const EFFECTIVE: Record<string, Setter> = {
  'model-path': (c, v) => (c.modelPath = v),
  model: (c, v) => (c.modelPath = v),
  'served-model-name': (c, v) => (c.servedModelName = v),
  host: (c, v) => (c.host = v),
  port: (c, v, f) => (c.port = number(f, v, 'int', LISTEN_PORT)),
  tp: (c, v, f) => (c.tpSize = count(f, v)),
  'tp-size': (c, v, f) => (c.tpSize = count(f, v)),
  'tensor-parallel-size': (c, v, f) => (c.tpSize = count(f, v)),
  dp: (c, v, f) => (c.dpSize = count(f, v)),
  'dp-size': (c, v, f) => (c.dpSize = count(f, v)),
  'data-parallel-size': (c, v, f) => (c.dpSize = count(f, v)),
  ep: (c, v, f) => (c.epSize = count(f, v)),
  'ep-size': (c, v, f) => (c.epSize = count(f, v)),
  'expert-parallel-size': (c, v, f) => (c.epSize = count(f, v)),
  'enable-dp-attention': (c) => (c.enableDpAttention = true),
  'enable-dp-lm-head': (c) => (c.enableDpLmHead = true),
  'moe-dense-tp-size': (c, v, f) => (c.moeDenseTpSize = count(f, v)),
  'max-running-requests': (c, v, f) => (c.maxRunningRequests = count(f, v)),
  'max-total-tokens': (c, v, f) => (c.maxTotalTokens = count(f, v)),
  'chunked-prefill-size': (c, v, f) => (c.chunkedPrefillSize = number(f, v, 'int', CHUNKED_PREFILL_RANGE)),
  'max-prefill-tokens': (c, v, f) => (c.maxPrefillTokens = count(f, v)),
  'context-length': (c, v, f) => (c.contextLength = count(f, v)),
  'mem-fraction-static': (c, v, f) => (c.memFractionStatic = number(f, v, 'float', MEM_FRACTION_RANGE)),
  'kv-cache-dtype': (c, v) => (c.kvCacheDtype = v),
  quantization: (c, v) => (c.quantization = v),
  dtype: (c, v) => (c.dtype = v),
  'page-size': (c, v, f) => (c.pageSize = count(f, v)),
  'disable-radix-cache': (c) => (c.disableRadixCache = true),
  'enable-mixed-chunk': (c) => (c.enableMixedChunk = true),
  'disable-cuda-graph': (c) => (c.disableCudaGraph = true),
  'cuda-graph-max-bs': (c, v, f) => (c.cudaGraphMaxBs = count(f, v)),
  'speculative-algorithm': (c, v) => (c.speculativeAlgorithm = v),
  'speculative-num-steps': (c, v, f) => (c.speculativeNumSteps = count(f, v)),
  'speculative-eagle-topk': (c, v, f) => (c.speculativeEagleTopk = count(f, v)),
  'speculative-num-draft-tokens': (c, v, f) => (c.speculativeNumDraftTokens = count(f, v)),
  'disaggregation-mode': (c, v, f) => (c.disaggregationMode = choice(f, v, DISAGGREGATION_CHOICES)),
  nnodes: (c, v, f) => (c.nnodes = count(f, v)),
  'reasoning-parser': (c, v) => (c.reasoningParser = v),
  'tool-call-parser': (c, v) => (c.toolCallParser = v),
  'enable-metrics': (c) => (c.enableMetrics = true),
  // Sim-only flags.
  hardware: (c, v, f) => (c.hardware = hardwareKey(f, v)),
  'hardware-spec': (c, v) => (c.hardwareProfile = readHardwareSpec(v)),
  'sim-model': (c, v) => (c.simModel = v),
  'sim-seed': (c, v, f) => (c.simSeed = number(f, v, 'int', SEED)),
  'sim-realtime': (c) => (c.simRealtime = true),
};

/** Sim-only flags of truth mode. */
const TRUTH: Record<string, TruthSetter> = {
  'truth-ttft-ms': (t, v, f) => (t.ttftMs = number(f, v, 'float', TRUTH_DELAY_MS_RANGE)),
  'truth-itl-ms': (t, v, f) => (t.itlMs = number(f, v, 'float', TRUTH_DELAY_MS_RANGE)),
  'truth-tokens-per-chunk': (t, v, f) => (t.tokensPerChunk = count(f, v)),
  'truth-shared-steps': (t) => (t.sharedSteps = true),
};

const SIM_ONLY_ARITY: Record<string, FlagArity> = {
  hardware: 'one',
  'hardware-spec': 'one',
  'sim-model': 'one',
  'sim-seed': 'one',
  'sim-realtime': 'none',
  'truth-ttft-ms': 'one',
  'truth-itl-ms': 'one',
  'truth-tokens-per-chunk': 'one',
  'truth-shared-steps': 'none',
};

function arityOf(name: string): FlagArity | undefined {
  return SIM_ONLY_ARITY[name] ?? SGLANG_SERVER_FLAGS.get(name);
}

const ALL_NAMES: string[] = [...new Set([...SGLANG_SERVER_FLAGS.keys(), ...Object.keys(SIM_ONLY_ARITY)])];

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
    disableCudaGraph: false,
    cudaGraphMaxBs: null,
    speculativeAlgorithm: null,
    speculativeNumSteps: null,
    speculativeEagleTopk: null,
    speculativeNumDraftTokens: null,
    disaggregationMode: 'null',
    nnodes: 1,
    reasoningParser: null,
    toolCallParser: null,
    enableMetrics: false,
    hardware: 'h100',
    hardwareProfile: null,
    simModel: null,
    simSeed: 0,
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
    const setter = EFFECTIVE[name];
    const truthSetter = TRUTH[name];
    if (setter) setter(config, value, name);
    else if (truthSetter) truthSetter(truth, value, name);
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
  const sharedSteps = truth.sharedSteps ?? false;
  if (sharedSteps && truth.itlMs === 0) {
    throw new UsageError('--truth-shared-steps needs a step: give --truth-itl-ms above 0 (e.g. --truth-itl-ms 20)');
  }
  return { ttftMs: truth.ttftMs, itlMs: truth.itlMs, tokensPerChunk: truth.tokensPerChunk ?? 1, sharedSteps };
}

/**
 * Splits one pasted command line (as given to `bench --sim "<flags>"`) into words like a POSIX
 * shell: single and double quotes, backslash escapes, and backslash-newline continuations.
 */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let current = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote === "'") {
      if (ch === "'") quote = null;
      else current += ch;
    } else if (quote === '"') {
      if (ch === '"') quote = null;
      else if (ch === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1]!)) current += line[++i];
      else current += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      inWord = true;
    } else if (ch === '\\') {
      const next = line[i + 1];
      i++;
      if (next === undefined || next === '\n') continue;
      current += next;
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(current);
      current = '';
      inWord = false;
    } else {
      current += ch;
      inWord = true;
    }
  }
  if (quote !== null) throw new UsageError(`unterminated ${quote} quote in launch command: ${line}`);
  if (inWord) words.push(current);
  return words;
}
