/**
 * Every numeric flag of every command is bounded: a value outside its range ends the real CLI
 * with one stderr line naming the flag, the value and the allowed range, exit 2, no stack trace,
 * before anything starts (no server contacted, no catalog opened, no sim listening).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { runCli } from './helpers/cli.js';

/** A port nothing listens on: a command that got past its checks would fail differently here. */
const NOWHERE = 'http://127.0.0.1:9';
const BENCH = ['bench', '--base-url', NOWHERE, '--model', 'm', '--dataset-name', 'random'];
const SIM = ['sim', '--model-path', 'Qwen/Qwen2.5-0.5B-Instruct'];
const PREDICT = ['predict', '--model-path', 'Qwen/Qwen2.5-0.5B-Instruct', '--'];
const SWEEP = ['sweep', '--slo', 'tpot=20ms', '--search', 'concurrency'];
const DB = ['--db', '/nonexistent/servebench-test.db'];

/** Command line, the flag and value it ends with, and the range the message must state. */
const OUT_OF_RANGE: Array<[string[], string, string, string]> = [
  [BENCH, '--max-concurrency', '-1', 'an integer ≥ 0 (0: no limit)'],
  [BENCH, '--request-rate', '0', 'a number > 0, or inf (inf: all at once)'],
  [BENCH, '--request-rate', '-1', 'a number > 0, or inf (inf: all at once)'],
  [BENCH, '--random-range-ratio', '-1', 'a number from 0 to 1'],
  [BENCH, '--num-prompts', '-5', 'an integer ≥ 1'],
  [BENCH, '--random-input-len', '0', 'an integer ≥ 1'],
  [BENCH, '--port', '65536', 'an integer from 1 to 65535'],
  [BENCH, '--seed', '-1', 'an integer from 0 to 4294967295'],
  [BENCH, '--warmup-requests', '-3', 'an integer ≥ 0'],
  [BENCH, '--workers', '0', 'an integer ≥ 1'],
  [BENCH, '--stream-idle-timeout', '-1', 'a number > 0 and ≤ 2147483'],
  [BENCH, '--stream-idle-timeout', '1e9', 'a number > 0 and ≤ 2147483'],
  [SIM, '--port', '-1', 'an integer from 0 to 65535 (0: any free port)'],
  [SIM, '--tp', '0', 'an integer ≥ 1'],
  [SIM, '--mem-fraction-static', '2', 'a number > 0 and ≤ 1'],
  [PREDICT, '--max-concurrency', '-1', 'an integer ≥ 0 (0: no limit)'],
  [PREDICT, '--request-rate', '0', 'a number > 0, or inf (inf: all at once)'],
  [SWEEP, '--max-load', '0', 'an integer ≥ 1'],
  [['sweep', '--concurrency', '1', '--prompts-per-load'], '--prompts-per-load', '-4', 'a number > 0'],
  [['runs', ...DB, '--limit'], '--limit', '-1', 'an integer ≥ 1'],
  [['plot', ...DB, 'RUN', '--out', 'x.svg', '--width'], '--width', '10', 'an integer from 200 to 8000'],
  [['dashboard', ...DB, '--port'], '--port', '70000', 'an integer from 0 to 65535 (0: any free port)'],
];

describe('numeric flags outside their range', { concurrency: 2 }, () => {
  for (const [prefix, flag, value, range] of OUT_OF_RANGE) {
    // A trailing flag in `prefix` takes the value itself; otherwise the pair is appended.
    const argv = prefix.at(-1) === flag ? [...prefix, value] : [...prefix, flag, value];
    const command = argv[0]!;
    test(`${command} ${flag} ${value} → one line naming the flag, the value and the range; exit 2`, async () => {
      const result = await runCli(argv);
      assert.equal(result.code, 2, result.stderr);
      const lines = result.stderr.trimEnd().split('\n');
      assert.equal(lines.length, 1, result.stderr);
      assert.ok(
        lines[0]!.startsWith(`servebench ${command}: error: argument ${flag}: ${value} is out of range: expected ${range}`),
        lines[0],
      );
      assert.doesNotMatch(result.stdout, /listening on|Starting/);
    });
  }
});
