import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readReferenceLog } from '../../../test/helpers/reference-logs.js';
import { parseNamespace, ReprError } from './python-repr.js';

test('reads the Namespace line of a reference log', () => {
  const line = readReferenceLog('qwen2.5-0.5b_cuda-graph_64-16_r0.log').split('\n')[0]!;
  const args = parseNamespace(line);
  assert.equal(args.backend, 'sglang');
  assert.equal(args.base_url, 'http://127.0.0.1:30000');
  assert.equal(args.port, null);
  assert.equal(args.request_rate, Infinity);
  assert.equal(args.random_range_ratio, 0);
  assert.deepEqual(args.profile_activities, ['CPU', 'GPU']);
  assert.equal(args.disable_tqdm, false);
  assert.equal(args.header, null);
  assert.equal(Object.keys(args).length, 67);
});

/** One Python literal, read as the value of a Namespace field. */
const parsePythonLiteral = (text: string): unknown => parseNamespace(`Namespace(value=${text})`).value;

test('literals: escapes, quotes, tuples, dicts, negative and exponent numbers', () => {
  assert.equal(parsePythonLiteral(`'it\\'s\\n'`), "it's\n");
  assert.equal(parsePythonLiteral(`"a'b"`), "a'b");
  assert.deepEqual(parsePythonLiteral(`('a', -1, 1e-05, {'k': [True, None]})`), ['a', -1, 1e-5, { k: [true, null] }]);
  assert.ok(Number.isNaN(parsePythonLiteral('nan') as number));
});

test('truncated or foreign text is a ReprError', () => {
  assert.throws(() => parseNamespace("Namespace(backend='sglang', port="), ReprError);
  assert.throws(() => parseNamespace('Namespace(a=<object at 0x1>)'), ReprError);
  assert.throws(() => parseNamespace('no namespace'), ReprError);
});
