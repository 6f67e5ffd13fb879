import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { extractOptions, splitAtDoubleDash } from './exact-options.js';

describe('extractOptions', () => {
  const defs = [{ name: 'prefill', takesValue: true, repeatable: true }, { name: 'json', takesValue: true }, { name: 'no-pd', takesValue: false }];
  test('exact names only: SGLang flags sharing a prefix stay in rest', () => {
    const parsed = extractOptions(['--prefill', 'a b', '--prefill=c', '--prefill-round-robin-balance', '--tp', '8', '--no-pd'], defs, 'predict', true);
    assert.deepEqual(parsed.values.get('prefill'), ['a b', 'c']);
    assert.deepEqual(parsed.values.get('no-pd'), ['']);
    assert.deepEqual(parsed.rest, ['--prefill-round-robin-balance', '--tp', '8']);
  });
  test('errors: missing value, repeated single option, value on a switch, unknown option when strict', () => {
    assert.throws(() => extractOptions(['--json'], defs, 'sweep', true), /--json needs a value/);
    assert.throws(() => extractOptions(['--json', 'a', '--json', 'b'], defs, 'sweep', true), /given twice/);
    assert.throws(() => extractOptions(['--no-pd=1'], defs, 'sweep', true), /takes no value/);
    assert.throws(() => extractOptions(['--tp', '8'], defs, 'sweep', false), /unrecognized argument '--tp'.*after '--'/);
  });
  test('splitAtDoubleDash', () => {
    assert.deepEqual(splitAtDoubleDash(['--a', '--', '--b', '--']), { before: ['--a'], after: ['--b', '--'] });
    assert.deepEqual(splitAtDoubleDash(['--a']), { before: ['--a'], after: [] });
  });
});
