import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pyFloat, pyFloats } from './pyformat.js';
import { pyRepr, pyStrRepr } from './pyrepr.js';

describe('pyStrRepr', () => {
  test('quotes like CPython', () => {
    assert.equal(pyStrRepr('abc'), "'abc'");
    assert.equal(pyStrRepr("it's"), `"it's"`);
    assert.equal(pyStrRepr(`a'b"c`), `'a\\'b"c'`);
    assert.equal(pyStrRepr(''), "''");
  });
  test('escapes backslash, whitespace controls and non-printables', () => {
    assert.equal(pyStrRepr('a\\b'), "'a\\\\b'");
    assert.equal(pyStrRepr('\t\n\r'), "'\\t\\n\\r'");
    assert.equal(pyStrRepr('\x00\x7f\x80\xad'), "'\\x00\\x7f\\x80\\xad'");
    assert.equal(pyStrRepr('\u200b\u2028'), "'\\u200b\\u2028'");
    assert.equal(pyStrRepr('\udc00'), "'\\udc00'");
  });
  test('keeps printable non-ASCII text', () => {
    assert.equal(pyStrRepr('héllo 日本 😀'), "'héllo 日本 😀'");
    assert.equal(pyStrRepr('a\u00a0b'), "'a\\xa0b'");
  });
});

describe('pyRepr', () => {
  test('scalars', () => {
    assert.equal(pyRepr(null), 'None');
    assert.equal(pyRepr(true), 'True');
    assert.equal(pyRepr(false), 'False');
    assert.equal(pyRepr(1000), '1000');
    assert.equal(pyRepr(pyFloat(0)), '0.0');
    assert.equal(pyRepr(Infinity), 'inf');
  });
  test('lists and dicts', () => {
    assert.equal(pyRepr(['CPU', 'GPU']), "['CPU', 'GPU']");
    assert.equal(pyRepr([]), '[]');
    assert.equal(pyRepr([pyFloats([1, 2.5]), [1]]), '[[1.0, 2.5], [1]]');
    assert.equal(pyRepr({ a: [1, pyFloat(2), null, true, Infinity], b: 'x' }), "{'a': [1, 2.0, None, True, inf], 'b': 'x'}");
  });
});
