/**
 * `python -m sglang_router.launch_router`'s command line (router_args.py) → RouterConfig: the
 * flags with an effect here, SGLang's defaults, and its start-up checks as one-line usage errors.
 * Flags of SGLang's router that change nothing here are accepted (so recipes paste unchanged) and
 * named back as ignored.
 */
import type { ArgumentGroup, ArgumentParser } from 'argparse';
import { UsageError } from '../core/errors.js';
import { addOption, commandParser, parseOrHelp } from '../core/command-parser.js';
import { AT_LEAST_ONE, FRACTION, LISTEN_PORT, NON_NEGATIVE, boundedArgType, withRangeHelp, type FlagRange, type NumberKind } from '../core/flag-range.js';
import { POLICY_NAMES, type PolicyName } from './policies.js';
import type { RouterConfig, WorkerSpec } from './config.js';

/** Words a pasted launch_router command starts with; dropped before parsing. */
const LEADING_WORDS = new Set(['python', 'python3', '-m', 'sglang_router.launch_router']);

/** SGLang router flags accepted without effect, with whether each takes values (`*`: any number). */
const IGNORED_FLAGS: ReadonlyArray<[string, 'switch' | 'one' | 'many']> = [
  ['--log-level', 'one'],
  ['--log-dir', 'one'],
  ['--json-log', 'switch'],
  ['--request-id-headers', 'many'],
  ['--cors-allowed-origins', 'many'],
  ['--max-payload-size', 'one'],
  ['--shutdown-grace-period-secs', 'one'],
  ['--connect-timeout-secs', 'one'],
  ['--max-concurrent-requests', 'one'],
  ['--queue-size', 'one'],
  ['--queue-timeout-secs', 'one'],
  ['--cb-window-duration-secs', 'one'],
  ['--prometheus-duration-buckets', 'many'],
  ['--worker-startup-check-interval', 'one'],
  ['--test-external-dp-routing', 'switch'],
];

const POSITIVE: FlagRange = { above: 0 };
const REL_THRESHOLD: FlagRange = { min: 1 };

type Parser = ArgumentGroup;

function number(parser: Parser, name: string, kind: NumberKind, range: FlagRange, fallback: number, help: string): void {
  addOption(parser, [name], { type: boundedArgType(kind, range), default: fallback, help: withRangeHelp(help, kind, range) }, kind);
}

function policyOption(parser: Parser, name: string, fallback: string | null, help: string): void {
  addOption(parser, [name], { choices: [...POLICY_NAMES], default: fallback, help });
}

export function routerParser(): ArgumentParser {
  const parser = commandParser({
    name: 'router',
    usage: '%(prog)s (--worker-urls URL [URL ...] | --pd-disaggregation --prefill URL [BOOTSTRAP_PORT] --decode URL) [options]',
    description:
      "A drop-in for SGLang's `python -m sglang_router.launch_router`: routes /generate, /v1/completions and " +
      '/v1/chat/completions over HTTP to SGLang servers (or servebench sims), plain or prefill/decode ' +
      'disaggregated, with its policies, retries, health checks and circuit breakers, until SIGINT or SIGTERM.',
  });
  addOption(parser, ['--host'], { default: '0.0.0.0', help: 'host address to bind the router server' });
  addOption(parser, ['--port'], { type: boundedArgType('int', LISTEN_PORT), default: 30000, help: withRangeHelp('port to bind the router server', 'int', LISTEN_PORT) }, 'int');
  addOption(parser, ['--worker-urls'], { nargs: '*', default: null, metavar: 'URL', help: 'the workers of a plain (not disaggregated) deployment' });
  addOption(parser, ['--api-key'], { default: null, help: 'required of clients as a Bearer token, and sent to the workers' });
  const pd = parser.add_argument_group({ title: 'PD disaggregation' });
  addOption(pd, ['--pd-disaggregation'], { action: 'store_true', help: 'route each request to a prefill and a decode worker at once' });
  addOption(pd, ['--prefill'], { nargs: '+', action: 'append', default: undefined, metavar: 'URL [BOOTSTRAP_PORT]', help: "a prefill worker and its --disaggregation-bootstrap-port ('none' or omitted: the decode's own); repeatable" });
  addOption(pd, ['--decode'], { action: 'append', default: undefined, metavar: 'URL', help: 'a decode worker; repeatable' });
  addOption(pd, ['--mini-lb'], { action: 'store_true', help: "SGLang's Python mini load balancer: every policy becomes random, as there" });
  const routing = parser.add_argument_group({ title: 'Routing policy' });
  policyOption(routing, '--policy', 'cache_aware', 'how a worker is chosen');
  policyOption(routing, '--prefill-policy', null, 'the prefill pool\'s policy (default: --policy)');
  policyOption(routing, '--decode-policy', null, 'the decode pool\'s policy (default: --policy)');
  number(routing, '--cache-threshold', 'float', FRACTION, 0.3, "cache_aware: the share of a request's text a worker must hold to be chosen for it");
  number(routing, '--balance-abs-threshold', 'int', NON_NEGATIVE, 64, 'cache_aware: loads further apart than this (and than the relative threshold) go to the least loaded worker');
  number(routing, '--balance-rel-threshold', 'float', REL_THRESHOLD, 1.5, 'cache_aware: the largest load over the smallest beyond which (with the absolute threshold) the least loaded worker is chosen');
  number(routing, '--eviction-interval-secs', 'float', POSITIVE, 60, "cache_aware: seconds between trims of each worker's prefix tree");
  number(routing, '--max-tree-size', 'int', AT_LEAST_ONE, 2 ** 26, 'cache_aware: chars each worker keeps in the tree');
  const reliability = parser.add_argument_group({ title: 'Retries, timeouts, circuit breaker, health checks' });
  number(reliability, '--request-timeout-secs', 'float', POSITIVE, 1800, 'seconds a request to a worker may take in all');
  number(reliability, '--retry-max-retries', 'int', AT_LEAST_ONE, 5, 'attempts in all, on 408, 429 and 5xx, each on a newly chosen worker');
  number(reliability, '--retry-initial-backoff-ms', 'float', NON_NEGATIVE, 50, 'wait before the second attempt');
  number(reliability, '--retry-max-backoff-ms', 'float', NON_NEGATIVE, 30000, 'longest wait between attempts');
  number(reliability, '--retry-backoff-multiplier', 'float', POSITIVE, 1.5, 'growth of the wait per attempt');
  number(reliability, '--retry-jitter-factor', 'float', FRACTION, 0.2, 'the wait varies by up to this share either way');
  addOption(reliability, ['--disable-retries'], { action: 'store_true', help: 'one attempt per request' });
  number(reliability, '--cb-failure-threshold', 'int', AT_LEAST_ONE, 10, 'consecutive failures that open a worker\'s circuit');
  number(reliability, '--cb-success-threshold', 'int', AT_LEAST_ONE, 3, 'consecutive successes that close a half-open circuit');
  number(reliability, '--cb-timeout-duration-secs', 'float', NON_NEGATIVE, 60, 'seconds an open circuit waits before letting a request through');
  addOption(reliability, ['--disable-circuit-breaker'], { action: 'store_true', help: 'never open a circuit' });
  number(reliability, '--health-failure-threshold', 'int', AT_LEAST_ONE, 3, 'failed checks that mark a worker unhealthy');
  number(reliability, '--health-success-threshold', 'int', AT_LEAST_ONE, 2, 'passed checks that mark it healthy again');
  number(reliability, '--health-check-timeout-secs', 'float', POSITIVE, 5, 'seconds one check may take');
  number(reliability, '--health-check-interval-secs', 'float', POSITIVE, 60, 'seconds between checks of each worker');
  addOption(reliability, ['--health-check-endpoint'], { default: '/health', help: 'the path checked' });
  addOption(reliability, ['--disable-health-check'], { action: 'store_true', help: 'check workers only at start-up' });
  number(reliability, '--worker-startup-timeout-secs', 'float', POSITIVE, 1800, 'seconds a worker has to answer its first check');
  const metrics = parser.add_argument_group({ title: 'Metrics' });
  addOption(metrics, ['--prometheus-port'], { type: boundedArgType('int', LISTEN_PORT), default: null, help: "also serve /metrics on this port (SGLang's exporter; the router's own port always serves it)" });
  addOption(metrics, ['--prometheus-host'], { default: '0.0.0.0', help: 'host of the --prometheus-port listener' });
  const ignored = parser.add_argument_group({ title: 'Accepted without effect', description: "SGLang router flags that change nothing here; named back at start-up." });
  for (const [name, arity] of IGNORED_FLAGS) {
    const shape = arity === 'switch' ? { action: 'store_true' as const } : arity === 'many' ? { nargs: '*' as const } : {};
    addOption(ignored, [name], { ...shape, default: null, help: 'no effect' });
  }
  return parser;
}

/** `URL [BOOTSTRAP_PORT|none]` of one --prefill. */
function prefillSpec(words: readonly string[]): WorkerSpec {
  const [url, port, ...extra] = words;
  if (extra.length > 0 || url === undefined) throw new UsageError(`argument --prefill: expected URL [BOOTSTRAP_PORT], got: ${words.join(' ')}`);
  if (port === undefined || port.toLowerCase() === 'none') return { url: checkedUrl('--prefill', url), role: 'prefill', bootstrapPort: null };
  const value = Number(port);
  if (!/^\d+$/.test(port) || value > 65535) throw new UsageError(`argument --prefill: bootstrap port '${port}' is not a port number or 'none'`);
  return { url: checkedUrl('--prefill', url), role: 'prefill', bootstrapPort: value };
}

/** A worker URL as SGLang requires it (validation.rs): http:// or https://, no trailing slash kept. */
function checkedUrl(flag: string, url: string): string {
  if (!/^https?:\/\/[^/]/.test(url)) throw new UsageError(`argument ${flag}: '${url}' is no http:// or https:// URL (grpc:// workers are not supported here)`);
  return url.replace(/\/+$/, '');
}

interface ParsedArgs extends Record<string, unknown> {
  host: string;
  port: number;
  worker_urls: string[];
  pd_disaggregation: boolean;
  prefill: string[][];
  decode: string[];
  mini_lb: boolean;
  policy: PolicyName;
  prefill_policy: PolicyName | null;
  decode_policy: PolicyName | null;
}

/** Checks SGLang's start-up rules on the pools and their policies. */
function workersOf(args: ParsedArgs): WorkerSpec[] {
  if (args.pd_disaggregation) {
    if (args.worker_urls.length > 0) throw new UsageError('--worker-urls is for plain mode; with --pd-disaggregation give --prefill URL [PORT] and --decode URL');
    if (args.prefill.length === 0 || args.decode.length === 0) throw new UsageError('--pd-disaggregation needs at least one --prefill URL [BOOTSTRAP_PORT] and one --decode URL');
    const workers = [...args.prefill.map(prefillSpec), ...args.decode.map((url): WorkerSpec => ({ url: checkedUrl('--decode', url), role: 'decode', bootstrapPort: null }))];
    const seen = new Set<string>();
    for (const worker of workers) {
      if (seen.has(worker.url)) throw new UsageError(`worker ${worker.url} is given twice; each worker URL must be unique`);
      seen.add(worker.url);
    }
    return workers;
  }
  if (args.prefill.length > 0 || args.decode.length > 0) throw new UsageError('--prefill and --decode need --pd-disaggregation');
  if (args.worker_urls.length === 0) throw new UsageError('no workers: give --worker-urls URL [URL ...], or --pd-disaggregation with --prefill and --decode');
  return args.worker_urls.map((url) => ({ url: checkedUrl('--worker-urls', url), role: 'regular', bootstrapPort: null }));
}

function checkPowerOfTwo(pool: string, policy: PolicyName, size: number): void {
  if (policy === 'power_of_two' && size < 2) throw new UsageError(`power_of_two needs at least 2 ${pool} workers, got ${size}; choose another policy for that pool`);
}

/** The flags given that have no effect here, as written. */
function ignoredGiven(argv: readonly string[]): string[] {
  const names = new Set(IGNORED_FLAGS.map(([name]) => name));
  return argv.filter((word) => names.has(word.split('=')[0]!));
}

/** argv → config; null after printing help for -h/--help. */
export function parseRouterArgs(argv: readonly string[]): RouterConfig | null {
  let start = 0;
  while (start < argv.length && LEADING_WORDS.has(argv[start]!)) start++;
  const words = argv.slice(start);
  const parsed = parseOrHelp<ParsedArgs>(routerParser(), words);
  if (parsed === null) return null;
  // Defaults are None, as SGLang's, so help shows none; empty lists are simpler to check.
  const args: ParsedArgs = { ...parsed, worker_urls: parsed.worker_urls ?? [], prefill: parsed.prefill ?? [], decode: parsed.decode ?? [] };
  const workers = workersOf(args);
  const policy = (name: PolicyName | null): PolicyName => (args.mini_lb ? 'random' : (name ?? args.policy));
  const prefillPolicy = policy(args.prefill_policy);
  const decodePolicy = policy(args.decode_policy);
  if (args.pd_disaggregation) {
    checkPowerOfTwo('prefill', prefillPolicy, workers.filter((w) => w.role === 'prefill').length);
    checkPowerOfTwo('decode', decodePolicy, workers.filter((w) => w.role === 'decode').length);
  } else checkPowerOfTwo('', policy(null), workers.length);
  const n = (name: string): number => args[name] as number;
  return {
    host: args.host,
    port: args.port,
    pdDisaggregation: args.pd_disaggregation,
    miniLb: args.mini_lb,
    workers,
    policy: policy(null),
    prefillPolicy,
    decodePolicy,
    cacheAware: { cacheThreshold: n('cache_threshold'), balanceAbsThreshold: n('balance_abs_threshold'), balanceRelThreshold: n('balance_rel_threshold') },
    evictionIntervalMs: n('eviction_interval_secs') * 1000,
    maxTreeSize: n('max_tree_size'),
    apiKey: (args.api_key as string | null) ?? null,
    requestTimeoutMs: n('request_timeout_secs') * 1000,
    retry: {
      maxAttempts: args.disable_retries ? 1 : n('retry_max_retries'),
      initialBackoffMs: n('retry_initial_backoff_ms'),
      maxBackoffMs: n('retry_max_backoff_ms'),
      multiplier: n('retry_backoff_multiplier'),
      jitterFactor: n('retry_jitter_factor'),
    },
    circuit: {
      failureThreshold: n('cb_failure_threshold'),
      successThreshold: n('cb_success_threshold'),
      timeoutMs: n('cb_timeout_duration_secs') * 1000,
      disabled: args.disable_circuit_breaker as boolean,
    },
    health: {
      failureThreshold: n('health_failure_threshold'),
      successThreshold: n('health_success_threshold'),
      timeoutMs: n('health_check_timeout_secs') * 1000,
      intervalMs: n('health_check_interval_secs') * 1000,
      endpoint: args.health_check_endpoint as string,
      disabled: args.disable_health_check as boolean,
      startupTimeoutMs: n('worker_startup_timeout_secs') * 1000,
    },
    prometheus: args.prometheus_port === null ? null : { host: args.prometheus_host as string, port: args.prometheus_port as number },
    ignoredFlags: ignoredGiven(words),
  };
}
