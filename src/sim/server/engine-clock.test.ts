import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EngineClock } from './engine-clock.js';

const sleep = (ms: number): void => {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
};

test('a rescaled clock goes on from where it was, at the new rate, and maps engine times to the wall at it', () => {
  const clock = new EngineClock();
  sleep(20);
  const before = clock.now();
  assert.ok(before >= 0.02 && before < 0.5, `engine time ${before}`);
  clock.rescale(4);
  assert.equal(clock.timeScale, 4);
  const atRescale = clock.now();
  assert.ok(atRescale - before < 0.01, 'no jump at the rescale');
  sleep(40);
  const advanced = clock.now() - atRescale;
  assert.ok(advanced >= 0.01 && advanced < 0.04, `40 ms of wall time are ${advanced * 1000} ms of engine time at 4x`);
  // An engine time 5 ms ahead is 20 ms of wall time away.
  const ahead = clock.wallMsUntil(clock.now() + 0.005);
  assert.ok(ahead > 19 && ahead <= 20.5, `${ahead} ms`);
  assert.ok(Math.abs(clock.toHrMs(clock.now()) - clock.hrNowMs()) < 2);
});
