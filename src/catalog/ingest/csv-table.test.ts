import { test } from 'node:test';
import assert from 'node:assert/strict';
import { csvBlocks, parseCsv } from './csv-table.js';

test('RFC 4180 fields: quotes, doubled quotes, commas and line breaks inside; blank lines separate tables', () => {
  const records = parseCsv('a,"b, ""c""",d\r\n"multi\nline",2,\n\nMetric,Value\nx,"1,234.50"');
  assert.deepEqual(records, [['a', 'b, "c"', 'd'], ['multi\nline', '2', ''], [''], ['Metric', 'Value'], ['x', '1,234.50']]);
  assert.deepEqual(csvBlocks(records), [[['a', 'b, "c"', 'd'], ['multi\nline', '2', '']], [['Metric', 'Value'], ['x', '1,234.50']]]);
});
