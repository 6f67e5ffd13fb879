/**
 * The `servebench bench` command line as a process: every parse error is one stderr line with
 * exit code 2 (no usage dump, no stack trace), validation errors exit 1, `--help` exits 0.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { runCli } from './helpers/cli.js';

const PARSE_ERRORS: Array<[string[], RegExp]> = [
  [['--random', '5'], /ambiguous option: --random could match --random-input-len/],
  [['--backend', 'tgi'], /argument --backend: invalid choice: 'tgi'/],
  [['--num-prompts', '1.5'], /argument --num-prompts: invalid int value: '1\.5'/],
  [['--request-rate', 'fast'], /argument --request-rate: invalid float value: 'fast'/],
  [['--header'], /argument --header: expected at least one argument/],
  [['--bogus'], /unrecognized arguments: --bogus/],
  [['--workers', '0'], /argument --workers: 0 is out of range: expected an integer ≥ 1/],
  [['--sim', '--model-path m', '--sim-time-scale', '0.5'], /argument --sim-time-scale: expected 'auto' or a number from 1 to 1000, got '0\.5'/],
  [['--sim', '--model-path m', '--sim-time-scale', 'fast'], /argument --sim-time-scale: expected 'auto' or a number from 1 to 1000, got 'fast'/],
  [['--sim-time-scale', '4'], /--sim-time-scale applies only to a simulated server started with --sim/],
];

describe('servebench bench command-line errors', () => {
  for (const [argv, message] of PARSE_ERRORS) {
    test(`${argv.join(' ')} → one line, exit 2`, async () => {
      const result = await runCli(['bench', ...argv]);
      assert.equal(result.code, 2);
      assert.equal(result.stdout, '');
      const lines = result.stderr.trimEnd().split('\n');
      assert.equal(lines.length, 1, result.stderr);
      assert.match(lines[0]!, /^servebench bench: error: /);
      assert.match(lines[0]!, message);
    });
  }

  test('a failed start-up check is one line with exit 1, after the Namespace line', async () => {
    const result = await runCli(['bench', '--backend', 'trt']);
    assert.equal(result.code, 1);
    assert.match(result.stdout, /^benchmark_args=Namespace\(backend='trt', /);
    assert.equal(result.stderr, 'servebench bench: error: Please provide a model using `--model` when using `trt` backend.\n');
  });

  test('secrets in the arguments never reach stdout or stderr', async () => {
    const secret = 'sk-LEAK';
    const result = await runCli([
      'bench', '--backend', 'trt', '--base-url', `http://admin:${secret}@127.0.0.1:9`, '--header', `Authorization=Bearer ${secret}`,
    ]);
    assert.equal(result.code, 1);
    assert.match(result.stdout, /base_url='http:\/\/admin:<redacted>@127\.0\.0\.1:9'/);
    assert.match(result.stdout, /header=\['Authorization=<redacted>'\]/);
    assert.equal(`${result.stdout}${result.stderr}`.includes(secret), false);
  });

  test('--help prints the options and exits 0', async () => {
    const result = await runCli(['bench', '--help']);
    assert.equal(result.code, 0);
    assert.match(result.stdout, /^usage: servebench bench/);
    assert.match(result.stdout, /--stream-idle-timeout SECONDS/);
    assert.equal(result.stderr, '');
  });
});
