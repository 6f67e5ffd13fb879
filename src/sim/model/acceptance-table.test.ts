import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { acceptanceTable, acceptRateFor } from './acceptance-table.js';

const close = (actual: number, expected: number, what: string): void => assert.ok(Math.abs(actual - expected) < 1e-4, `${what}: ${actual} vs ${expected}`);

describe('acceptance by model and dataset', () => {
  test('a published pair gets its own rate, the mean of its runs', () => {
    const table = acceptanceTable([
      { model: 'a', dataset: 'random', rate: 0.8 },
      { model: 'a', dataset: 'random', rate: 0.6 },
      { model: 'b', dataset: 'sharegpt', rate: 0.5 },
    ]);
    close(acceptRateFor(table, 'a', 'random'), 0.7, 'a on random');
    close(acceptRateFor(table, 'b', 'sharegpt'), 0.5, 'b on sharegpt');
  });

  test('an unpublished pair adds the model offset and the dataset offset, both learned from other pairs', () => {
    // Model b runs 0.2 above model a on random; sharegpt runs 0.1 below random for model a.
    const table = acceptanceTable([
      { model: 'a', dataset: 'random', rate: 0.7 },
      { model: 'b', dataset: 'random', rate: 0.9 },
      { model: 'a', dataset: 'sharegpt', rate: 0.6 },
    ]);
    close(acceptRateFor(table, 'b', 'sharegpt'), 0.8, 'b on sharegpt');
  });

  test("a model seen on one dataset only, which no other model used, shares the gap with that dataset: their offsets cannot be told apart", () => {
    const table = acceptanceTable([
      { model: 'a', dataset: 'random', rate: 0.8 },
      { model: 'b', dataset: 'random', rate: 0.9 },
      { model: 'c', dataset: 'sharegpt', rate: 0.55 },
    ]);
    close(table.models.c!, table.datasets.sharegpt!, "c's offset and sharegpt's");
    assert.ok(table.models.c! < 0, 'c sits below the others');
    // So c on random lands between its own sharegpt rate and the random rates of the others.
    const cOnRandom = acceptRateFor(table, 'c', 'random');
    assert.ok(cOnRandom > 0.6 && cOnRandom < 0.8, String(cOnRandom));
  });

  test('unknown models and datasets get the mean; no dataset gives the mean of what the model published', () => {
    const table = acceptanceTable([
      { model: 'a', dataset: 'random', rate: 0.8 },
      { model: 'a', dataset: 'sharegpt', rate: 0.6 },
      { model: 'b', dataset: 'random', rate: 0.9 },
    ]);
    close(acceptRateFor(table, 'a', null), 0.7, 'a, dataset unknown');
    close(acceptRateFor(table, 'z', 'mooncake'), table.mean, 'unknown model and dataset');
    assert.equal(acceptanceTable([]).mean, 0.7, 'a speculative model with nothing published: a typical chain');
  });

  test('estimates stay within what a chain can do', () => {
    const table = acceptanceTable([
      { model: 'a', dataset: 'random', rate: 0.99 },
      { model: 'b', dataset: 'random', rate: 0.99 },
      { model: 'a', dataset: 'sharegpt', rate: 0.5 },
      { model: 'c', dataset: 'random', rate: 0.05 },
      { model: 'c', dataset: 'mooncake', rate: 0.5 },
    ]);
    const estimate = acceptRateFor(table, 'b', 'mooncake');
    assert.ok(estimate <= 0.99 && estimate >= 0.05, String(estimate));
  });
});
