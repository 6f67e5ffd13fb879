/**
 * `--workers` against a real truth-mode sim on loopback: requests sent from worker threads come
 * back complete, in the caller's order, stamped on the main thread's clock (checked against the
 * server's own write times on the shared hrtime clock); conversations and Ctrl-C aborts work from
 * a worker; and each worker's self-check sees its own loop and its own CPU.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { judgeClient, type LoopHealthSample } from '../src/bench/selfcheck/verdict.js';
import { nowSeconds } from '../src/bench/transport/clock.js';
import type { RequestInput, RequestOutput } from '../src/bench/types.js';
import { threadClockOffsetMs, toSharedSeconds } from '../src/bench/workers/clock.js';
import { LoadWorkers } from '../src/bench/workers/load-workers.js';
import type { LoadWorkerConfig } from '../src/bench/workers/messages.js';
import { threadCpuClock } from '../src/bench/workers/thread-cpu.js';
import { startThreadHealthMonitor } from '../src/bench/workers/thread-health.js';
import { startSimServer } from '../src/sim/server/sim-server.js';
import { parseBenchArgs } from '../src/bench/args/parse.js';
import { resolveRunConfig } from '../src/bench/run-config.js';
import type { BackendName } from '../src/bench/args/types.js';

const MODEL = 'Qwen/Qwen3-8B';

function config(backend: BackendName, apiUrl: string, multiTurn = false): LoadWorkerConfig {
  const { request, streamIdleTimeout, realtime } = resolveRunConfig(parseBenchArgs(['--backend', backend, '--stream-idle-timeout', '30']));
  return { backend, request, streamIdleTimeout, realtime, keepPrepared: false, apiUrl, modelId: MODEL, headers: { withAuth: {}, withoutAuth: {} }, multiTurn, startAt: 'write' };
}

/** Prepares `request` on the next worker and sends it at once. */
function send(workers: LoadWorkers, request: RequestInput, queueTime: number): Promise<RequestOutput[]> {
  return workers.execute(workers.prepare(request), { queueTime, dueAt: nowSeconds() });
}

function input(apiUrl: string, outputLen: number, extra: Record<string, unknown> = {}): RequestInput {
  return { prompt: 'Tell me a story.', apiUrl, promptLen: 5, outputLen, model: MODEL, loraName: null, imageData: null, extraRequestBody: extra };
}

interface TruthRecord {
  arrivalMs: number;
  actualMs: number[];
}

describe('load workers against a truth-mode sim', () => {
  let sim: Awaited<ReturnType<typeof startSimServer>>;
  before(async () => {
    sim = await startSimServer(['--model-path', MODEL, '--truth-ttft-ms', '20', '--truth-itl-ms', '4'], { port: 0, host: '127.0.0.1', quiet: true });
  });
  after(async () => {
    await sim.close();
  });

  test('records come back whole, in call order, on the main clock, never before the server wrote', async () => {
    const workers = await LoadWorkers.start(2, config('sglang', `${sim.url}/generate`), () => {});
    const sentFrom = nowSeconds();
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => send(workers, input(`${sim.url}/generate`, 3 + i, { rid: `merge-${i}` }), 0.25)),
    );
    const sentUntil = nowSeconds();
    const samples = await workers.endMeasuring();
    await workers.close();
    const truth = (await (await fetch(`${sim.url}/sim/truth`)).json()) as { requests: Record<string, TruthRecord> };
    const offsetMs = threadClockOffsetMs();

    results.forEach(([output], i) => {
      assert.equal(output!.success, true, output!.error);
      assert.equal(output!.outputLen, 3 + i, 'each reply belongs to its own call');
      assert.equal(output!.itl.length, 3 + i - 1);
      assert.equal(output!.queueTime, 0.25);
      assert.ok(output!.startTime >= sentFrom && output!.startTime <= sentUntil, 'startTime is on the main thread clock');
      // Causality across threads and the shared clock: each token is received after its write.
      const record = truth.requests[`merge-${i}`]!;
      let receivedMs = toSharedSeconds(output!.startTime + output!.ttft, offsetMs) * 1000;
      assert.ok(receivedMs >= record.actualMs[0]!, `first token received ${receivedMs} before written ${record.actualMs[0]}`);
      assert.ok(toSharedSeconds(output!.startTime, offsetMs) * 1000 <= record.arrivalMs, 'sent before the server saw it');
      output!.itl.forEach((gap, k) => {
        receivedMs += gap * 1000;
        assert.ok(receivedMs >= record.actualMs[k + 1]! - 1e-6, `token ${k + 1} received before written`);
      });
    });
    assert.equal(samples.length, 2, 'each worker reports its own loop');
    for (const sample of samples) assert.ok(sample.wallSeconds > 0 && sample.cpuSeconds >= 0);
  });

  test('a worker runs a whole conversation and a Ctrl-C abort reaches requests in flight', async () => {
    const chatUrl = `${sim.url}/v1/chat/completions`;
    const conversations = await LoadWorkers.start(2, config('sglang-oai-chat', chatUrl, true), () => {});
    const turns = await send(conversations, { ...input(chatUrl, 4), prompt: ['Hi.', 'And then?'] }, 0.5);
    assert.deepEqual(turns.map((turn) => [turn.success, turn.outputLen, turn.queueTime]), [[true, 4, 0.5], [true, 4, 0]]);
    await conversations.close();

    const workers = await LoadWorkers.start(2, config('sglang-oai-chat', chatUrl), () => {});
    const long = send(workers, input(chatUrl, 5000), 0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(workers.inFlight, 1);
    workers.abortAll('aborted: interrupted by Ctrl-C');
    const [aborted] = await long;
    assert.equal(aborted!.success, false);
    assert.equal(aborted!.failureCause, 'aborted');
    await workers.close();
  });

  test('the self-check covers workers that sent something, or every worker once measuring started, once per measured phase', async () => {
    const url = `${sim.url}/generate`;
    const idle = await LoadWorkers.start(3, config('sglang', url), () => {});
    await send(idle, input(url, 2), 0);
    assert.equal((await idle.endMeasuring()).length, 1, 'two workers never sent: nothing to judge');
    await idle.close();

    const measured = await LoadWorkers.start(3, config('sglang', url), () => {});
    await send(measured, input(url, 2), 0);
    measured.startMeasuring();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const samples = await measured.endMeasuring();
    measured.startMeasuring();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const again = await measured.endMeasuring();
    await measured.close();
    assert.equal(samples.length, 3);
    for (const sample of samples) assert.ok(sample.wallSeconds > 0 && sample.wallSeconds < 5, `window ${sample.wallSeconds} s`);
    assert.equal(again.length, 3, 'a repeated run has samples of its own');
  });

  test('a repeated run sends each prepared request again (keepPrepared), once per run', async () => {
    const url = `${sim.url}/generate`;
    const workers = await LoadWorkers.start(2, { ...config('sglang', url), keepPrepared: true }, () => {});
    const ticket = workers.prepare(input(url, 3));
    for (let run = 0; run < 2; run++) {
      const [output] = await workers.execute(ticket, { queueTime: 0, dueAt: nowSeconds() });
      assert.equal(output!.success, true, output!.error);
      assert.equal(output!.outputLen, 3);
    }
    await workers.close();
  });
});

test('workers left unclosed by a failed run do not keep the process alive', async () => {
  const loader = JSON.stringify(new URL('../src/bench/workers/load-workers.ts', import.meta.url).href);
  const parser = JSON.stringify(new URL('../src/bench/args/parse.ts', import.meta.url).href);
  const resolver = JSON.stringify(new URL('../src/bench/run-config.ts', import.meta.url).href);
  const script = `const { LoadWorkers } = await import(${loader});
    const { parseBenchArgs } = await import(${parser});
    const { resolveRunConfig } = await import(${resolver});
    const { backend, request, streamIdleTimeout, realtime } = resolveRunConfig(parseBenchArgs([]));
    const config = { backend, request, streamIdleTimeout, realtime, apiUrl: 'http://127.0.0.1:9/generate', modelId: 'm', headers: { withAuth: {}, withoutAuth: {} }, multiTurn: false };
    await LoadWorkers.start(2, config, () => {});
    console.log('started');`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const [code, signal] = (await once(child, 'exit')) as [number | null, string | null];
  clearTimeout(timer);
  assert.equal(signal, null, 'the process hung on its idle workers');
  assert.equal(code, 0);
  assert.equal(stdout.trim(), 'started');
});

/** Runs `body` in a worker thread with the thread-health monitor and resolves with its sample. */
function sampleInWorker(body: string): Promise<LoopHealthSample> {
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const health = JSON.stringify(new URL('../src/bench/workers/thread-health.ts', import.meta.url).href);
  const code = `
    const { parentPort } = require('node:worker_threads');
    import(${tsx}).then(async (api) => {
      api.register();
      const { startThreadHealthMonitor } = await import(${health});
      const monitor = startThreadHealthMonitor();
      const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
      const busyWait = (ms) => { const end = performance.now() + ms; while (performance.now() < end) {} };
      ${body}
      parentPort.postMessage(monitor.stop());
    });`;
  return new Promise((resolve, reject) => {
    const worker = new Worker(code, { eval: true });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

describe('self-check with worker threads', () => {
  test('a blocked worker loop makes the whole run saturated while the main loop is calm', async () => {
    const main = startThreadHealthMonitor();
    const blocked = await sampleInWorker('for (let i = 0; i < 6; i++) { busyWait(60); await sleep(2); }');
    const verdict = judgeClient([main.stop(), blocked]);
    assert.equal(verdict.saturated, true);
    assert.ok(verdict.worstStallMs >= 50, `worst stall ${verdict.worstStallMs}`);
    assert.match(verdict.line, /^WARNING client saturated: .*busiest of 2 loops/);
  });

  test("a calm worker is not blamed for the main thread's CPU", async () => {
    const main = startThreadHealthMonitor();
    const calm = sampleInWorker('await sleep(400);');
    const mainCpu = threadCpuClock();
    const until = mainCpu() + 0.25;
    while (mainCpu() < until) {
      // The main thread burns CPU while the worker sleeps.
    }
    const worker = await calm;
    const mainSample = main.stop();
    assert.ok(mainSample.cpuSeconds >= 0.2, `main thread CPU ${mainSample.cpuSeconds}`);
    assert.ok(worker.cpuSeconds < 0.15, `worker thread CPU ${worker.cpuSeconds}`);
    assert.equal(judgeClient([worker]).saturated, false);
  });
});
