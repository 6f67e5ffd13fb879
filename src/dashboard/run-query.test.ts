import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { RunRecord } from '../catalog/index.js';
import { matchesText, readRunQuery, toRunFilter } from './run-query.js';

const run = {
  id: 'abcdef123456',
  recordedAt: '2026-11-20T10:00:00.000Z',
  startedAt: null,
  model: 'deepseek-ai/DeepSeek-V3.2',
  toolVersion: 'sglang 0.5.6',
  source: { kind: 'ingest', file: '/logs/b200-run.log', contentHash: 'h', title: 'B200 x8, TP8' },
  args: { dataset_name: 'random', random_input_len: 1024, random_output_len: 1024 },
  metrics: {},
  serverInfo: null,
  environment: {},
  labels: { hardware: 'B200', cards: '8' },
  recipe: null,
  warnings: [],
  requestCount: 0,
  mode: 'measured',
} satisfies RunRecord;

describe('run query', () => {
  test('reads the filters from the URL', () => {
    const query = readRunQuery(new URLSearchParams('model=DeepSeek&hardware=B200&label=cards%3D8&label=&q=tp8&mode=predicted'));
    assert.deepEqual(query, { model: 'DeepSeek', hardware: 'B200', labels: ['cards=8'], text: 'tp8', mode: 'predicted' });
    assert.deepEqual(readRunQuery(new URLSearchParams('')), { model: '', hardware: '', labels: [], text: '', mode: '' });
  });

  test('turns labels into exact catalog label filters and a mode into a mode filter; rejects a label without = and an unknown mode', () => {
    assert.deepEqual(toRunFilter({ model: 'x', hardware: '', labels: ['cards=8'], text: '', mode: '' }), {
      filter: { model: 'x', labels: { cards: '8' } },
      error: null,
    });
    assert.deepEqual(toRunFilter({ model: '', hardware: '', labels: [], text: '', mode: 'simulated' }).filter, { labels: {}, modes: ['simulated'] });
    assert.match(toRunFilter({ model: '', hardware: '', labels: ['cards'], text: '', mode: '' }).error ?? '', /not key=value/);
    assert.match(toRunFilter({ model: '', hardware: '', labels: [], text: '', mode: 'guessed' }).error ?? '', /mode 'guessed' is not a run mode/);
  });

  test('free text matches id, model, title, file, labels and dataset, case-insensitively', () => {
    for (const needle of ['abcdef', 'deepseek-v3.2', 'tp8', 'b200-run', 'cards=8', '1k-1k', 'SGLANG 0.5']) {
      assert.equal(matchesText(run, needle), true, needle);
    }
    assert.equal(matchesText(run, 'qwen'), false);
    assert.equal(matchesText(run, ''), true);
  });
});
