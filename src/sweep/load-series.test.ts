import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { UsageError } from '../core/errors.js';
import { nextLoad, parseLoadSeries, type LoadSeries } from './load-series.js';

function values(series: LoadSeries): number[] {
  assert.equal(series.mode, 'fixed');
  return series.mode === 'fixed' ? series.values : [];
}

describe('parseLoadSeries', () => {
  test('lists, geometric and arithmetic ranges', () => {
    assert.deepEqual(values(parseLoadSeries('1,2,4', 'concurrency')), [1, 2, 4]);
    assert.deepEqual(values(parseLoadSeries('1:64:x2', 'concurrency')), [1, 2, 4, 8, 16, 32, 64]);
    assert.deepEqual(values(parseLoadSeries('1:40:+8', 'concurrency')), [1, 9, 17, 25, 33]);
    assert.deepEqual(values(parseLoadSeries('2:10', 'concurrency')), [2, 4, 8]);
    assert.deepEqual(values(parseLoadSeries('0.5:1.5:+0.25', 'rate')), [0.5, 0.75, 1, 1.25, 1.5]);
    assert.deepEqual(values(parseLoadSeries('1:10:x1.5', 'concurrency')), [1, 2, 3, 5, 8]);
    assert.deepEqual(values(parseLoadSeries('0.5,2,inf', 'rate')), [0.5, 2, Number.POSITIVE_INFINITY]);
  });

  test('auto with an optional limit', () => {
    assert.deepEqual(parseLoadSeries('auto', 'concurrency'), { mode: 'auto', start: 1, factor: 2, limit: 4096 });
    assert.deepEqual(parseLoadSeries('auto:256', 'rate'), { mode: 'auto', start: 1, factor: 2, limit: 256 });
  });

  for (const [text, kind] of [
    ['1.5,2', 'concurrency'], ['0,1', 'rate'], ['4,2', 'concurrency'], ['inf,2', 'rate'], ['inf', 'concurrency'],
    ['8:1:x2', 'concurrency'], ['1:8:x1', 'concurrency'], ['1:8:+0.5', 'concurrency'], ['1:100000:+1', 'concurrency'], ['1:2:3:4', 'rate'], ['', 'rate'],
  ] as const) {
    test(`rejects '${text}' as ${kind}`, () => {
      assert.throws(() => parseLoadSeries(text, kind), UsageError);
    });
  }
});

describe('nextLoad', () => {
  test('a fixed series runs through its list', () => {
    const series = parseLoadSeries('1,4', 'concurrency');
    assert.equal(nextLoad(series, []), 1);
    assert.equal(nextLoad(series, [{ load: 1, outputThroughput: 10 }]), 4);
    assert.equal(nextLoad(series, [{ load: 1, outputThroughput: 10 }, { load: 4, outputThroughput: 40 }]), undefined);
  });

  test('auto doubles until throughput stops growing or the limit is reached', () => {
    const series = parseLoadSeries('auto:8', 'concurrency');
    assert.equal(nextLoad(series, []), 1);
    assert.equal(nextLoad(series, [{ load: 1, outputThroughput: 100 }]), 2);
    assert.equal(nextLoad(series, [{ load: 1, outputThroughput: 100 }, { load: 2, outputThroughput: 190 }]), 4);
    assert.equal(nextLoad(series, [{ load: 2, outputThroughput: 190 }, { load: 4, outputThroughput: 195 }]), undefined);
    assert.equal(nextLoad(series, [{ load: 4, outputThroughput: 300 }, { load: 8, outputThroughput: 600 }]), undefined);
    assert.equal(nextLoad(parseLoadSeries('auto:6', 'concurrency'), [{ load: 4, outputThroughput: 1 }]), 6);
  });
});
