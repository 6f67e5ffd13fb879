import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { UserError } from '../core/errors.js';
import { parseCaseFile } from './cases.js';
import { referenceLogCases } from './training-set.js';

const good = {
  cases: [
    {
      id: 'X1',
      name: 'one',
      model_path: 'Qwen/Qwen3-32B',
      hardware: 'h100',
      cards: 2,
      launch_flags: ['--tp', '2'],
      bench_flags: ['--dataset-name', 'random'],
      published: { tpot_ms: 10, ttft_ms: 100, output_tps: 500, accept_length: 2.5 },
    },
    {
      name: 'two',
      model_path: 'm',
      hardware: 'b200',
      cards: 8,
      launch_flags: [],
      prefill_flags: ['--tp', '8'],
      decode_flags: ['--tp', '8'],
      bench_flags: [],
      backend: 'sglang-oai',
      workload_lengths: { input_total: 100, output_total: 50 },
      published: { tpot_ms: 1, ttft_ms: 2, output_tps: 3 },
    },
  ],
};

describe('parseCaseFile', () => {
  test('reads every field, with ids from the file name where a case has none', () => {
    const [a, b] = parseCaseFile(good, 'dir/ascend-train.json');
    assert.equal(a!.id, 'X1');
    assert.deepEqual(a!.launchFlags, ['--tp', '2']);
    assert.equal(a!.backend, 'sglang');
    assert.equal(a!.published.acceptLength, 2.5);
    assert.equal(a!.published.durationS, null);
    assert.equal(a!.prefillFlags, null);
    assert.equal(b!.id, 'A2');
    assert.deepEqual(b!.decodeFlags, ['--tp', '8']);
    assert.equal(b!.backend, 'sglang-oai');
    assert.deepEqual(b!.workloadLengths, { inputTotal: 100, outputTotal: 50 });
    assert.equal(b!.referenceLog, false);
  });

  test('a bad field is one error naming the file, the case and the field', () => {
    const broken = structuredClone(good);
    (broken.cases[0]!.published as Record<string, unknown>).tpot_ms = -3;
    assert.throws(() => parseCaseFile(broken, 'f.json'), (e: unknown) => e instanceof UserError && /^f\.json: case 1: 'published\.tpot_ms' must be a positive number, got -3/.test(e.message));
    const half = structuredClone(good);
    delete (half.cases[1] as Record<string, unknown>).decode_flags;
    assert.throws(() => parseCaseFile(half, 'f.json'), /case 2: PD separation needs both/);
    assert.throws(() => parseCaseFile({ runs: [] }, 'f.json'), /expected an object with a 'cases' list/);
  });

  test('the reference logs parse, each marked as one', () => {
    const logs = referenceLogCases();
    assert.equal(logs.length, 8);
    assert.ok(logs.every((c) => c.referenceLog && c.source.startsWith('shared/reference/logs/')));
  });
});
