import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CsvSyntaxError, parseCsv } from './csv.js';

test('quoted fields keep commas, line breaks and doubled quotes; records know their first line', () => {
  const text = 'plain,"a, b","say ""hi"""\n"two\nlines",x,y\n';
  assert.deepEqual(parseCsv(text), [
    { fields: ['plain', 'a, b', 'say "hi"'], line: 1 },
    { fields: ['two\nlines', 'x', 'y'], line: 2 },
  ]);
});

test('CRLF line ends, blank lines, empty fields and a byte-order mark', () => {
  const text = '\ufeffa,,c\r\n\r\n,b,\r\nlast,row,"",';
  assert.deepEqual(parseCsv(text), [
    { fields: ['a', '', 'c'], line: 1 },
    { fields: ['', 'b', ''], line: 3 },
    { fields: ['last', 'row', '', ''], line: 4 },
  ]);
});

test('a quote left open is an error naming the line it opened on', () => {
  assert.throws(
    () => parseCsv('ok,row\nbad,"open\nstill open'),
    (error: unknown) => error instanceof CsvSyntaxError && error.line === 2 && /never closed/.test(error.message),
  );
});
