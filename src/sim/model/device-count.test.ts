import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { getHardware } from './catalog.js';
import { cardsFor, instanceDeviceCount } from './device-count.js';

describe('device counts', () => {
  test('TP spans the DP-attention ranks; DP without it replicates the TP group; PP stacks stages', () => {
    assert.equal(instanceDeviceCount({ tp: 16, dp: 4, enableDpAttention: true }), 16);
    assert.equal(instanceDeviceCount({ tp: 2, dp: 4, enableDpAttention: false }), 8);
    assert.equal(instanceDeviceCount({ tp: 8, dp: 1, enableDpAttention: false, pp: 2 }), 16);
  });

  test('an A3 card holds two 910C dies, a GPU is its own card; a partial card counts whole', () => {
    assert.deepEqual([cardsFor(getHardware('ascend-910c'), 16), cardsFor(getHardware('ascend-910c'), 3)], [8, 2]);
    assert.equal(cardsFor(getHardware('b200'), 8), 8);
  });
});
