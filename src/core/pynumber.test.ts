import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePythonFloat, parsePythonInt } from './pynumber.js';

describe('parsePythonInt (int())', () => {
  test('accepts what int() accepts', () => {
    assert.equal(parsePythonInt('10'), 10);
    assert.equal(parsePythonInt(' 7 '), 7);
    assert.equal(parsePythonInt('+3'), 3);
    assert.equal(parsePythonInt('-3'), -3);
    assert.equal(parsePythonInt('1_000'), 1000);
    assert.equal(parsePythonInt('007'), 7);
  });
  test('rejects what int() rejects', () => {
    for (const text of ['1.5', '1e3', '', ' ', '0x10', '1__0', '_1', '1_', 'inf', 'ten']) {
      assert.equal(parsePythonInt(text), undefined, text);
    }
  });
});

describe('parsePythonFloat (float())', () => {
  test('accepts special values in any case', () => {
    assert.equal(parsePythonFloat('inf'), Infinity);
    assert.equal(parsePythonFloat('Infinity'), Infinity);
    assert.equal(parsePythonFloat('INF'), Infinity);
    assert.equal(parsePythonFloat('-inf'), -Infinity);
    assert.ok(Number.isNaN(parsePythonFloat('nan')));
    assert.ok(Number.isNaN(parsePythonFloat('NaN')));
  });
  test('accepts decimal and exponent forms', () => {
    assert.equal(parsePythonFloat('1e3'), 1000);
    assert.equal(parsePythonFloat('.5'), 0.5);
    assert.equal(parsePythonFloat('5.'), 5);
    assert.equal(parsePythonFloat(' 16 '), 16);
    assert.equal(parsePythonFloat('1_000.5'), 1000.5);
    assert.equal(parsePythonFloat('1e400'), Infinity);
  });
  test('rejects what float() rejects', () => {
    for (const text of ['', 'abc', '0x10', '1e', 'infinit', '1..2', '.', '_1.0', 'e5']) {
      assert.equal(parsePythonFloat(text), undefined, text);
    }
  });
});
