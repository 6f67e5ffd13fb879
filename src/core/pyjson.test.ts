import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PyFloat, pyFloat, pyFloats } from './pyformat.js';
import { pythonJsonDumps, pythonJsonLoads } from './pyjson.js';

describe('pythonJsonDumps (json.dumps defaults)', () => {
  test('separators, ints vs floats, non-finite tokens', () => {
    const value = { a: [1, pyFloat(2), null, true, Infinity, NaN, -Infinity], b: {}, c: [], d: 0.1 };
    assert.equal(pythonJsonDumps(value), '{"a": [1, 2.0, null, true, Infinity, NaN, -Infinity], "b": {}, "c": [], "d": 0.1}');
  });
  test('ensure_ascii escapes with lowercase hex and surrogate pairs', () => {
    assert.equal(pythonJsonDumps('é'), '"\\u00e9"');
    assert.equal(pythonJsonDumps('😀'), '"\\ud83d\\ude00"');
    assert.equal(pythonJsonDumps('\x7f\x01'), '"\\u007f\\u0001"');
    assert.equal(pythonJsonDumps('"\\\n\r\t\b\f'), '"\\"\\\\\\n\\r\\t\\b\\f"');
  });
  test('float repr inside JSON', () => {
    assert.equal(pythonJsonDumps(pyFloat(1e-5)), '1e-05');
    assert.equal(pythonJsonDumps(pyFloat(1e16)), '1e+16');
    assert.equal(pythonJsonDumps(pyFloat(336.5312)), '336.5312');
  });
  test('lists marked with pyFloats print every item as a float and stay plain arrays', () => {
    const marked = pyFloats([1, 0.5, 0]);
    assert.ok(Array.isArray(marked));
    assert.deepEqual(marked, [1, 0.5, 0]);
    assert.equal(pythonJsonDumps({ itls: [marked, [1]] }), '{"itls": [[1.0, 0.5, 0.0], [1]]}');
  });
  test('undefined members are skipped, undefined values rejected', () => {
    assert.equal(pythonJsonDumps({ a: 1, b: undefined }), '{"a": 1}');
    assert.throws(() => pythonJsonDumps(undefined), TypeError);
  });
});

describe('pythonJsonLoads', () => {
  test('keeps the int/float distinction through a round trip', () => {
    const text = '{"a": [1, 2.0, null, true, false, Infinity, NaN, -Infinity, 1e5, -0.5], "b": {"c": "\\u00e9"}, "d": []}';
    const value = pythonJsonLoads(text) as Record<string, unknown>;
    assert.ok((value.a as unknown[])[1] instanceof PyFloat);
    assert.equal((value.a as unknown[])[0], 1);
    assert.equal(pythonJsonDumps(value as never), text.replace('1e5', '100000.0'));
  });
  test('tolerates whitespace and rejects malformed text', () => {
    assert.deepEqual(pythonJsonLoads(' [ 1 , "x" ] '), [1, 'x']);
    assert.throws(() => pythonJsonLoads('{"a": }'), SyntaxError);
    assert.throws(() => pythonJsonLoads('[1] 2'), SyntaxError);
    assert.throws(() => pythonJsonLoads('"abc'), SyntaxError);
  });
});
