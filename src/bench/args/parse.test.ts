import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { UsageError } from '../../core/errors.js';
import { formatNamespace } from './namespace.js';
import { HelpRequested, parseBenchArgs, parseEmbeddedBenchArgs } from './parse.js';
import { resolvePort } from './urls.js';
import { readReferenceLog } from '../../../test/helpers/reference-logs.js';

const QWEN_LOG = 'qwen2.5-0.5b_cuda-graph_64-16_r0.log';

/** The command line behind the Qwen2.5 log: its non-default values, written with the docstring's abbreviations. */
const QWEN_ARGV = [
  '--base-url', 'http://127.0.0.1:30000',
  '--dataset-name', 'random',
  '--model', '/mnt/weka/home/user/models/qwen2.5-0.5b',
  '--num-prompt', '200',
  '--random-input', '64',
  '--random-output', '16',
  '--output-file', '/mnt/weka/home/user/graph/sglang/bench_results/batch_prefill_cudagraph_short.json',
];

function usageError(argv: string[]): UsageError {
  try {
    parseBenchArgs(argv);
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  assert.fail(`expected a UsageError for ${argv.join(' ')}`);
}

describe('Namespace repr', () => {
  test("reproduces the Qwen2.5 log's two Namespace lines", () => {
    const [first, second] = readReferenceLog(QWEN_LOG).split('\n');
    const args = parseBenchArgs(QWEN_ARGV);
    assert.equal(`benchmark_args=${formatNamespace(args)}`, first);
    args.port = resolvePort(args);
    assert.equal(formatNamespace(args), second);
  });
  test('defaults print as bench_serving prints them', () => {
    const repr = formatNamespace(parseBenchArgs([]));
    assert.ok(repr.startsWith("Namespace(backend='sglang', base_url=None, host='0.0.0.0', port=None, dataset_name='sharegpt', dataset_path='',"));
    assert.ok(repr.includes("random_range_ratio=0.0,"));
    assert.ok(repr.includes('request_rate=inf,'));
    assert.ok(repr.includes("profile_activities=['CPU', 'GPU'],"));
    assert.ok(repr.endsWith("mooncake_workload='conversation', tag=None, header=None)"));
  });
  test('float options print as floats even when integral', () => {
    const repr = formatNamespace(parseBenchArgs(['--request-rate', '16', '--random-range-ratio', '1', '--lora-zipf-alpha', '2']));
    assert.ok(repr.includes('request_rate=16.0,'));
    assert.ok(repr.includes('random_range_ratio=1.0,'));
    assert.ok(repr.includes('lora_zipf_alpha=2.0,'));
  });
  test('header values are redacted, keys kept', () => {
    const args = parseBenchArgs(['--header', 'Authorization=Bearer sk-secret', 'X-Trace=abc', 'junk']);
    const repr = formatNamespace(args);
    assert.ok(repr.endsWith("header=['Authorization=<redacted>', 'X-Trace=<redacted>', '<redacted>'])"));
    assert.ok(!repr.includes('sk-secret'));
    assert.deepEqual(args.header, ['Authorization=Bearer sk-secret', 'X-Trace=abc', 'junk']);
  });
  test('servebench extensions never appear in the repr', () => {
    const repr = formatNamespace(parseBenchArgs(['--sim', '--tp 2', '--workers', '2', '--label', 'gpu=h100', '--db', 'x.db', '--no-catalog']));
    for (const word of ['sim', 'workers', 'label', 'catalog', 'x.db', 'h100', 'stream_idle']) assert.ok(!repr.includes(word), word);
  });
});

describe('argparse semantics', () => {
  test('unique prefixes used in practice resolve', () => {
    const args = parseBenchArgs([
      '--num-prompt', '10', '--random-input', '100', '--random-output', '20', '--max-con', '4',
      '--output-f', 'out.jsonl', '--warmup', '2', '--request', '8', '--dataset-n', 'random', '--disable-t',
    ]);
    assert.equal(args.num_prompts, 10);
    assert.equal(args.random_input_len, 100);
    assert.equal(args.random_output_len, 20);
    assert.equal(args.max_concurrency, 4);
    assert.equal(args.output_file, 'out.jsonl');
    assert.equal(args.warmup_requests, 2);
    assert.equal(args.request_rate, 8);
    assert.equal(args.dataset_name, 'random');
    assert.equal(args.disable_tqdm, true);
  });
  test('an exact name beats longer options it prefixes', () => {
    const args = parseBenchArgs(['--profile']);
    assert.equal(args.profile, true);
    assert.equal(args.profile_by_stage, false);
  });
  test('--opt=value works, also abbreviated', () => {
    assert.equal(parseBenchArgs(['--num-prompts=5']).num_prompts, 5);
    assert.equal(parseBenchArgs(['--num-p=6']).num_prompts, 6);
  });
  test('an ambiguous prefix is a usage error', () => {
    const error = usageError(['--random', '5']);
    assert.match(error.message, /^ambiguous option: --random could match --random-input-len, --random-output-len/);
    assert.match(usageError(['--profile-', 'x']).message, /^ambiguous option/);
  });
  test('a bad choice is a usage error listing the choices', () => {
    assert.match(usageError(['--backend', 'tgi']).message, /^argument --backend: invalid choice: 'tgi' \(choose from 'sglang', /);
    assert.match(usageError(['--profile-activities', 'TPU']).message, /invalid choice: 'TPU'/);
  });
  test('values convert like Python int() and float()', () => {
    assert.equal(parseBenchArgs(['--request-rate', 'inf']).request_rate, Infinity);
    assert.equal(parseBenchArgs(['--request-rate', 'Infinity']).request_rate, Infinity);
    assert.equal(parseBenchArgs(['--request-rate', '1e3']).request_rate, 1000);
    assert.equal(parseBenchArgs(['--seed', '4_294_967_295']).seed, 4294967295);
    assert.match(usageError(['--num-prompts', '1.5']).message, /^argument --num-prompts: invalid int value: '1\.5'/);
    assert.match(usageError(['--request-rate', 'fast']).message, /^argument --request-rate: invalid float value: 'fast'/);
  });
  test('nargs: + needs a value, * accepts none', () => {
    assert.deepEqual(parseBenchArgs(['--lora-name']).lora_name, []);
    assert.deepEqual(parseBenchArgs(['--lora-name', 'a', 'b', '--seed', '3']).lora_name, ['a', 'b']);
    assert.match(usageError(['--header']).message, /^argument --header: expected at least one argument/);
    assert.deepEqual(parseBenchArgs(['--profile-activities', 'CPU']).profile_activities, ['CPU']);
  });
  test('prefill and decode profile URLs are mutually exclusive', () => {
    assert.match(usageError(['--profile-prefill-url', 'a', '--profile-decode-url', 'b']).message, /not allowed with argument/);
  });
  test('unknown options, missing values and stray words are usage errors', () => {
    assert.match(usageError(['--bogus']).message, /^unrecognized arguments: --bogus/);
    assert.match(usageError(['extra']).message, /^unrecognized arguments: extra/);
    assert.match(usageError(['--model']).message, /^argument --model: expected one argument/);
  });
  test('every numeric option refuses a value outside its range, naming the flag, the value and the range', () => {
    const refused: Array<[string, string, RegExp]> = [
      ['--max-concurrency', '-1', /expected an integer ≥ 0 \(0: no limit\)/],
      ['--request-rate', '0', /expected a number > 0, or inf \(inf: all at once\)/],
      ['--request-rate', '-1', /expected a number > 0, or inf/],
      ['--request-rate', 'nan', /expected a number > 0, or inf/],
      ['--random-range-ratio', '-1', /expected a number from 0 to 1/],
      ['--gsp-range-ratio', '1.5', /expected a number from 0 to 1/],
      ['--num-prompts', '-5', /expected an integer ≥ 1/],
      ['--port', '70000', /expected an integer from 1 to 65535/],
      ['--seed', '-1', /expected an integer from 0 to 4294967295/],
      ['--warmup-requests', '-1', /expected an integer ≥ 0/],
      ['--mooncake-slowdown-factor', 'inf', /expected a number > 0/],
      ['--lora-zipf-alpha', '1', /expected a number > 1/],
    ];
    for (const [flag, value, range] of refused) {
      const message = usageError([flag, value]).message;
      assert.ok(message.startsWith(`argument ${flag}: ${value} is out of range: `), message);
      assert.match(message, range);
    }
    assert.equal(parseBenchArgs(['--max-concurrency', '0']).max_concurrency, 0);
    assert.equal(parseBenchArgs(['--random-range-ratio', '1']).random_range_ratio, 1);
  });
  test('every error is one line with exit code 2 and a pointer to --help', () => {
    for (const argv of [['--random'], ['--backend', 'x'], ['--num-prompts', 'x'], ['--bogus'], ['--workers', '0'], ['--label', 'nokey']]) {
      const error = usageError(argv);
      assert.equal(error.exitCode, 2);
      assert.ok(!error.message.includes('\n'), error.message);
      assert.ok(error.message.endsWith("(run 'servebench bench --help' for the options)"));
    }
  });
  test('--help yields the help text instead of exiting', () => {
    assert.throws(() => parseBenchArgs(['--help']), (error: unknown) => {
      assert.ok(error instanceof HelpRequested);
      assert.equal(error.exitCode, 0);
      assert.match(error.text, /^usage: servebench bench/);
      assert.match(error.text, /--num-prompts NUM_PROMPTS/);
      assert.match(error.text, /servebench options:/);
      return true;
    });
  });
});

describe('servebench extension options', () => {
  test('defaults', () => {
    assert.deepEqual(parseBenchArgs([]).extensions, {
      sim: null, simTimeScale: null, workers: null, realtime: false, lazyConnect: false, labels: {}, db: null, noCatalog: false, streamIdleTimeout: 600,
      metricsInterval: 1, noServerMetrics: false, numRuns: 1, cooldown: 0, confidenceLevel: 0.95,
      shards: null, shardRank: null, coordinator: null, shardTimeout: 300, linger: 0, k8sManifest: null, k8sImage: null, k8sName: 'servebench',
    });
  });
  test('values, repeatable labels and --sim flags that start with dashes', () => {
    const args = parseBenchArgs([
      '--sim', '--model-path=Qwen/Qwen2.5-7B', '--sim-time-scale', '2.5', '--workers', '3', '--label', 'gpu=h100', 'note=a=b',
      '--label', 'run=2', '--db', '/tmp/x.db', '--no-catalog', '--stream-idle-timeout', '30', '--realtime', '--lazy-connect',
      '--metrics-interval', '0.5', '--no-server-metrics', '--num-runs', '3', '--cooldown', '2.5', '--confidence-level', '0.99',
      '--shards', '4', '--shard-rank', '2', '--coordinator', 'c-0.c:29400', '--shard-timeout', '60', '--linger', '10',
      '--k8s-manifest', 'run.yaml', '--image', 'reg/servebench:1', '--k8s-name', 'c',
    ]);
    assert.deepEqual(args.extensions, {
      sim: '--model-path=Qwen/Qwen2.5-7B', simTimeScale: 2.5, workers: 3, realtime: true, lazyConnect: true, labels: { gpu: 'h100', note: 'a=b', run: '2' },
      db: '/tmp/x.db', noCatalog: true, streamIdleTimeout: 30, metricsInterval: 0.5, noServerMetrics: true, numRuns: 3, cooldown: 2.5, confidenceLevel: 0.99,
      shards: 4, shardRank: 2, coordinator: 'c-0.c:29400', shardTimeout: 60, linger: 10, k8sManifest: 'run.yaml', k8sImage: 'reg/servebench:1', k8sName: 'c',
    });
  });
  test("--image (the manifest's container image) leaves the image dataset's options and their abbreviations as they were", () => {
    assert.equal(parseBenchArgs(['--image', 'reg/x:1']).extensions.k8sImage, 'reg/x:1');
    assert.equal(parseBenchArgs(['--k8s-image', 'reg/x:2']).extensions.k8sImage, 'reg/x:2');
    assert.equal(parseBenchArgs(['--image-count', '3']).image_count, 3);
    assert.equal(parseBenchArgs(['--image-res', '720p']).image_resolution, '720p');
  });
  test("the repeat options leave bench_serving's abbreviations in use unique", () => {
    assert.equal(parseBenchArgs(['--num-prompt', '7']).num_prompts, 7);
    assert.equal(parseBenchArgs(['--num-p', '8']).num_prompts, 8);
    assert.equal(parseBenchArgs(['--num-r', '2']).extensions.numRuns, 2);
    assert.equal(parseBenchArgs(['--max-con', '4']).max_concurrency, 4);
  });
  test('bad extension values are usage errors', () => {
    assert.match(usageError(['--workers', '0']).message, /^argument --workers: 0 is out of range: expected an integer ≥ 1 /);
    assert.match(usageError(['--label', '=x']).message, /^argument --label: expected KEY=VALUE/);
    assert.match(usageError(['--metrics-interval', '0.05']).message, /^argument --metrics-interval: 0\.05 is out of range: expected a number from 0\.1 to 2147483 /);
    assert.match(usageError(['--num-runs', '0']).message, /^argument --num-runs: 0 is out of range: expected an integer ≥ 1 /);
    assert.match(usageError(['--confidence-level', '1']).message, /^argument --confidence-level: 1 is out of range: expected a number from 0\.5 to 0\.9999 /);
    assert.match(usageError(['--cooldown', '-1']).message, /^argument --cooldown: -1 is out of range: expected a number from 0 to 2147483 /);
    assert.match(usageError(['--stream-idle-timeout', '0']).message, /^argument --stream-idle-timeout: 0 is out of range: expected a number > 0 and ≤ 2147483 /);
  });
});

describe('bench flags of another command (after predict\'s or sweep\'s --)', () => {
  test('parse as servebench bench parses them; --help among them points at bench --help', () => {
    assert.deepEqual(parseEmbeddedBenchArgs(['--num-prompt', '50'], 'sweep'), parseBenchArgs(['--num-prompts', '50']));
    assert.throws(() => parseEmbeddedBenchArgs(['--help'], 'sweep'), (error: unknown) =>
      error instanceof UsageError && error.message === "sweep: the flags after '--' are bench flags; see 'servebench bench --help'");
    assert.throws(() => parseEmbeddedBenchArgs(['--num-prompts', 'x'], 'predict'), /^UsageError: argument --num-prompts: invalid int value: 'x'/);
  });
});
