import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { NumpyRandomState, PythonRandom, createBenchRngs } from './rng.js';
import { UsageError } from './errors.js';

// Expected values come from the spec's test vectors (§4.8) and from CPython 3 / numpy runs.
describe('NumpyRandomState', () => {
  test('randint matches numpy seed 1', () => {
    const rs = new NumpyRandomState(1);
    assert.deepEqual(rs.randint(1, 1025, 8), [38, 236, 909, 73, 768, 906, 716, 646]);
  });

  test('default random lens (r=0) and r=0.5 lens', () => {
    const rs = new NumpyRandomState(1);
    assert.deepEqual(rs.randint(1, 1025, 5), [38, 236, 909, 73, 768]);
    assert.deepEqual(rs.randint(1, 1025, 5), [906, 716, 646, 848, 961]);
    rs.seed(1);
    assert.deepEqual(rs.randint(512, 1025, 5), [549, 747, 584, 656, 641]);
  });

  test('exponential after eight randint(1,1025) and five randint(512,1025)', () => {
    const rs = new NumpyRandomState(1);
    rs.randint(1, 1025, 8);
    rs.randint(512, 1025, 5);
    assert.deepEqual(
      [rs.exponential(0.25), rs.exponential(0.25), rs.exponential(0.25)],
      [0.19348994371518932, 0.13583484265456128, 0.28896992742735556],
    );
  });

  test('64-bit masked path and exponential continue the same stream', () => {
    const rs = new NumpyRandomState(1);
    assert.deepEqual(rs.randint(0, 1e12, 3), [163196666091, 605300724808, 876169207429]);
    assert.equal(rs.exponential(2), 0.3174191903893478);
  });

  test('choice with probabilities', () => {
    const rs = new NumpyRandomState(7);
    const picks = Array.from({ length: 10 }, () => rs.choice(4, [0.1, 0.2, 0.3, 0.4]));
    assert.deepEqual(picks, [0, 3, 2, 3, 3, 2, 2, 0, 1, 2]);
  });

  test('degenerate and invalid ranges', () => {
    const rs = new NumpyRandomState(1);
    assert.deepEqual(rs.randint(5, 6, 3), [5, 5, 5]);
    assert.throws(() => rs.randint(10, 5, 1), /low >= high/);
    assert.throws(() => new NumpyRandomState(-1), RangeError);
  });

  test('a clone draws what the original would draw next, independently', () => {
    const original = new NumpyRandomState(1);
    original.randint(1, 1025, 700);
    const twin = original.clone();
    const ahead = original.rand(3);
    assert.deepEqual(twin.rand(3), ahead);
    twin.rand(5);
    const replay = new NumpyRandomState(1);
    replay.randint(1, 1025, 703 + 3);
    assert.equal(original.randomSample(), replay.randomSample());
  });

  test('rand gives doubles in [0,1) equal to randomSample draws', () => {
    const a = new NumpyRandomState(3).rand(1000);
    const b = new NumpyRandomState(3);
    for (const x of a) {
      assert.ok(x >= 0 && x < 1);
      assert.equal(x, b.randomSample());
    }
  });
});

describe('PythonRandom', () => {
  test('shuffle(range(20)) with seed 1', () => {
    const items = Array.from({ length: 20 }, (_, i) => i);
    new PythonRandom(1).shuffle(items);
    assert.deepEqual(items, [11, 5, 17, 19, 9, 0, 16, 1, 15, 6, 10, 13, 14, 12, 7, 3, 8, 2, 18, 4]);
  });

  test('random() matches CPython for seeds 1 and 0', () => {
    const r = new PythonRandom(1);
    assert.deepEqual([r.random(), r.random(), r.random()], [0.13436424411240122, 0.8474337369372327, 0.763774618976614]);
    assert.equal(new PythonRandom(0).random(), 0.8444218515250481);
  });

  test('getrandbits above 32 bits and large randbelow', () => {
    const r = new PythonRandom(1);
    r.random();
    r.random();
    r.random();
    assert.equal(r.getrandbits(40), 129944532028);
    assert.equal(r.randbelow(10 ** 12), 835351532923);
  });

  test('multi-word seed, shuffle, choices, sample, choice', () => {
    const r = new PythonRandom(12345678901);
    const items = Array.from({ length: 10 }, (_, i) => i);
    assert.deepEqual(r.shuffle(items), [8, 7, 3, 1, 0, 4, 2, 6, 5, 9]);
    const hundred = Array.from({ length: 100 }, (_, i) => i);
    assert.deepEqual(r.choices(hundred, 5), [20, 91, 90, 27, 47]);
    const thousand = Array.from({ length: 1000 }, (_, i) => i);
    assert.deepEqual(r.sample(thousand, 7), [497, 754, 607, 427, 921, 217, 861]);
    const twenty = Array.from({ length: 20 }, (_, i) => i);
    assert.deepEqual(r.sample(twenty, 5), [6, 8, 15, 10, 7]);
    assert.equal(r.choice([...'abcdef']), 'd');
  });
});

describe('createBenchRngs', () => {
  test('seeds both streams from --seed', () => {
    const { numpy, python } = createBenchRngs(1);
    assert.deepEqual(numpy.randint(1, 1025, 2), [38, 236]);
    assert.equal(python.random(), 0.13436424411240122);
  });

  test('rejects a seed numpy cannot take', () => {
    assert.throws(() => createBenchRngs(-5), UsageError);
  });
});
