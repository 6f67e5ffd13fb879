import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { UsageError } from '../core/errors.js';
import { parseSweepCommand } from './sweep-args.js';

describe('parseSweepCommand', () => {
  test('a fixed concurrency series against a prediction, with outputs and labels', () => {
    const plan = parseSweepCommand(['--concurrency', '1:8:x2', '--predict', '--model-path M --hardware h100', '--plot', 'a.png', '--json', 'a.json', '--label', 'team=x', '--no-catalog', '--', '--num-prompts', '50']);
    assert.equal(plan.kind, 'sweep');
    if (plan.kind !== 'sweep') return;
    assert.equal(plan.loadKind, 'concurrency');
    assert.deepEqual(plan.series, { mode: 'fixed', values: [1, 2, 4, 8] });
    assert.deepEqual(plan.target, { mode: 'predict', shared: '--model-path M --hardware h100', prefills: [], decodes: [] });
    assert.deepEqual(plan.output, { plot: 'a.png', json: 'a.json', db: null, noCatalog: true, labels: { team: 'x' } });
    assert.deepEqual(plan.benchArgv, ['--num-prompts', '50']);
    assert.equal(plan.slo, null);
  });

  test('an SLO without loads searches concurrency, or rate with --search rate', () => {
    const byConcurrency = parseSweepCommand(['--slo', 'tpot=20ms', '--sim', '--model-path M']);
    assert.ok(byConcurrency.kind === 'sweep' && byConcurrency.series === null && byConcurrency.loadKind === 'concurrency');
    assert.deepEqual(byConcurrency.kind === 'sweep' && byConcurrency.search, { start: 1, limit: 1024, tolerance: 0.05 });
    assert.deepEqual(byConcurrency.kind === 'sweep' && byConcurrency.target, { mode: 'sim', flags: '--model-path M' });
    const byRate = parseSweepCommand(['--slo', 'ttft=1s', '--search', 'rate', '--max-load', '50', '--tolerance', '0.1']);
    assert.ok(byRate.kind === 'sweep' && byRate.loadKind === 'rate' && byRate.target.mode === 'server');
    assert.deepEqual(byRate.kind === 'sweep' && byRate.search, { start: 1, limit: 50, tolerance: 0.1 });
  });

  test('PD prediction from --prefill/--decode', () => {
    const plan = parseSweepCommand(['--request-rate', '1,2', '--prefill', 'P', '--prefill', 'P2', '--decode', 'D']);
    assert.deepEqual(plan.kind === 'sweep' && plan.target, { mode: 'predict', shared: null, prefills: ['P', 'P2'], decodes: ['D'] });
  });

  test('configuration search', () => {
    const plan = parseSweepCommand(['--search-configs', '--model-path', 'Qwen/Qwen3-32B', '--hardware', 'ascend-910c', '--devices', '8', '--slo', 'tpot=50ms', '--top', '5', '--no-pd', '--', '--random-input-len', '100']);
    assert.equal(plan.kind, 'configs');
    if (plan.kind !== 'configs') return;
    assert.deepEqual(plan.hardware, { kind: 'name', name: 'ascend-910c' });
    assert.equal(plan.devices, 8);
    assert.equal(plan.top, 5);
    assert.equal(plan.includePd, false);
    assert.equal(plan.promptsPerLoad, 2, 'two waves per concurrency slot by default');
    assert.deepEqual(plan.benchArgv, ['--random-input-len', '100']);
  });

  test('configuration search on a described device: the spec file wins over --hardware', () => {
    const plan = parseSweepCommand(['--search-configs', '--model-path', 'M', '--hardware', 'h100', '--hardware-spec', 'hw.json', '--devices', '8']);
    assert.deepEqual(plan.kind === 'configs' && plan.hardware, { kind: 'spec', file: 'hw.json' });
  });

  for (const [argv, message] of [
    [['--', '--num-prompts', '1'], /give the loads/],
    [['--concurrency', '1,2', '--request-rate', '1'], /not both/],
    [['--concurrency', '1,2', '--predict', 'x', '--sim', 'y'], /not both/],
    [['--concurrency', '1,2', '--search', 'rate'], /--search finds the loads itself/],
    [['--slo', 'tpot=1ms', '--search', 'latency'], /'concurrency' or 'rate'/],
    [['--slo', 'tpot=1ms', '--search', 'rate', '--tolerance', '0'], /^argument --tolerance: 0 is out of range: expected a number > 0 and ≤ 1$/],
    [['--slo', 'tpot=1ms', '--search', 'concurrency', '--search-start', '-2'], /^argument --search-start: -2 is out of range: expected an integer ≥ 1$/],
    [['--slo', 'tpot=1ms', '--search', 'rate', '--search-start', '8', '--max-load', '4'], /--search-start must be at most --max-load/],
    [['--search-configs', '--model-path', 'M', '--hardware', 'b200', '--devices', '0'], /^argument --devices: 0 is out of range: expected an integer ≥ 1$/],
    [['--concurrency', '1', '--plot', 'a.jpg'], /must end in \.svg or \.png/],
    [['--concurrency', '1', '--devices', '8'], /belongs to --search-configs/],
    [['--search-configs', '--model-path', 'M', '--hardware', 'b200'], /needs --devices/],
    [['--search-configs', '--model-path', 'M', '--devices', '8'], /needs --hardware NAME or --hardware-spec FILE\.json/],
    [['--concurrency', '1', '--hardware-spec', 'hw.json'], /belongs to --search-configs/],
    [['--search-configs', '--model-path', 'M', '--hardware', 'b200', '--devices', '8', '--concurrency', '4'], /does not apply to --search-configs/],
    [['--concurrency', '1', '--tp', '8'], /unrecognized argument '--tp'/],
    [['--concurrency', '1', '--prompts-per-load', '0'], /^argument --prompts-per-load: 0 is out of range: expected a number > 0$/],
  ] as const) {
    test(`rejects ${argv.join(' ')}`, () => {
      assert.throws(() => parseSweepCommand(argv), (error: unknown) => error instanceof UsageError && message.test(error.message));
    });
  }
});
