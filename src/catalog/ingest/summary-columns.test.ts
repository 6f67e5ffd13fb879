import { test } from 'node:test';
import assert from 'node:assert/strict';
import { columnOf, readCell, readFactLine } from './summary-columns.js';

test('header spellings of pages and of servebench table CSV name the same columns', () => {
  assert.deepEqual(
    ['CardNum', 'Cards', 'Deploy Mode', 'deploy_mode', 'DataSets', 'TPOT(ms)', 'mean_tpot_ms', 'Output TPS(per card)', 'output_tok_s_per_card', 'Notes'].map(columnOf),
    ['cards', 'cards', 'deployMode', 'deployMode', 'dataset', 'tpot', 'tpot', 'outputPerCard', 'outputPerCard', null],
  );
});

test('a TPOT with its unit is the target latency, a bare number the measured mean; a cell that cannot be is null', () => {
  assert.deepEqual(readCell('tpot', '50ms'), { targetLatencyMs: 50 });
  assert.deepEqual(readCell('tpot', '19.81'), { meanTpotMs: 19.81 });
  assert.deepEqual(readCell('outputPerCard', '1,120.000'), { outputPerCard: 1120 });
  assert.deepEqual(readCell('dataset', '128K+1K (90% prefix cache hit rate)'), { datasetLabel: '128K-1K (90% prefix cache hit rate)' });
  assert.deepEqual(readCell('hardware', 'Atlas 800I A3 32Card'), { hardware: 'Atlas 800I A3', cards: 32 });
  assert.deepEqual(readCell('deployMode', 'PD Disaggregation'), { deployMode: 'pd-separation' });
  assert.equal(readCell('cards', 'many'), null);
  assert.deepEqual(readCell('cards', '-'), {});
});

test('fact lines: one label per line or several on one', () => {
  assert.deepEqual(readFactLine('DataSets: 3.5K1.5K'), { datasetLabel: '3.5K-1.5K' });
  assert.deepEqual(readFactLine('Model: Qwen3.5-397B Hardware: Atlas 800I A3 Cards: 8 Deploy Mode: PD Mixed Quantization: W4A8 INT8 Dataset: 128K+1K TPOT: 20ms'), {
    model: 'Qwen3.5-397B', hardware: 'Atlas 800I A3', cards: 8, deployMode: 'pd-mixed', quantization: 'W4A8 INT8', datasetLabel: '128K-1K', targetLatencyMs: 20,
  });
  assert.equal(readFactLine('The model: it is fast'), null);
});
