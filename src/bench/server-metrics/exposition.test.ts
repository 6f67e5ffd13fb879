import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseExposition, parseSampleValue } from './exposition.js';

test('samples with and without labels, comments and blank lines skipped, timestamps allowed', () => {
  const text = [
    '# HELP sglang:num_running_reqs The number of running requests.',
    '# TYPE sglang:num_running_reqs gauge',
    'sglang:num_running_reqs{model_name="m"} 8.0',
    '',
    'vllm:prefix_cache_hits_total 1.5e3 1700000000000',
    'up 1',
  ].join('\n');
  const { samples, unreadLines } = parseExposition(text);
  assert.equal(unreadLines, 0);
  assert.deepEqual(samples, [
    { name: 'sglang:num_running_reqs', labels: { model_name: 'm' }, value: 8 },
    { name: 'vllm:prefix_cache_hits_total', labels: {}, value: 1500 },
    { name: 'up', labels: {}, value: 1 },
  ]);
});

test('label values keep escaped quotes, backslashes, newlines, commas and braces', () => {
  const { samples } = parseExposition('x_bucket{path="a\\"b\\\\c\\nd",le="+Inf", other="{,}"} 3\n');
  assert.deepEqual(samples[0]!.labels, { path: 'a"b\\c\nd', le: '+Inf', other: '{,}' });
  assert.equal(samples[0]!.value, 3);
});

test('special values and unreadable lines: counted, never guessed', () => {
  assert.equal(parseSampleValue('+Inf'), Infinity);
  assert.equal(parseSampleValue('-Inf'), -Infinity);
  assert.ok(Number.isNaN(parseSampleValue('NaN')!));
  assert.equal(parseSampleValue('-0.25'), -0.25);
  assert.equal(parseSampleValue('1e-3'), 0.001);
  assert.equal(parseSampleValue('12abc'), null);
  const { samples, unreadLines } = parseExposition('good 1\nbad{le="1" 2\nworse one\n{x="1"} 2\nfine{} 4');
  assert.deepEqual(samples.map((s) => [s.name, s.value]), [['good', 1], ['fine', 4]]);
  assert.equal(unreadLines, 3);
});
