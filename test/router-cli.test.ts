/** `servebench router` as a process: pasted launch_router flags in front of two real sims, a bench through it. */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { runCli } from './helpers/cli.js';
import { spawnSim } from './helpers/sim-process.js';

const BIN = fileURLToPath(new URL('../bin/servebench.js', import.meta.url));
const MODEL = 'Qwen/Qwen2.5-0.5B-Instruct';
const children: ChildProcess[] = [];
after(() => children.forEach((child) => child.kill('SIGKILL')));

test('a pasted launch_router line routes round robin over two sims, and bench runs through it', async () => {
  const sims = await Promise.all([0, 1].map(() => spawnSim(['--model-path', MODEL, '--port', '0', '--host', '127.0.0.1'])));
  children.push(...sims.map((sim) => sim.child));
  const routerProcess = spawn(process.execPath, [BIN, 'router', 'python', '-m', 'sglang_router.launch_router', '--worker-urls', sims[0]!.url, sims[1]!.url, '--policy', 'round_robin', '--host', '127.0.0.1', '--port', '0', '--log-level', 'warn'], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(routerProcess);
  let printed = '';
  const url = await new Promise<string>((resolve, reject) => {
    routerProcess.stdout!.setEncoding('utf8').on('data', (text: string) => {
      printed += text;
      const match = /listening on (http:\/\/\S+):/.exec(printed);
      if (match && printed.includes('ignored flags')) resolve(match[1]!);
    });
    routerProcess.once('exit', (code) => reject(new Error(`router exited with ${code}: ${printed}`)));
  });
  assert.match(printed, /^ignored flags \(no effect here\): --log-level$/m);
  while ((await request(`${url}/readiness`)).statusCode !== 200) await sleep(50);

  const bench = await runCli(['bench', '--backend', 'sglang', '--base-url', url, '--model', MODEL, '--dataset-name', 'random', '--num-prompts', '8', '--random-input-len', '16', '--random-output-len', '4']);
  assert.equal(bench.code, 0, bench.stderr);
  assert.match(bench.stdout, /Successful requests:\s+8/);

  const metrics = await (await request(`${url}/metrics`)).body.text();
  for (const sim of sims) {
    const chosen = Number(new RegExp(`^smg_worker_selection_total\\{worker_type="regular",policy="round_robin",worker="${sim.url}"\\} (\\d+)$`, 'm').exec(metrics)?.[1]);
    assert.ok(chosen >= 4, `${sim.url} got ${chosen} requests:\n${metrics}`);
  }
  routerProcess.kill('SIGTERM');
  const [code] = await once(routerProcess, 'exit');
  assert.equal(code, 0);
});

test('a PD line without a decode exits 2 with one line naming the fix', async () => {
  const result = await runCli(['router', '--pd-disaggregation', '--prefill', 'http://127.0.0.1:1', '8998']);
  assert.equal(result.code, 2);
  assert.equal(result.stderr, 'servebench router: error: --pd-disaggregation needs at least one --prefill URL [BOOTSTRAP_PORT] and one --decode URL\n');
});
