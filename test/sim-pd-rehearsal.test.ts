/**
 * `servebench sim --prefill "<flags>" --decode "<flags>"`: a PD deployment from one command line (a
 * prefill sim, a decode sim, the router in front), and bench_serving through it.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { runCli } from './helpers/cli.js';

const BIN = fileURLToPath(new URL('../bin/servebench.js', import.meta.url));
const MODEL = 'Qwen/Qwen2.5-0.5B-Instruct';
const children: ChildProcess[] = [];
after(() => children.forEach((child) => child.kill('SIGKILL')));

test('one command starts a prefill and a decode sim behind the PD router, and bench runs through the router', async () => {
  const rehearsal = spawn(
    process.execPath,
    [BIN, 'sim', '--model-path', MODEL, '--hardware', 'h100', '--host', '127.0.0.1', '--port', '0', '--prefill', '--tp 1', '--decode', '--tp 1', '--router', '--policy round_robin'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.push(rehearsal);
  let printed = '';
  const url = await new Promise<string>((resolve, reject) => {
    rehearsal.stdout!.setEncoding('utf8').on('data', (text: string) => {
      printed += text;
      const match = /^servebench router listening on (http:\/\/\S+): PD, 1 prefill and 1 decode instances$/m.exec(printed);
      if (match) resolve(match[1]!);
    });
    rehearsal.once('exit', (code) => reject(new Error(`the rehearsal exited with ${code}: ${printed}`)));
  });
  assert.match(printed, /^servebench sim: prefill 1 on http:\/\/127\.0\.0\.1:\d+, bootstrap port \d+$/m);
  assert.match(printed, /^servebench sim: decode 1 on http:\/\/127\.0\.0\.1:\d+$/m);
  while ((await request(`${url}/readiness`)).statusCode !== 200) await sleep(50);

  const bench = await runCli(['bench', '--backend', 'sglang', '--base-url', url, '--model', MODEL, '--dataset-name', 'random', '--num-prompts', '8', '--random-input-len', '64', '--random-output-len', '8', '--random-range-ratio', '1']);
  assert.equal(bench.code, 0, bench.stderr);
  assert.match(bench.stdout, /Successful requests:\s+8/);
  // Every request streamed all its tokens from the decode side.
  assert.match(bench.stdout, /Total generated tokens:\s+64/);
  // The OpenAI routes go through prefill and decode alike.
  const chat = await runCli(['bench', '--backend', 'sglang-oai-chat', '--base-url', url, '--model', MODEL, '--dataset-name', 'random', '--num-prompts', '4', '--random-input-len', '64', '--random-output-len', '8', '--random-range-ratio', '1']);
  assert.equal(chat.code, 0, chat.stderr);
  assert.match(chat.stdout, /Total generated tokens:\s+32/);

  rehearsal.kill('SIGINT');
  const [code] = await once(rehearsal, 'exit');
  assert.equal(code, 0);
});

test('a rehearsal without a decode instance is one usage line naming the fix', async () => {
  const result = await runCli(['sim', '--model-path', MODEL, '--prefill', '--tp 1']);
  assert.equal(result.code, 2);
  assert.match(result.stderr, /a PD rehearsal needs at least one --prefill "<flags>" and one --decode "<flags>"/);
});

test('bench --sim with a prefill but no decode instance is one usage line naming its option', async () => {
  const result = await runCli(['bench', '--sim', `--model-path ${MODEL} --prefill "--tp 1"`, '--num-prompts', '1', '--no-catalog']);
  assert.equal(result.code, 2);
  assert.match(result.stderr, /^servebench bench: error: --sim: a PD rehearsal needs at least one --prefill "<flags>" and one --decode "<flags>"$/m);
});
