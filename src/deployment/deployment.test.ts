import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { getHardware } from './model/catalog.js';
import { cardsFor, deployMode, deploymentDevices, instanceDevices, nodesFor, roleCount, serverRole, servers, type Deployment } from './deployment.js';

describe('device counts', () => {
  test('TP spans the DP-attention ranks; DP without it replicates the TP group; PP stacks stages', () => {
    assert.equal(instanceDevices({ tpSize: 16, dpSize: 4, enableDpAttention: true }), 16);
    assert.equal(instanceDevices({ tpSize: 2, dpSize: 4, enableDpAttention: false }), 8);
    assert.equal(instanceDevices({ tpSize: 8, dpSize: 1, enableDpAttention: false, ppSize: 2 }), 16);
    assert.equal(instanceDevices({}), 1, 'flags a recipe leaves out count as 1');
  });

  test('an A3 card holds two 910C dies, a GPU is its own card; a partial card counts whole', () => {
    assert.deepEqual([cardsFor(getHardware('ascend-910c'), 16), cardsFor(getHardware('ascend-910c'), 3)], [8, 2]);
    assert.equal(cardsFor(getHardware('b200'), 8), 8);
  });

  test('nodes: an instance spans as many scale-up domains as its devices fill', () => {
    assert.deepEqual([nodesFor(getHardware('h100'), 8), nodesFor(getHardware('h100'), 9), nodesFor(getHardware('ascend-910c'), 16)], [1, 2, 1]);
  });
});

describe('a deployment of instances', () => {
  const pd: Deployment = {
    instances: [
      { role: 'prefill', config: { tpSize: 32 } },
      { role: 'decode', config: { tpSize: 32, dpSize: 8, enableDpAttention: true } },
      { role: 'router', config: {} },
    ],
  };

  test('devices are the serving instances\' (a router holds none)', () => {
    assert.deepEqual(servers(pd).map((i) => i.role), ['prefill', 'decode']);
    assert.equal(deploymentDevices(pd), 64);
  });

  test('deploy mode and roles come from the instances', () => {
    assert.equal(deployMode(pd), 'pd-separated');
    assert.equal(deployMode({ instances: [{ role: 'mixed', config: {} }] }), 'pd-mixed');
    assert.equal(deployMode({ instances: [] }), null);
    assert.deepEqual([roleCount(pd, 'prefill'), roleCount(pd, 'decode'), roleCount(pd, 'mixed')], [1, 1, 0]);
  });

  test('--disaggregation-mode gives a server its role', () => {
    assert.deepEqual([serverRole('prefill'), serverRole('decode'), serverRole('null'), serverRole(undefined)], ['prefill', 'decode', 'mixed', 'mixed']);
  });
});
