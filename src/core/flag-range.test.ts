import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ArgumentParser } from 'argparse';
import { UsageError } from './errors.js';
import { AT_LEAST_ONE, FRACTION, LISTEN_PORT, boundedArgType, describeRange, isInRange, parseFlagNumber } from './flag-range.js';

function usageMessage(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof UsageError, String(error));
    assert.equal(error.exitCode, 2);
    assert.ok(!error.message.includes('\n'), error.message);
    return error.message;
  }
  assert.fail('expected a UsageError');
}

describe('describeRange', () => {
  test('states the kind, the bounds and what a special value means', () => {
    assert.equal(describeRange('int', AT_LEAST_ONE), 'an integer ≥ 1');
    assert.equal(describeRange('int', LISTEN_PORT), 'an integer from 0 to 65535 (0: any free port)');
    assert.equal(describeRange('float', FRACTION), 'a number from 0 to 1');
    assert.equal(describeRange('float', { above: 0, max: Infinity }), 'a number > 0, or inf');
    assert.equal(describeRange('float', { above: 0, max: 10 }), 'a number > 0 and ≤ 10');
    assert.equal(describeRange('int', {}), 'an integer');
  });
});

describe('isInRange', () => {
  test('inclusive bounds, strict lower bound', () => {
    assert.equal(isInRange(1, 'int', AT_LEAST_ONE), true);
    assert.equal(isInRange(0, 'int', AT_LEAST_ONE), false);
    assert.equal(isInRange(0, 'float', { above: 0 }), false);
    assert.equal(isInRange(1e-9, 'float', { above: 0 }), true);
    assert.equal(isInRange(65_535, 'int', LISTEN_PORT), true);
    assert.equal(isInRange(65_536, 'int', LISTEN_PORT), false);
  });
  test('NaN never passes; infinity only where max is Infinity', () => {
    assert.equal(isInRange(NaN, 'float', {}), false);
    assert.equal(isInRange(Infinity, 'float', { above: 0 }), false);
    assert.equal(isInRange(Infinity, 'float', { above: 0, max: Infinity }), true);
    assert.equal(isInRange(-Infinity, 'float', { max: Infinity }), false);
  });
  test('an int must be a safe integer', () => {
    assert.equal(isInRange(2 ** 60, 'int', AT_LEAST_ONE), false);
  });
});

describe('parseFlagNumber', () => {
  test("reads Python's int() and float() grammar", () => {
    assert.equal(parseFlagNumber('--tp', '1_024', 'int', AT_LEAST_ONE), 1024);
    assert.equal(parseFlagNumber('--x', ' 0.5 ', 'float', FRACTION), 0.5);
  });
  test('names the flag and the text that is not a number', () => {
    assert.equal(usageMessage(() => parseFlagNumber('--tp', '1.5', 'int', AT_LEAST_ONE)), "argument --tp: invalid int value: '1.5'");
  });
  test('names the flag, the value and the range of a value outside it', () => {
    assert.equal(
      usageMessage(() => parseFlagNumber('--port', '-1', 'int', LISTEN_PORT)),
      'argument --port: -1 is out of range: expected an integer from 0 to 65535 (0: any free port)',
    );
  });
});

describe('boundedArgType', () => {
  function parser(): ArgumentParser {
    const result = new ArgumentParser({ exit_on_error: false });
    result.add_argument('--limit', { type: boundedArgType('int', { min: 0 }) });
    return result;
  }
  test('converts an allowed value', () => {
    assert.equal((parser().parse_args(['--limit', '3']) as { limit: number }).limit, 3);
  });
  test("argparse reports text that is no number in its own words, and a value out of range with the flag's range", () => {
    assert.throws(() => parser().parse_args(['--limit', 'x']), /argument --limit: invalid int value: 'x'/);
    assert.throws(() => parser().parse_args(['--limit', '-1']), /argument --limit: -1 is out of range: expected an integer ≥ 0$/);
  });
});
