/**
 * A PD recipe of SGLang's Ascend page (DeepSeek-R1 W4A8, PD disaggregation on 2 × Atlas 800I A3:
 * its prefill, decode and router lines as published, with loopback addresses and free ports) runs
 * unchanged as two `servebench sim` processes and `servebench router`, and `servebench bench`
 * through the router records a `simulated` run whose recipe is that PD deployment: the router's
 * /get_server_info is its own counters, as SGLang's is, so bench reads each worker's own body
 * through the router's /workers. `servebench eval` through it reads them the same way.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { pythonJsonLoads } from '../src/core/pyjson.js';
import { runCli } from './helpers/cli.js';
import { spawnSim } from './helpers/sim-process.js';

const BIN = fileURLToPath(new URL('../bin/servebench.js', import.meta.url));
/** The page's ${MODEL_PATH}: the W4A8 weights it links to (offline, the bundled DeepSeek-R1 config serves them). */
const MODEL_PATH = 'Modelers_Park/DeepSeek-R1-0528-w4a8';

/** The page's prefill line after `python -m sglang.launch_server`; its host and ports set by the test. */
const PREFILL = (host: string, port: string, bootstrapPort: string): string[] =>
  (
    `--model-path ${MODEL_PATH} --host ${host} --port ${port} --disaggregation-mode prefill --disaggregation-bootstrap-port ${bootstrapPort} ` +
    '--disaggregation-transfer-backend ascend --trust-remote-code --nnodes 1 --node-rank 0 --tp-size 16 --mem-fraction-static 0.6 ' +
    '--attention-backend ascend --device npu --quantization modelslim --load-balance-method round_robin --max-running-requests 8 ' +
    '--context-length 8192 --disable-radix-cache --chunked-prefill-size -1 --max-prefill-tokens 28680 --moe-a2a-backend deepep ' +
    '--deepep-mode normal --speculative-algorithm NEXTN --speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4 ' +
    '--dp-size 2 --enable-dp-attention --disable-shared-experts-fusion --dtype bfloat16'
  ).split(' ');

/** The page's decode line. */
const DECODE = (host: string, port: string): string[] =>
  (
    `--model-path ${MODEL_PATH} --disaggregation-mode decode --host ${host} --port ${port} --trust-remote-code --nnodes 1 --node-rank 0 ` +
    '--tp-size 16 --dp-size 16 --mem-fraction-static 0.8 --max-running-requests 352 --attention-backend ascend --device npu ' +
    '--quantization modelslim --prefill-round-robin-balance --moe-a2a-backend deepep --enable-dp-attention --deepep-mode low_latency ' +
    '--enable-dp-lm-head --cuda-graph-bs 8 10 12 14 16 18 20 22 --disaggregation-transfer-backend ascend --watchdog-timeout 9000 ' +
    '--context-length 8192 --speculative-algorithm NEXTN --speculative-num-steps 3 --speculative-eagle-topk 1 ' +
    '--speculative-num-draft-tokens 4 --disable-shared-experts-fusion --dtype bfloat16 --tokenizer-worker-num 4'
  ).split(' ');

/** The page's router line, as pasted after `servebench router`. */
const ROUTER = (prefillUrl: string, bootstrapPort: string, decodeUrl: string, host: string, port: string): string[] =>
  `python -m sglang_router.launch_router --pd-disaggregation --policy cache_aware --prefill ${prefillUrl} ${bootstrapPort} --decode ${decodeUrl} --host ${host} --port ${port}`.split(' ');

const dir = mkdtempSync(join(tmpdir(), 'servebench-ascend-pd-'));
const children: ChildProcess[] = [];
after(() => {
  children.forEach((child) => child.kill('SIGKILL'));
  rmSync(dir, { recursive: true, force: true });
});

/** The router's address once it listens. */
async function startRouter(args: string[]): Promise<string> {
  const router = spawn(process.execPath, [BIN, 'router', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(router);
  let printed = '';
  return new Promise<string>((resolve, reject) => {
    router.stdout!.setEncoding('utf8').on('data', (text: string) => {
      printed += text;
      const match = /listening on (http:\/\/\S+):/.exec(printed);
      if (match) resolve(match[1]!);
    });
    router.once('exit', (code) => reject(new Error(`the router exited with ${code}: ${printed}`)));
  });
}

test('the Ascend page\'s DeepSeek-R1 PD recipe runs unchanged, and its bench and eval runs are recorded as a simulated PD deployment', async () => {
  const hardware = ['--hardware', 'ascend-910c'];
  const prefill = await spawnSim([...PREFILL('127.0.0.1', '0', '0'), ...hardware]);
  children.push(prefill.child);
  const bootstrapPort = /^PD prefill: bootstrap server on 127\.0\.0\.1:(\d+)$/m.exec(prefill.output())?.[1];
  assert.ok(bootstrapPort, prefill.output());
  const decode = await spawnSim([...DECODE('127.0.0.1', '0'), ...hardware]);
  children.push(decode.child);
  for (const sim of [prefill, decode]) assert.match(sim.output(), /simulated: DeepSeek-V3\/R1 w4a8 on 16 × Huawei Ascend 910C/);

  const router = await startRouter(ROUTER(prefill.url, bootstrapPort, decode.url, '127.0.0.1', '0'));
  while ((await request(`${router}/readiness`)).statusCode !== 200) await sleep(50);

  const db = join(dir, 'catalog.db');
  const output = join(dir, 'run.jsonl');
  const port = new URL(router).port;
  const bench = await runCli([
    'bench', '--backend', 'sglang', '--host', '127.0.0.1', '--port', port, '--dataset-name', 'random', '--random-input-len', '64',
    '--random-output-len', '8', '--random-range-ratio', '1', '--num-prompts', '4', '--disable-tqdm', '--output-file', output, '--db', db,
  ]);
  assert.equal(bench.code, 0, bench.stderr);
  assert.match(bench.stdout, /Successful requests:\s+4/);
  const id = /Run ([0-9a-f]{12}) recorded in /.exec(bench.stdout + bench.stderr)?.[1];
  assert.ok(id, bench.stdout);

  // The record keeps the router's own body as bench_serving does, and the workers' beside it.
  const record = pythonJsonLoads(readFileSync(output, 'utf8').trim().split('\n').at(-1)!) as { server_info: unknown; servebench: { router_workers_server_info: Record<string, Array<{ disaggregation_mode: string }>> } };
  assert.deepEqual(record.server_info, { router_manager: true, routers_count: 1, workers_count: 2 });
  const workers = record.servebench.router_workers_server_info;
  assert.deepEqual([workers.prefill!.map((body) => body.disaggregation_mode), workers.decode!.map((body) => body.disaggregation_mode), workers.regular], [['prefill'], ['decode'], []]);

  const shown = await runCli(['show', id, '--db', db]);
  assert.equal(shown.code, 0, shown.stderr);
  assert.match(shown.stdout, /^ {2}mode: {8}simulated$/m);
  assert.match(shown.stdout, /^ {2}hardware: {4}ascend-910c \(Huawei Ascend 910C, one of two dies \(Atlas 800I A3\), reported by the server\)$/m);
  // 2 × Atlas 800I A3: 16 dies each side, 8 cards per node.
  assert.match(shown.stdout, /^ {2}cards: {7}16 \(recipe: prefill 16 \+ decode 16 dies = 16 ascend-910c cards \(2 dies per card\)\)$/m);
  assert.match(shown.stdout, /^ {2}deploy mode: PD separation$/m);
  assert.match(shown.stdout, /^ {2}prefill \(servebench-sim [\d.]+\): .*\btpSize=16 dpSize=2 .*\bmaxRunningRequests=8\b/m);
  assert.match(shown.stdout, /^ {2}decode \(servebench-sim [\d.]+\): .*\btpSize=16 dpSize=16 .*\bmaxRunningRequests=352\b/m);

  const simulated = await runCli(['runs', '--mode', 'simulated', '--db', db]);
  assert.match(simulated.stdout, new RegExp(`^${id}`, 'm'));

  // eval through the same router knows the sims behind it, and keeps its run beside the bench run.
  const questions = join(dir, 'gsm8k.jsonl');
  writeFileSync(questions, `${JSON.stringify({ question: 'Q1: 2 plus 2?', answer: '#### 4' })}\n${JSON.stringify({ question: 'Q2: 3 plus 3?', answer: '#### 6' })}\n`);
  const evaluated = await runCli([
    'eval', 'gsm8k', '--data-path', questions, '--num-shots', '1', '--max-new-tokens', '8', '--host', '127.0.0.1', '--port', port, '--db', db, '--output-file', join(dir, 'answers.jsonl'),
  ]);
  assert.equal(evaluated.code, 0, evaluated.stderr);
  assert.match(evaluated.stdout, /^The server is servebench sim: it answers with synthetic text/m);
  const runs = JSON.parse((await runCli(['runs', '--mode', 'simulated', '--db', db, '--json'])).stdout) as Array<{ id: string; metrics: Record<string, unknown> }>;
  const evalRun = runs.find((run) => run.id !== id);
  assert.equal(evalRun?.metrics.answers, 'synthetic');
  const evalShown = await runCli(['show', evalRun!.id, '--db', db]);
  assert.match(evalShown.stdout, /^ {2}deploy mode: PD separation$/m);
  assert.match(evalShown.stdout, /^ {2}cards: {7}16 \(recipe: prefill 16 \+ decode 16 dies = 16 ascend-910c cards \(2 dies per card\)\)$/m);
});
