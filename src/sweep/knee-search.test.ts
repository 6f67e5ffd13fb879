import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { searchKnee } from './knee-search.js';

/** A synthetic engine: TPOT grows linearly with load, then steeply past saturation. */
function tpotAt(load: number): number {
  return load <= 150 ? 10 + load * 0.05 : 17.5 + (load - 150) * 0.5;
}

function exhaustiveKnee(limitMs: number, maxLoad: number): number | undefined {
  let best: number | undefined;
  for (let load = 1; load <= maxLoad; load += 1) if (tpotAt(load) <= limitMs) best = load;
  return best;
}

async function search(limitMs: number, tolerance: number, start = 1, limit = 1024) {
  return searchKnee({
    kind: 'concurrency',
    start,
    limit,
    tolerance,
    probe: async (load) => ({ met: tpotAt(load) <= limitMs, tpot: tpotAt(load) }),
  });
}

describe('searchKnee on concurrency', () => {
  for (const limitMs of [11, 15, 17.5, 20, 40, 200]) {
    test(`exact search equals the exhaustive sweep for TPOT ≤ ${limitMs} ms, in few runs`, async () => {
      const result = await search(limitMs, 0);
      assert.equal(result.best?.load, exhaustiveKnee(limitMs, 1024));
      // Doubling to ≤ 1024 is at most 11 runs, bisection of the last octave at most 10 more.
      assert.ok(result.runs.length <= 21, `${result.runs.length} runs`);
      assert.equal(new Set(result.runs.map((run) => run.load)).size, result.runs.length, 'no load probed twice');
      if (result.firstFailing) assert.equal(result.firstFailing.load, (result.best?.load ?? 0) + 1);
    });
  }

  test('a tolerance trades resolution for runs', async () => {
    const exact = await search(20, 0);
    const coarse = await search(20, 0.05);
    const knee = exhaustiveKnee(20, 1024) as number;
    assert.ok(coarse.runs.length < exact.runs.length);
    assert.ok(coarse.best !== undefined && coarse.best.load <= knee && coarse.best.load >= knee * 0.95);
  });

  test('reports no passing load when even concurrency 1 breaks the SLO', async () => {
    const result = await search(5, 0, 8);
    assert.equal(result.best, undefined);
    assert.equal(result.firstFailing?.load, 1);
    assert.deepEqual(result.runs.map((run) => run.load), [8, 4, 2, 1]);
  });

  test('stops at the limit when the limit itself meets the SLO', async () => {
    const result = await search(1000, 0, 1, 100);
    assert.equal(result.best?.load, 100);
    assert.equal(result.firstFailing, undefined);
    assert.deepEqual(result.runs.map((run) => run.load), [1, 2, 4, 8, 16, 32, 64, 100]);
  });

  test('a high start halves down, then bisects', async () => {
    const result = await search(15, 0, 512);
    assert.equal(result.best?.load, exhaustiveKnee(15, 1024));
  });
});

describe('searchKnee on request rate', () => {
  test('bisects to the tolerance and brackets the true knee', async () => {
    const knee = 7.3;
    const result = await searchKnee({
      kind: 'rate',
      start: 1,
      limit: 1000,
      tolerance: 0.02,
      probe: async (rate) => ({ met: rate <= knee }),
    });
    const best = result.best?.load as number;
    const failing = result.firstFailing?.load as number;
    assert.ok(best <= knee && failing > knee);
    assert.ok(failing - best <= best * 0.02);
  });

  test('halves below the start when the start already fails', async () => {
    const result = await searchKnee({ kind: 'rate', start: 16, limit: 1000, tolerance: 0.05, probe: async (rate) => ({ met: rate <= 0.3 }) });
    assert.ok((result.best?.load as number) <= 0.3 && (result.best?.load as number) >= 0.3 * 0.95);
  });

  test('refuses a zero tolerance, which would never end', async () => {
    await assert.rejects(searchKnee({ kind: 'rate', start: 1, limit: 10, tolerance: 0, probe: async () => ({ met: true }) }), RangeError);
  });
});
