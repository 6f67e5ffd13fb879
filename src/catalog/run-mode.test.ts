import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runModeOf } from './run-mode.js';

test('a run is predicted, simulated or measured by what it carries', () => {
  assert.equal(runModeOf({ labels: { mode: 'predict', sweep_load: '4' } }), 'predicted');
  assert.equal(runModeOf({ metrics: { mean_tpot_prediction_error: 0.14 } }), 'predicted');
  assert.equal(runModeOf({ labels: { mode: 'sim' } }), 'simulated');
  assert.equal(runModeOf({ labels: { deploy: 'simulated' } }), 'simulated');
  assert.equal(runModeOf({ args: { sim: '--model-path Qwen/Qwen3-8B' } }), 'simulated');
  assert.equal(runModeOf({ metrics: { answers: 'synthetic' } }), 'simulated');
  // The sim says what it is in /get_server_info, started by bench or apart, alone or behind a PD router.
  assert.equal(runModeOf({ serverInfo: { tp_size: 1, version: 'servebench-sim 0.1.0' } }), 'simulated');
  assert.equal(runModeOf({ labels: { mode: 'server' }, serverInfo: { prefill: [{ version: 'servebench-sim 0.1.0' }], decode: [{ version: 'servebench-sim 0.1.0' }] } }), 'simulated');
  assert.equal(runModeOf({ serverInfo: { tp_size: 8, version: '0.5.6' } }), 'measured');
  assert.equal(runModeOf({ labels: { mode: 'server' }, args: { sim: null }, metrics: { answers: 'scored' } }), 'measured');
  assert.equal(runModeOf({}), 'measured');
});
