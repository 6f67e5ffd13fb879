import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FrontEnd } from './front-end.js';

const costs = { ingestUs: 2000, hopUs: 1000, chunkUs: 10 };

describe('FrontEnd', () => {
  test('a burst reaches the scheduler together once ingested', () => {
    const fe = new FrontEnd<number>(costs);
    for (let i = 0; i < 5; i++) fe.ingest(i, 0);
    assert.ok(Math.abs(fe.nextRelease()! - 0.011) < 1e-12);
    assert.deepEqual(fe.release(0.0109), []);
    assert.deepEqual(fe.release(0.011), [0, 1, 2, 3, 4]);
    assert.equal(fe.nextRelease(), undefined);
  });

  test('spaced arrivals each pass on their own', () => {
    const fe = new FrontEnd<string>(costs);
    fe.ingest('a', 0);
    fe.ingest('b', 1);
    assert.deepEqual(fe.release(0.5), ['a']);
    assert.ok(Math.abs(fe.nextRelease()! - 1.003) < 1e-12);
    assert.equal(fe.pending, 1);
    assert.equal(fe.drop((x) => x === 'b'), true);
    assert.deepEqual(fe.release(2), []);
  });

  test('output chunks are written one after another', () => {
    const fe = new FrontEnd<number>(costs);
    const a = fe.scheduleChunk(1);
    const b = fe.scheduleChunk(1);
    const c = fe.scheduleChunk(2);
    assert.ok(Math.abs(a - 1.00001) < 1e-12 && Math.abs(b - 1.00002) < 1e-12 && Math.abs(c - 2.00001) < 1e-12);
  });
});
