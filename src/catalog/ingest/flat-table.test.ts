import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findFlatTables } from './flat-table.js';

test('one cell per line: the header names, then rows while every cell fits its column', () => {
  const lines = [
    'Low Latency', '', 'Model', 'Hardware', 'CardNum', 'Deploy Mode', 'TPOT(ms)', 'Configuration',
    'Qwen3-32B', 'Atlas 800I A3', '4', 'PD Mixed', '16.87', 'Optimal Configuration',
    'Qwen3-8B', 'Atlas 800I A2', '', '2', 'PD Separation', '9.10', 'Optimal Configuration',
    'High Throughput', 'Model', 'Hardware', 'CardNum', 'Deploy Mode', 'TPOT(ms)', 'Configuration',
  ];
  const { tables, warnings } = findFlatTables(lines);
  assert.equal(tables.length, 1);
  assert.deepEqual(tables[0]!.header, ['Model', 'Hardware', 'CardNum', 'Deploy Mode', 'TPOT(ms)', 'Configuration']);
  assert.deepEqual(tables[0]!.rows.map((r) => r.cells[0]), ['Qwen3-32B', 'Qwen3-8B'], 'blank lines between cells are ignored; the prose line after the rows ends the table');
  assert.equal(tables[0]!.line, 2);
  assert.deepEqual(warnings, ['lines 23-28 look like a table header (Model, Hardware, CardNum, Deploy Mode, TPOT(ms), Configuration) but the lines under them do not fit its columns; not read']);
});
