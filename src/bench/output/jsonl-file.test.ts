import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError, UserError } from '../../core/errors.js';
import { pyFloat } from '../../core/pyformat.js';
import { parseBenchArgs } from '../args/parse.js';
import { resolveRunConfig } from '../run-config.js';

const resolve = (argv: string[]) => resolveRunConfig(parseBenchArgs(argv));
import { appendJsonl, checkOutputFile, defaultOutputFileName } from './jsonl-file.js';

const march7 = new Date(2026, 2, 7, 23, 59);

describe('defaultOutputFileName', () => {
  test('random datasets name their lengths', () => {
    const args = resolve(['--dataset-name', 'random-ids', '--num-prompts', '200', '--random-input', '64', '--random-output', '16']);
    assert.equal(defaultOutputFileName(args, march7), 'sglang_0307_200_64_16.jsonl');
  });
  test('the image dataset adds count and resolution', () => {
    const args = resolve(['--dataset-name', 'image', '--backend', 'sglang-oai-chat', '--image-count', '2', '--image-resolution', '720p']);
    assert.equal(defaultOutputFileName(args, march7), 'sglang-oai-chat_0307_1000_1024_1024_2imgs_720p.jsonl');
  });
  test('other datasets use their name', () => {
    assert.equal(defaultOutputFileName(resolve(['--backend', 'vllm']), new Date(2026, 10, 21)), 'vllm_1121_1000_sharegpt.jsonl');
  });
});

describe('appendJsonl', () => {
  const dir = mkdtempSync(join(tmpdir(), 'servebench-jsonl-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('appends one json.dumps line per call', () => {
    const path = join(dir, 'out.jsonl');
    appendJsonl(path, { a: 1, b: pyFloat(2) });
    appendJsonl(path, { c: 'é' });
    assert.equal(readFileSync(path, 'utf8'), '{"a": 1, "b": 2.0}\n{"c": "\\u00e9"}\n');
  });
  test('an unwritable path is a one-line UserError naming the file', () => {
    const path = join(dir, 'missing', 'out.jsonl');
    assert.throws(() => appendJsonl(path, {}), (error: unknown) => {
      assert.ok(error instanceof UserError);
      assert.ok(error.message.includes(path));
      assert.ok(!error.message.includes('\n'));
      return true;
    });
  });
});

describe('checkOutputFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'servebench-output-check-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  function refusal(path: string): string {
    try {
      checkOutputFile(path);
    } catch (error) {
      assert.ok(error instanceof UsageError, String(error));
      assert.ok(!error.message.includes('\n'), error.message);
      return error.message;
    }
    assert.fail(`expected ${path} to be refused`);
  }

  test('a new file in an existing folder passes and is not left behind', () => {
    const path = join(dir, 'new.jsonl');
    checkOutputFile(path);
    assert.equal(existsSync(path), false);
  });
  test('an existing file passes untouched', () => {
    const path = join(dir, 'old.jsonl');
    writeFileSync(path, '{"a": 1}\n');
    checkOutputFile(path);
    assert.equal(readFileSync(path, 'utf8'), '{"a": 1}\n');
  });
  test('a missing folder, a directory and a file standing in for a folder are refused with the fix', () => {
    assert.equal(
      refusal(join(dir, 'missing', 'out.jsonl')),
      `cannot write the results to ${join(dir, 'missing', 'out.jsonl')}: the folder ${join(dir, 'missing')} does not exist; create it (mkdir -p ${join(dir, 'missing')}) or pass --output-file in an existing folder`,
    );
    assert.equal(refusal(dir), `cannot write the results to ${dir}: it is a directory; pass a file path such as --output-file ${join(dir, 'results.jsonl')}`);
    const file = join(dir, 'plain');
    writeFileSync(file, '');
    assert.match(refusal(join(file, 'out.jsonl')), /: \S+plain is not a folder; pass --output-file in an existing folder$/);
  });
});
