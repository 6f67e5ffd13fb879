/**
 * `--hardware-spec FILE.json` end to end (the built CLI as a child process): a device that is not in
 * the catalog, described by a file, is predicted on and searched over; a slower device predicts a
 * higher TPOT; a bad file ends the command with one line and no stack trace.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { runCli } from './helpers/cli.js';

const workDir = mkdtempSync(join(tmpdir(), 'servebench-hardware-spec-'));
after(() => rmSync(workDir, { recursive: true, force: true }));

function specFile(name: string, text: string): string {
  const file = join(workDir, name);
  writeFileSync(file, text);
  return file;
}

const FAST = specFile('fast.json', JSON.stringify({ name: 'Fast GPU', family: 'nvidia', bf16Tflops: 989, fp8Tflops: 1979, hbmGB: 80, hbmTBs: 3.35, scaleUpGBs: 450 }));
const SLOW = specFile('slow.json', JSON.stringify({ name: 'Slow GPU', family: 'nvidia', bf16Tflops: 150, hbmGB: 48, hbmTBs: 0.8, scaleUpGBs: 32 }));

const MODEL = ['--model-path', 'Qwen/Qwen2.5-7B-Instruct'];
const WORKLOAD = ['--dataset-name', 'random', '--random-input-len', '64', '--random-output-len', '16', '--num-prompts', '8'];

function meanTpot(stdout: string): number {
  const match = /^Mean TPOT \(ms\):\s+(\S+)/m.exec(stdout);
  assert.ok(match, `no Mean TPOT line in:\n${stdout}`);
  return Number(match[1]);
}

describe('predict on a device described by --hardware-spec', () => {
  test('prints a result block; the slower device predicts the higher TPOT', async () => {
    const [fast, slow] = await Promise.all([
      runCli(['predict', ...MODEL, '--hardware-spec', FAST, '--', ...WORKLOAD]),
      runCli(['predict', ...MODEL, '--hardware-spec', SLOW, '--', ...WORKLOAD]),
    ]);
    assert.equal(fast.code, 0, fast.stderr);
    assert.equal(slow.code, 0, slow.stderr);
    assert.match(fast.stdout, /^servebench predict: Qwen2\.5-7B on 1 x fast-gpu: PD mixed; virtual time, no server contacted$/m);
    assert.match(slow.stdout, /^============ Serving Benchmark Result ============$/m);
    assert.ok(meanTpot(slow.stdout) > 2 * meanTpot(fast.stdout), `slow ${meanTpot(slow.stdout)} ms vs fast ${meanTpot(fast.stdout)} ms`);
  });

  test('a configuration search runs on the described device', async () => {
    const result = await runCli([
      'sweep', '--search-configs', ...MODEL, '--hardware-spec', SLOW, '--devices', '1', '--no-pd', '--top', '1',
      '--', '--dataset-name', 'random', '--random-input-len', '256', '--random-output-len', '64', '--random-range-ratio', '1',
    ]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^servebench sweep --search-configs: Qwen2\.5-7B on 1 x slow-gpu, /m);
    assert.match(result.stdout, /^#1 .+ output tok\/s per card/m);
  });

  const BAD_FIELD = specFile('bad.json', JSON.stringify({ name: 'Bad', family: 'nvidia', bf16Tflops: 150, hbmGB: 48, hbmTBs: 'fast', scaleUpGBs: 32 }));
  const NOT_JSON = specFile('not-json.json', '{ "name": "Half\n');
  for (const [label, command, file, pattern] of [
    ['a bad field', 'predict', BAD_FIELD, /bad\.json: 'hbmTBs' must be a positive number of TB\/s, got "fast"$/],
    ['not JSON', 'predict', NOT_JSON, /not-json\.json: not valid JSON \(.+\): write one object with the fields of a hardware\.json entry$/],
    ['a missing file', 'predict', join(workDir, 'missing.json'), /--hardware-spec .*missing\.json: cannot read the file \(ENOENT\)/],
    ['a bad field, served', 'sim', BAD_FIELD, /bad\.json: 'hbmTBs' must be a positive number/],
  ] as const) {
    test(`${command} with ${label} exits 2 with one line`, async () => {
      const args = command === 'predict' ? ['predict', ...MODEL, '--hardware-spec', file, '--', ...WORKLOAD] : ['sim', ...MODEL, '--hardware-spec', file, '--port', '0'];
      const result = await runCli(args);
      assert.equal(result.code, 2, result.stderr);
      const lines = result.stderr.trim().split('\n');
      assert.equal(lines.length, 1, result.stderr);
      assert.match(lines[0] as string, new RegExp(`^servebench ${command}: error: `));
      assert.match(lines[0] as string, pattern);
    });
  }
});
