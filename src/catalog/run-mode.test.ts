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
  assert.equal(runModeOf({ labels: { mode: 'server' }, args: { sim: null }, metrics: { answers: 'scored' } }), 'measured');
  assert.equal(runModeOf({}), 'measured');
});
