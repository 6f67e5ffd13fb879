/**
 * The flags that have an effect on the simulation — SGLang's that the model and the server read,
 * and the sim's own — one entry per flag: its name (its other spellings come from sglang-flags.ts),
 * the field it sets, how its value is read and checked, and its help line. The launch parser
 * applies these entries; `sim --help` and `predict --help` list them. Every other SGLang flag is
 * accepted and reported as ignored.
 */
import { AT_LEAST_ONE, LISTEN_PORT, MAX_TIMER_SECONDS, SEED, describeRange, parseFlagNumber, type FlagRange, type NumberKind } from '../../core/flag-range.js';
import { DATASET_CHOICES } from '../../core/dataset-names.js';
import { UsageError } from '../../core/errors.js';
import { findHardware, hardwareNames } from '../model/catalog.js';
import { hardwareSpecFieldsHelp } from '../model/hardware-spec.js';
import { TRANSFER_BACKENDS, type LaunchConfig, type LogLevel, type TruthOptions } from '../launch-config.js';
import { readHardwareSpec } from './hardware-spec-file.js';
import { flagSpellings } from './sglang-flags.js';

export interface FlagSpec<T> {
  names: readonly [string, ...string[]];
  /** The field the flag sets; a bare launch's value of it is the default help shows. */
  field: keyof T;
  /** The value's placeholder in help; absent for a switch. */
  metavar?: string;
  help: string;
  /** What a numeric flag takes, as its check states it (`an integer ≥ 1`); absent for other flags. */
  takes?: string;
  /** Stores the flag's value (a switch gets ''); `flag` is the name used, for messages. */
  set(target: T, value: string, flag: string): void;
}

type SwitchField<T> = { [K in keyof T]-?: T[K] extends boolean | undefined ? K : never }[keyof T];

/** Entry builders for flags setting fields of `T`. */
function flagsOf<T>() {
  return {
    value<K extends keyof T>(name: string, field: K, metavar: string, read: Reader<T[K]>, help: string): FlagSpec<T> {
      return {
        names: flagSpellings(name),
        field,
        metavar,
        help,
        ...(read.takes === undefined ? {} : { takes: read.takes }),
        set: (target, value, flag) => void (target[field] = read(value, flag)),
      };
    },
    toggle(name: string, field: SwitchField<T>, help: string): FlagSpec<T> {
      return { names: flagSpellings(name), field, help, set: (target) => void (target[field] = true as T[SwitchField<T>]) };
    },
  };
}

/** Reads a flag's value; a numeric reader also says what it takes, for the help. */
type Reader<V> = ((value: string, flag: string) => V) & { takes?: string };

const text = (value: string): string => value;

/** A launch flag's number, read and range-checked as every command's numeric flags are. */
function number(kind: NumberKind, range: FlagRange): Reader<number> {
  return Object.assign((value: string, flag: string) => parseFlagNumber(`--${flag}`, value, kind, range), { takes: describeRange(kind, range) });
}

const count = number('int', AT_LEAST_ONE);
/** SGLang disables chunked prefill with -1 (any value ≤ 0 does in the deployment model). */
const CHUNKED_PREFILL_RANGE: FlagRange = { min: -1, meaning: '-1: no chunking' };
/** A share of device memory. */
const MEM_FRACTION_RANGE: FlagRange = { above: 0, max: 1 };
/** Truth-mode delays are timers, so no longer than Node's longest one. */
const TRUTH_DELAY_MS_RANGE: FlagRange = { min: 0, max: MAX_TIMER_SECONDS * 1000 };

const DISAGGREGATION_CHOICES = ['null', 'prefill', 'decode'] as const;
/** Python logging's level names, as SGLang's `--log-level` takes them (any case). */
const LOG_LEVEL_CHOICES = ['critical', 'error', 'warning', 'info', 'debug'] as const satisfies readonly LogLevel[];
/** `--log-requests-level`: 0 metadata, 1 and sampling parameters, 2 and partial input/output, 3 everything. */
const LOG_REQUESTS_LEVEL_RANGE: FlagRange = { min: 0, max: 3 };

/** A value from a fixed list, as argparse's `choices` checks it; `normalize` maps what was written first. */
function oneOf<C extends string>(choices: readonly C[], normalize: (value: string) => string = (value) => value): (value: string, flag: string) => C {
  return (value, flag) => {
    const written = normalize(value);
    if (!(choices as readonly string[]).includes(written)) {
      const list = choices.map((c) => `'${c}'`).join(', ');
      throw new UsageError(`argument --${flag}: invalid choice: '${value}' (choose from ${list})`);
    }
    return written as C;
  };
}

/** A catalogued device by key or alias (case-insensitive), stored as its key. */
function hardwareKey(value: string, flag: string): string {
  const profile = findHardware(value);
  if (profile === undefined) {
    const list = hardwareNames().map((name) => `'${name}'`).join(', ');
    throw new UsageError(`argument --${flag}: invalid choice: '${value}' (choose from ${list}, or describe the device with --hardware-spec FILE.json)`);
  }
  return profile.key;
}

/**
 * A git revision as a hub takes it: a branch, a tag or a commit. It names a file under the HF cache's
 * `refs/`, so no part of it may climb out of there.
 */
function revisionName(value: string, flag: string): string {
  const parts = value.split('/');
  if (value.includes('\\') || value.includes('\0') || parts.some((part) => part === '' || part === '.' || part === '..')) {
    throw new UsageError(`argument --${flag}: '${value}' is not a branch, tag or commit name (e.g. --${flag} main)`);
  }
  return value;
}

const launch = flagsOf<LaunchConfig>();

/** SGLang's flags that shape the simulation or its server. Absent, a value SGLang derives takes their place. */
export const SGLANG_FLAGS: readonly FlagSpec<LaunchConfig>[] = [
  launch.value('model-path', 'modelPath', 'PATH', text, 'the model: a Hugging Face id or a local folder (its config.json); required'),
  launch.value('revision', 'revision', 'REV', revisionName, "the branch, tag or commit of a Hugging Face id's config.json (default: main)"),
  launch.value('served-model-name', 'servedModelName', 'NAME', text, 'the model name the APIs answer to, instead of the path'),
  launch.value('host', 'host', 'HOST', text, 'address the server listens on'),
  launch.value('port', 'port', 'PORT', number('int', LISTEN_PORT), 'port the server listens on'),
  launch.value('tp-size', 'tpSize', 'N', count, 'tensor-parallel size: devices of one instance (of one replica without DP attention)'),
  launch.value('dp-size', 'dpSize', 'N', count, 'data-parallel size: replicas, or attention ranks with --enable-dp-attention'),
  launch.value('ep-size', 'epSize', 'N', count, 'expert-parallel size of the MoE layers'),
  launch.toggle('enable-dp-attention', 'enableDpAttention', 'split attention over --dp-size data-parallel ranks inside the tensor-parallel group'),
  launch.toggle('enable-dp-lm-head', 'enableDpLmHead', 'with DP attention, split the LM head within each attention group'),
  launch.value('moe-dense-tp-size', 'moeDenseTpSize', 'N', count, 'tensor-parallel size of the dense MLP layers of a MoE model'),
  launch.value('max-running-requests', 'maxRunningRequests', 'N', count, 'requests decoding at once, over all DP ranks'),
  launch.value('max-total-tokens', 'maxTotalTokens', 'N', count, 'cap on the KV pool, in tokens'),
  launch.value('chunked-prefill-size', 'chunkedPrefillSize', 'N', number('int', CHUNKED_PREFILL_RANGE), 'prefill chunk in tokens; -1 disables chunking'),
  launch.value('max-prefill-tokens', 'maxPrefillTokens', 'N', count, 'tokens of one prefill batch'),
  launch.value('context-length', 'contextLength', 'N', count, "context length; the model's own when absent"),
  launch.value('mem-fraction-static', 'memFractionStatic', 'F', number('float', MEM_FRACTION_RANGE), 'share of device memory for weights and the KV pool'),
  launch.value('kv-cache-dtype', 'kvCacheDtype', 'DTYPE', text, 'KV cache element type: auto, bf16, fp8_e4m3, fp8_e5m2 or int8'),
  launch.value('quantization', 'quantization', 'METHOD', text, "weight format (fp8, w8a8_int8, ...); wins over the checkpoint's"),
  launch.value('dtype', 'dtype', 'DTYPE', text, "recorded; the weights' format comes from the checkpoint and --quantization"),
  launch.value('page-size', 'pageSize', 'N', count, 'tokens per KV page'),
  launch.toggle('disable-radix-cache', 'disableRadixCache', 'no prefix cache: every prompt is prefilled whole'),
  launch.toggle('enable-mixed-chunk', 'enableMixedChunk', 'run prefill chunks in the same batch as decodes'),
  launch.toggle('disable-overlap-schedule', 'disableOverlapSchedule', "the host's work of each step no longer hidden behind the device's: the two add up"),
  launch.toggle('disable-cuda-graph', 'disableCudaGraph', 'decode without CUDA graphs: every kernel pays its launch'),
  launch.value('cuda-graph-max-bs', 'cudaGraphMaxBs', 'N', count, 'largest decode batch run as a CUDA graph'),
  launch.value('speculative-algorithm', 'speculativeAlgorithm', 'NAME', text, 'speculative decoding: EAGLE, EAGLE3, NEXTN, ...'),
  launch.value('speculative-num-steps', 'speculativeNumSteps', 'N', count, 'draft steps per verification'),
  launch.value('speculative-eagle-topk', 'speculativeEagleTopk', 'K', count, 'draft branches per step'),
  launch.value('speculative-num-draft-tokens', 'speculativeNumDraftTokens', 'N', count, 'draft tokens verified at once'),
  launch.value('disaggregation-mode', 'disaggregationMode', `{${DISAGGREGATION_CHOICES.join(',')}}`, oneOf(DISAGGREGATION_CHOICES), 'PD separation: this instance prefills or decodes only'),
  launch.value('disaggregation-bootstrap-port', 'disaggregationBootstrapPort', 'PORT', number('int', LISTEN_PORT), "PD: the prefill's bootstrap server listens on it (on --host); a decode uses it when a request's bootstrap_port is null"),
  launch.value(
    'disaggregation-transfer-backend',
    'disaggregationTransferBackend',
    `{${TRANSFER_BACKENDS.join(',')}}`,
    oneOf(TRANSFER_BACKENDS),
    "PD: the KV transfer engine; mooncake, nixl, mori and ascend move the KV over the nodes' NICs (the device's scale-out bandwidth), fake moves none",
  ),
  launch.value(
    'disaggregation-ib-device',
    'disaggregationIbDevice',
    'DEVICES',
    text,
    "PD: the RDMA devices the transfer uses (mlx5_0,mlx5_1 or a JSON map of device to NIC); fewer NICs than an instance's devices on a node share their bandwidth",
  ),
  launch.value('nnodes', 'nnodes', 'N', count, 'nodes one instance spans'),
  launch.value('reasoning-parser', 'reasoningParser', 'NAME', text, "answer with reasoning text apart, in this parser's format"),
  launch.value('tool-call-parser', 'toolCallParser', 'NAME', text, "answer tool calls in this parser's format"),
  launch.toggle('enable-metrics', 'enableMetrics', 'serve Prometheus metrics at /metrics'),
  launch.value('log-level', 'logLevel', 'LEVEL', oneOf(LOG_LEVEL_CHOICES, (value) => value.toLowerCase()), "sim server's log: info and debug print SGLang's scheduler lines, warning and above do not"),
  launch.value('decode-log-interval', 'decodeLogInterval', 'N', count, 'decode steps of a scheduler rank between two of its Decode batch lines'),
  launch.toggle('log-requests', 'logRequests', "print a Receive and a Finish line per request, as SGLang's tokenizer manager does"),
  launch.value('log-requests-level', 'logRequestsLevel', 'N', number('int', LOG_REQUESTS_LEVEL_RANGE), '--log-requests detail: 0 metadata, 1 and sampling parameters, 2 and the first and last 1024 characters of inputs and outputs, 3 all'),
];

/** The sim's own flags that choose the device, the model and the draws. */
export const SIM_MODEL_FLAGS: readonly FlagSpec<LaunchConfig>[] = [
  launch.value('hardware', 'hardware', 'NAME', hardwareKey, `device profile: ${hardwareNames().join(', ')}`),
  launch.value(
    'hardware-spec',
    'hardwareProfile',
    'FILE.json',
    readHardwareSpec,
    'a device that is not listed, described by a JSON object with the fields of a hardware.json entry; wins over --hardware. ' +
      `${hardwareSpecFieldsHelp()} Peaks are dense TFLOPS/TOPS.`,
  ),
  launch.value('sim-model', 'simModel', 'NAME', text, 'model catalog key, when --model-path does not name a known model'),
  launch.value('sim-seed', 'simSeed', 'N', number('int', SEED), 'seed of every draw the sim makes'),
  launch.value(
    'sim-dataset',
    'simDataset',
    'NAME',
    oneOf(DATASET_CHOICES),
    "the bench dataset (--dataset-name) its requests come from, for speculative decoding's acceptance; 'bench --sim' and 'predict' set it",
  ),
];

/** The sim's own flag for its serving thread. */
export const SIM_SERVER_FLAGS: readonly FlagSpec<LaunchConfig>[] = [
  launch.toggle(
    'sim-realtime',
    'simRealtime',
    "run the sim's event loop under the real-time scheduler (SCHED_FIFO via chrt; needs root or CAP_SYS_NICE): " +
      'on a small machine shared with the load generator, a thread woken for a due chunk then gets a core at once',
  ),
];

const truth = flagsOf<Partial<TruthOptions>>();

/** Truth mode's values when its flags leave them out. */
export const TRUTH_DEFAULTS = { tokensPerChunk: 1, sharedSteps: false } as const satisfies Partial<TruthOptions>;

/** The sim's truth mode: chunks at exactly scheduled times instead of the model's. */
export const TRUTH_FLAGS: readonly FlagSpec<Partial<TruthOptions>>[] = [
  truth.value('truth-ttft-ms', 'ttftMs', 'X', number('float', TRUTH_DELAY_MS_RANGE), 'first chunk exactly X ms after arrival ...'),
  truth.value('truth-itl-ms', 'itlMs', 'Y', number('float', TRUTH_DELAY_MS_RANGE), '... then one chunk every Y ms; actual write times at GET /sim/truth'),
  truth.value('truth-tokens-per-chunk', 'tokensPerChunk', 'K', count, 'tokens per truth-mode chunk'),
  truth.toggle(
    'truth-shared-steps',
    'sharedSteps',
    'one step clock: every chunk of every request on a multiple of Y ms, the first at the first step X ms after arrival, ' +
      'so each step is written to all running streams at once, as a continuous-batching engine does',
  ),
];
