/**
 * Every bench_serving command line of the published reference logs is accepted by
 * `servebench bench` and completes against the loopback server. Only appended flags change the
 * run (a later flag overrides an earlier one, as in argparse): the server address, the result
 * file, smaller prompt counts and lengths so the suite stays fast, and a small local ShareGPT
 * file standing in for the one bench_serving would download (the cookbook runs use sharegpt).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli } from './helpers/cli.js';
import { referenceCommands } from './helpers/reference-commands.js';
import { startStreamServer, type StreamServer } from './helpers/stream-server.js';

const commands = referenceCommands();
const workDir = mkdtempSync(join(tmpdir(), 'servebench-refcmd-'));

/** A ShareGPT-format file of short two-turn conversations. */
function writeShareGpt(path: string): void {
  const conversations = Array.from({ length: 16 }, (_, i) => ({
    id: `c${i}`,
    conversations: [
      { from: 'human', value: `Please explain topic number ${i} in a few short sentences.` },
      { from: 'gpt', value: `Topic ${i} is short and simple.` },
    ],
  }));
  writeFileSync(path, JSON.stringify(conversations));
}

describe('reference log command lines', () => {
  const shareGptPath = join(workDir, 'sharegpt.json');
  let server: StreamServer;
  before(async () => {
    server = await startStreamServer({ firstTokenDelayMs: 1, intervalMs: 1 });
    writeShareGpt(shareGptPath);
  });
  after(async () => {
    await server.close();
    rmSync(workDir, { recursive: true, force: true });
  });

  test('the logs yield the known commands', () => {
    // Four written out in the cookbook log, one rebuilt from each Namespace-only log.
    assert.equal(commands.length, 7);
    for (const command of commands) {
      assert.ok(command.args.includes('--model'), command.source);
      for (const dropped of command.droppedKeys) assert.match(dropped, /=(False|None)$/, `${command.source}: ${dropped}`);
    }
  });

  for (const command of commands) {
    test(command.source, async () => {
      const file = join(workDir, `${command.source.replace(/[^\w.-]/g, '_')}.jsonl`);
      const appended = [
        '--base-url', server.url, '--output-file', file, '--disable-tqdm',
        '--num-prompts', '4', '--random-input-len', '32', '--random-output-len', '4',
      ];
      if (!command.args.includes('--dataset-name')) appended.push('--dataset-path', shareGptPath);
      const result = await runCli(['bench', ...command.args, ...appended]);
      assert.equal(result.code, 0, `${command.args.join(' ')}\n${result.stderr}`);
      assert.match(result.stdout, /^benchmark_args=Namespace\(/);
      assert.match(result.stdout, /Successful requests: +4 /);
      const record = JSON.parse(readFileSync(file, 'utf8').trim().replace(/\bInfinity\b/g, '1e999')) as Record<string, unknown>;
      assert.equal(record.completed, 4);
    });
  }
});
