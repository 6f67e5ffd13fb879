import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findMarkdownTables } from './markdown-table.js';

test('tables with or without outer pipes; link text kept, #anchors kept apart, escaped pipes read', () => {
  const [a, b] = findMarkdownTables(
    [
      'intro',
      '| Model | Config |',
      '|:---|---:|',
      '| **Qwen3-8B** | [Optimal Configuration](#qwen3-8b-tp1) |',
      '| a \\| b | [docs](https://x.y/z)<br>more |',
      '',
      'Model | Cards',
      '---|---',
      'Qwen3-32B | 4',
    ],
  );
  assert.deepEqual(a, {
    header: ['Model', 'Config'],
    rows: [{ cells: ['Qwen3-8B', 'Optimal Configuration'], anchor: 'qwen3-8b-tp1' }, { cells: ['a | b', 'docs more'], anchor: null }],
    line: 1,
    lines: [1, 2, 3, 4],
  });
  assert.deepEqual([b!.header, b!.rows[0]!.cells, b!.line], [['Model', 'Cards'], ['Qwen3-32B', '4'], 6]);
});
