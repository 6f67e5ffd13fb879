/**
 * `servebench bench` command line → BenchArgs, with Python argparse semantics (unique-prefix
 * abbreviations, exact names first, `nargs`, `choices`, Python `int()`/`float()`), built on the
 * `argparse` port. Every parse error becomes one UsageError line (exit 2) instead of argparse's
 * usage dump and `process.exit`.
 */
import { splitLabelPair } from '../../core/label-pair.js';
import { ArgumentParser, ArgumentTypeError, type ArgumentGroup } from 'argparse';
import { ServebenchError, UsageError } from '../../core/errors.js';
import { AT_LEAST_ONE, MAX_TIMER_SECONDS, boundedArgType, describeRange, type FlagRange, type NumberKind } from '../../core/flag-range.js';
import type { BenchArgs, BenchExtensions } from './types.js';
import { helpWithDefault } from '../../core/command-parser.js';
import { DEFAULT_CONFIDENCE_LEVEL } from '../../core/confidence.js';
import { BENCH_OPTIONS, type OptionSpec } from './options.js';

/** Thrown for `-h`/`--help`: the caller prints `text` to stdout and exits with `exitCode` (0). */
export class HelpRequested extends ServebenchError {
  readonly code = 'E_HELP_REQUESTED';
  readonly exitCode = 0;
  constructor(readonly text: string) {
    super('help requested');
  }
}

/** Gives a conversion function the name argparse prints in `invalid <name> value: '...'`. */
function named<T>(name: string, convert: (text: string) => T): (text: string) => T {
  Object.defineProperty(convert, 'name', { value: name });
  return convert;
}

const labelPair = named('label', (text: string): [string, string] => {
  const pair = splitLabelPair(text);
  if (pair === null) throw new ArgumentTypeError(`expected KEY=VALUE, got '${text}'`);
  return pair;
});

/** A numeric option's help ends with the values it takes, as its check states them, in bench_serving's sentence style. */
function withRangeSentence(help: string, kind: NumberKind, range: FlagRange): string {
  return `${help} Takes ${describeRange(kind, range)}.`;
}

function withRange(option: OptionSpec): string {
  if (option.kind !== 'int' && option.kind !== 'float') return option.help;
  return withRangeSentence(option.help, option.kind, option.range);
}

function addReferenceOption(target: ArgumentGroup, option: OptionSpec): void {
  const help = helpWithDefault(withRange(option), option.defaultValue, option.kind);
  if (option.kind === 'flag') {
    target.add_argument(option.flag, { dest: option.dest, action: 'store_true', help });
    return;
  }
  const settings: Record<string, unknown> = {
    dest: option.dest,
    default: option.defaultValue === null ? undefined : option.defaultValue,
    help,
  };
  if (option.kind === 'int' || option.kind === 'float') settings.type = boundedArgType(option.kind, option.range);
  if (option.nargs !== undefined) settings.nargs = option.nargs;
  if (option.choices !== undefined) settings.choices = [...option.choices];
  target.add_argument(option.flag, settings);
}

/** Seconds without a byte after which a stream counts as stalled, unless --stream-idle-timeout says otherwise. */
const STREAM_IDLE_TIMEOUT_S = 600;
/** The idle timeout is a timer: above Node's longest timer it would fire at once. */
const STREAM_IDLE_TIMEOUT_RANGE = { above: 0, max: MAX_TIMER_SECONDS };

/**
 * servebench's own options. Their names keep every abbreviation in use unique
 * (`--num-prompt`, `--random-input`, `--max-con`, `--output-file`, `--profile`, `--warmup`).
 */
function addExtensionOptions(parser: ArgumentParser): void {
  const group = parser.add_argument_group({ title: 'servebench options' });
  group.add_argument('--sim', { dest: 'ext_sim', metavar: 'FLAGS', help: 'Start an in-process simulated SGLang server with these launch flags (e.g. "--model-path Qwen/Qwen2.5-7B --tp 2") and benchmark it.' });
  group.add_argument('--sim-time-scale', {
    dest: 'ext_sim_time_scale',
    metavar: 'K',
    type: simTimeScaleArg,
    help: helpWithDefault(
      `With --sim: run the simulated engine K times slower than the wall clock and divide every measured time by K (rates multiplied by K), arrivals included, so a machine too small to write and read the engine's chunks on time still measures it truly. 'auto' runs the workload through the engine in virtual time first and picks K from its typical step and peak chunk rate against what this machine keeps on time (measured once, cached); 1 runs in real time, as auto does for a truth-mode sim. Takes 'auto' or ${describeRange('float', SIM_TIME_SCALE_RANGE)}.`,
      'auto',
      'str',
    ),
  });
  group.add_argument('--workers', { dest: 'ext_workers', metavar: 'N', type: boundedArgType('int', AT_LEAST_ONE), help: `${withRangeSentence('Load-generation threads: 1 sends from this thread; N > 1 spreads requests over N worker threads, never more than the cores or the requests.', 'int', AT_LEAST_ONE)} (default: half the cores, at most 8)` });
  group.add_argument('--realtime', { dest: 'ext_realtime', action: 'store_true', help: 'Run the load-generating threads under SCHED_FIFO during the measured phase (needs root or CAP_SYS_NICE): their timestamps then never wait for a core behind other work, e.g. a server on the same machine.' });
  group.add_argument('--lazy-connect', { dest: 'ext_lazy_connect', action: 'store_true', help: 'Open connections as requests need them and count connecting in TTFT, as bench_serving does. Default: a warm pool of --max-concurrency connections (as many as requests are due at once without it) opens before the measured phase, and each request is timed from the moment its bytes go out.' });
  group.add_argument('--label', { dest: 'ext_labels', metavar: 'KEY=VALUE', nargs: '+', action: 'extend', type: labelPair, help: 'Label stored with the run in the catalog (repeatable).' });
  group.add_argument('--db', { dest: 'ext_db', metavar: 'PATH', help: 'Catalog database file (default: the standard location).' });
  group.add_argument('--no-catalog', { dest: 'ext_no_catalog', action: 'store_true', help: 'Do not record the run in the catalog.' });
  group.add_argument('--stream-idle-timeout', {
    dest: 'ext_stream_idle_timeout',
    metavar: 'SECONDS',
    type: boundedArgType('float', STREAM_IDLE_TIMEOUT_RANGE),
    default: STREAM_IDLE_TIMEOUT_S,
    help: helpWithDefault(withRangeSentence('Fail a request as stalled after this many seconds without a byte.', 'float', STREAM_IDLE_TIMEOUT_RANGE), STREAM_IDLE_TIMEOUT_S, 'int'),
  });
  group.add_argument('--metrics-interval', {
    dest: 'ext_metrics_interval',
    metavar: 'SECONDS',
    type: boundedArgType('float', METRICS_INTERVAL_RANGE),
    default: METRICS_INTERVAL_S,
    help: helpWithDefault(
      withRangeSentence(
        "When the server exposes /metrics (SGLang's sglang: or vLLM's vllm: names), read it at the start of the measured phase, every this many seconds during it and at its end, on a connection of its own, and report the server's side of the run after the extras (prefix-cache hit rate, queue time, running and queued requests, KV-cache usage, generation throughput, accept length).",
        'float',
        METRICS_INTERVAL_RANGE,
      ),
      METRICS_INTERVAL_S,
      'int',
    ),
  });
  group.add_argument('--num-runs', {
    dest: 'ext_num_runs',
    metavar: 'N',
    type: boundedArgType('int', AT_LEAST_ONE),
    default: 1,
    help: helpWithDefault(
      withRangeSentence(
        "Run the measured phase N times against the same server with the same requests (the same seed; the warmup, the warm pool and the prepared requests once; --flush-cache before each run). Each run prints its block and appends its record; then a 'servebench repeated runs' section gives each headline figure's mean over the runs with its Student's t confidence interval and coefficient of variation, and the output file gets one more record with them. The catalog keeps the runs as one repeat group, which compare tests against another.",
        'int',
        AT_LEAST_ONE,
      ),
      1,
      'int',
    ),
  });
  group.add_argument('--cooldown', {
    dest: 'ext_cooldown',
    metavar: 'SECONDS',
    type: boundedArgType('float', COOLDOWN_RANGE),
    default: 0,
    help: helpWithDefault(withRangeSentence('With --num-runs: wait this long between two runs, so the server settles (queues drained, clocks cooled).', 'float', COOLDOWN_RANGE), 0, 'int'),
  });
  group.add_argument('--confidence-level', {
    dest: 'ext_confidence_level',
    metavar: 'P',
    type: boundedArgType('float', CONFIDENCE_LEVEL_RANGE),
    default: DEFAULT_CONFIDENCE_LEVEL,
    help: helpWithDefault(
      withRangeSentence("With --num-runs: the confidence level of the intervals over the runs (0.95: 95%%) and of compare's test against another group.", 'float', CONFIDENCE_LEVEL_RANGE),
      DEFAULT_CONFIDENCE_LEVEL,
      'float',
    ),
  });
  group.add_argument('--no-server-metrics', {
    dest: 'ext_no_server_metrics',
    action: 'store_true',
    help: "Do not read the server's /metrics, and print no server-side section (what responses say about themselves is still kept in the catalog's per-request records).",
  });
  addShardOptions(parser);
}

/** Longest a coordinator waits for its shards to register (s): a timer, so Node's longest at most. */
const SHARD_TIMEOUT_RANGE = { above: 0, max: MAX_TIMER_SECONDS };
const SHARD_TIMEOUT_S = 300;
const LINGER_RANGE = { min: 0, max: MAX_TIMER_SECONDS };

/** A sharded run over processes or machines (bench/shards/). */
function addShardOptions(parser: ArgumentParser): void {
  const group = parser.add_argument_group({ title: 'servebench sharded runs (one run sent from many processes or machines)' });
  group.add_argument('--shards', {
    dest: 'ext_shards',
    metavar: 'K',
    type: boundedArgType('int', AT_LEAST_ONE),
    help: withRangeSentence(
      "Send the run from K shard processes: every shard builds the same seeded requests and send times, shard (i mod K) + 1 sends request i, and a coordinator starts them at one instant and merges their raw outputs into one result block. --max-concurrency is divided among them. Alone, this host runs the coordinator and K shards; with --shard-rank, JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) or SLURM_PROCID (SLURM_NTASKS = K + 1) this process takes that rank: 0 the coordinator, 1..K a shard.",
      'int',
      AT_LEAST_ONE,
    ),
  });
  group.add_argument('--shard-rank', { dest: 'ext_shard_rank', metavar: 'R', type: boundedArgType('int', { min: 0, max: 1_000_000 }), help: 'With --shards K: this process is rank R of the sharded run (0: the coordinator, 1..K: a shard), on any machine; give --coordinator too.' });
  group.add_argument('--coordinator', { dest: 'ext_coordinator', metavar: 'HOST:PORT', help: "With --shards K and a rank: where the coordinator listens (the coordinator listens on its port, every shard connects to it), e.g. servebench-0.servebench:29400." });
  group.add_argument('--shard-timeout', {
    dest: 'ext_shard_timeout',
    metavar: 'SECONDS',
    type: boundedArgType('float', SHARD_TIMEOUT_RANGE),
    default: SHARD_TIMEOUT_S,
    help: helpWithDefault(withRangeSentence('With --shards: how long the coordinator waits for every shard to warm up and report ready, and a shard for the coordinator to answer; the run fails naming the shards that did not.', 'float', SHARD_TIMEOUT_RANGE), SHARD_TIMEOUT_S, 'int'),
  });
  group.add_argument('--linger', {
    dest: 'ext_linger',
    metavar: 'SECONDS',
    type: boundedArgType('float', LINGER_RANGE),
    default: 0,
    help: helpWithDefault(withRangeSentence("The coordinator waits this long after the results are kept before it exits (a stop signal ends the wait), so a pod's JSONL file can be fetched with kubectl cp.", 'float', LINGER_RANGE), 0, 'int'),
  });
  group.add_argument('--k8s-manifest', { dest: 'ext_k8s_manifest', metavar: 'FILE', help: 'With --shards K and --image: write a Kubernetes manifest for the run to FILE and exit, running nothing: an Indexed Job of K + 1 pods (index 0 the coordinator, spread over nodes), a headless Service for their names and a ConfigMap holding the run. Then kubectl apply -f FILE, and kubectl logs of the index-0 pod for the result block (both commands are in the header of FILE).' });
  group.add_argument('--image', '--k8s-image', { dest: 'ext_k8s_image', metavar: 'IMAGE', help: 'With --k8s-manifest: the container image with servebench installed (its entry point may be anything; the pods run servebench bench).' });
  group.add_argument('--k8s-name', { dest: 'ext_k8s_name', metavar: 'NAME', default: 'servebench', help: "With --k8s-manifest: the Job's, Service's and ConfigMap's name (a DNS label) (default: servebench)" });
}

/** A pause between runs is a timer: above Node's longest one it would fire at once. */
const COOLDOWN_RANGE = { min: 0, max: MAX_TIMER_SECONDS };
/** Below even odds an interval says little; at 1 it would be infinitely wide. */
const CONFIDENCE_LEVEL_RANGE = { min: 0.5, max: 0.9999 };

/** Seconds between two readings of the server's /metrics, unless --metrics-interval says otherwise. */
const METRICS_INTERVAL_S = 1;
/** Faster than 10 readings a second would load the server it measures; the timer's limit above. */
const METRICS_INTERVAL_RANGE = { min: 0.1, max: MAX_TIMER_SECONDS };

/** Beyond a thousandfold a second of the engine's takes over a quarter of an hour: a typo, not a plan. */
const SIM_TIME_SCALE_RANGE = { min: 1, max: 1000 };
const simTimeScaleNumber = boundedArgType('float', SIM_TIME_SCALE_RANGE);

/** `--sim-time-scale`: 'auto' or a factor from 1 up. */
function simTimeScaleArg(text: string): number | 'auto' {
  if (text === 'auto') return 'auto';
  try {
    return simTimeScaleNumber(text);
  } catch {
    throw new ArgumentTypeError(`expected 'auto' or a number from ${SIM_TIME_SCALE_RANGE.min} to ${SIM_TIME_SCALE_RANGE.max}, got '${text}'`);
  }
}

/** Why the result block's peaks and the extras' peaks differ (after the options in --help). */
const PEAKS_NOTE =
  "Peaks: the result block's 'Peak output token throughput' and 'Peak concurrent requests' are bench_serving's, " +
  'the busiest 1-second bucket counted from the first request, where a request counts in every bucket it touches ' +
  '(a bucket can count more requests than --max-concurrency). The servebench extras add the peaks as they happened: ' +
  "'Peak in-flight requests', the most requests in flight at one instant (never above --max-concurrency), and " +
  "'Peak output tok/s (1 s window)', the most output tokens in any one-second window.";

function buildParser(): ArgumentParser {
  const parser = new ArgumentParser({
    prog: 'servebench bench',
    description: 'Benchmark an LLM serving endpoint; a drop-in for `python -m sglang.bench_serving`.',
    epilog: PEAKS_NOTE,
  });
  const groups = new Map<string, ArgumentGroup>();
  for (const option of BENCH_OPTIONS) {
    let target: ArgumentGroup = parser;
    if (option.exclusiveGroup !== undefined) {
      target = groups.get(option.exclusiveGroup) ?? parser.add_mutually_exclusive_group();
      groups.set(option.exclusiveGroup, target);
    }
    addReferenceOption(target, option);
  }
  addExtensionOptions(parser);
  parser.error = (error: string | Error) => {
    const message = typeof error === 'string' ? error : error.message;
    throw new UsageError(`${message} (run 'servebench bench --help' for the options)`);
  };
  parser.print_help = () => {
    throw new HelpRequested(parser.format_help());
  };
  return parser;
}

/**
 * `--sim` takes SGLang launch flags as one value; argparse would read a value such as
 * `--model-path=x` as an option, so the pair is joined into `--sim=<value>` first.
 */
function joinSimValue(argv: readonly string[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const token = argv[i] as string;
    if (token === '--sim' && i + 1 < argv.length) {
      joined.push(`--sim=${argv[i + 1] as string}`);
      i += 1;
    } else {
      joined.push(token);
    }
  }
  return joined;
}

/**
 * Parses `servebench bench` arguments; throws UsageError (one line, exit 2) or HelpRequested.
 * `simElsewhere`: the command that carries these flags starts the sim itself (`sweep --sim`), so
 * `--sim-time-scale` applies without a `--sim` among them.
 */
export function parseBenchArgs(argv: readonly string[], simElsewhere = false): BenchArgs {
  const namespace = buildParser().parse_args(joinSimValue(argv)) as Record<string, unknown>;
  const args: Record<string, unknown> = {};
  for (const option of BENCH_OPTIONS) args[option.dest] = namespace[option.dest] ?? null;
  const extensions: BenchExtensions = {
    sim: (namespace.ext_sim as string | undefined) ?? null,
    simTimeScale: (namespace.ext_sim_time_scale as number | 'auto' | undefined) ?? null,
    workers: (namespace.ext_workers as number | undefined) ?? null,
    realtime: namespace.ext_realtime === true,
    lazyConnect: namespace.ext_lazy_connect === true,
    labels: Object.fromEntries((namespace.ext_labels as Array<[string, string]> | undefined) ?? []),
    db: (namespace.ext_db as string | undefined) ?? null,
    noCatalog: namespace.ext_no_catalog === true,
    streamIdleTimeout: namespace.ext_stream_idle_timeout as number,
    metricsInterval: namespace.ext_metrics_interval as number,
    noServerMetrics: namespace.ext_no_server_metrics === true,
    numRuns: namespace.ext_num_runs as number,
    cooldown: namespace.ext_cooldown as number,
    confidenceLevel: namespace.ext_confidence_level as number,
    shards: (namespace.ext_shards as number | undefined) ?? null,
    shardRank: (namespace.ext_shard_rank as number | undefined) ?? null,
    coordinator: (namespace.ext_coordinator as string | undefined) ?? null,
    shardTimeout: namespace.ext_shard_timeout as number,
    linger: namespace.ext_linger as number,
    k8sManifest: (namespace.ext_k8s_manifest as string | undefined) ?? null,
    k8sImage: (namespace.ext_k8s_image as string | undefined) ?? null,
    k8sName: namespace.ext_k8s_name as string,
  };
  if (extensions.simTimeScale !== null && extensions.sim === null && !simElsewhere) {
    throw new UsageError('--sim-time-scale applies only to a simulated server started with --sim (bench --sim, sweep --sim); a real server keeps its own time: drop it');
  }
  args.extensions = extensions;
  return args as unknown as BenchArgs;
}

/**
 * The bench flags another command carries (after `--` of predict and sweep, a published case's of
 * the calibration), parsed as `servebench bench` parses them; `--help` among them points at
 * `servebench bench --help` with a UsageError naming `command`. `simElsewhere`: as parseBenchArgs.
 */
export function parseEmbeddedBenchArgs(argv: readonly string[], command: string, simElsewhere = false): BenchArgs {
  try {
    return parseBenchArgs(argv, simElsewhere);
  } catch (error) {
    if (error instanceof HelpRequested) throw new UsageError(`${command}: the flags after '--' are bench flags; see 'servebench bench --help'`);
    throw error;
  }
}
