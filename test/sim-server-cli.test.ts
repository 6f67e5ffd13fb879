import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync } from 'node:fs';
import { threadSchedulingPolicy } from '../src/core/thread-scheduling.js';
import { runCli } from './helpers/cli.js';
import { spawnSim } from './helpers/sim-process.js';
import { post } from './sim-server-helpers.js';

describe('servebench sim as a process', () => {
  const children: ChildProcessWithoutNullStreams[] = [];
  after(() => children.forEach((child) => child.kill('SIGKILL')));

  test('a pasted launch command starts, prints its address, deployment and ignored flags, serves, and stops on SIGTERM', async () => {
    const sim = await spawnSim([
      'python3', '-m', 'sglang.launch_server', '--model-path', 'Qwen/Qwen2.5-0.5B-Instruct', '--port', '0', '--host', '127.0.0.1',
      '--trust-remote-code', '--attention-backend', 'fa3', '--api-key', 'sk-very-secret', '--enable-metrics',
    ]);
    children.push(sim.child);
    const printed = sim.output();
    assert.match(printed, /simulated: Qwen2\.5-0\.5B bf16 on 1 × .*H100/);
    assert.match(printed, /^ignored flags \(no effect on the simulation\): --trust-remote-code --attention-backend --api-key$/m);
    assert.ok(!printed.includes('sk-very-secret'));
    const reply = await post(sim.url, '/generate', { text: 'hello', sampling_params: { max_new_tokens: 8, ignore_eos: true }, stream: true });
    assert.equal(reply.status, 200);
    assert.equal(reply.events.at(-1).meta_info.completion_tokens, 8);
    const info = await post(sim.url, '/get_server_info', '');
    assert.ok(!info.text.includes('sk-very-secret'));
    sim.child.kill('SIGTERM');
    const [code] = await once(sim.child, 'exit');
    assert.equal(code, 0);
  });

  test('--sim-realtime puts the serving thread under SCHED_FIFO where permitted, and says which it got', async () => {
    const sim = await spawnSim(['--model-path', 'Qwen/Qwen2.5-0.5B-Instruct', '--port', '0', '--sim-realtime']);
    children.push(sim.child);
    const note = /^--sim-realtime: the event-loop thread (runs under SCHED_FIFO|keeps normal priority: .+)$/m.exec(sim.output());
    assert.ok(note, `no --sim-realtime line in:\n${sim.output()}`);
    const policies = readdirSync(`/proc/${sim.child.pid}/task`).map((tid) => threadSchedulingPolicy(sim.child.pid!, Number(tid)));
    const fifoThreads = policies.filter((policy) => policy === 'SCHED_FIFO').length;
    assert.equal(fifoThreads, note[1] === 'runs under SCHED_FIFO' ? 1 : 0);
    const reply = await post(sim.url, '/generate', { text: 'hello', sampling_params: { max_new_tokens: 4, ignore_eos: true }, stream: true });
    assert.equal(reply.events.at(-1).meta_info.completion_tokens, 4);
    sim.child.kill('SIGTERM');
    const [code] = await once(sim.child, 'exit');
    assert.equal(code, 0);
  });

  test('a flag that is neither SGLang nor sim exits 2 with one line naming it', async () => {
    const result = await runCli(['sim', '--model-path', 'Qwen/Qwen3-8B', '--not-a-flag', '1']);
    assert.equal(result.code, 2);
    assert.equal(result.stderr.trim().split('\n').length, 1);
    assert.match(result.stderr, /--not-a-flag/);
  });
});
