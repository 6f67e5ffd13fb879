/**
 * The self-check never understates: a client whose event loop is blocked (a busy-wait) while
 * streams are in flight, against a truth-mode sim serving from its own thread (it keeps writing
 * while the client is stuck). The verdict must name the requests the stall delayed and a bound of
 * at least the stall, and every request's measured error (its stamps against the sim's own write
 * times, on the shared clock) must lie within the bound the verdict gives it.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { parseBenchArgs } from '../src/bench/args/parse.js';
import { resolveRunConfig } from '../src/bench/run-config.js';
import { createExecutor } from '../src/bench/runner/executor.js';
import { judgeClient, requestBoundsOf } from '../src/bench/selfcheck/verdict.js';
import { nowSeconds } from '../src/bench/transport/clock.js';
import { HttpPool } from '../src/bench/transport/http-pool.js';
import type { RequestOutput } from '../src/bench/types.js';
import { threadClockOffsetMs, toSharedSeconds } from '../src/bench/workers/clock.js';
import { startThreadHealthMonitor } from '../src/bench/workers/thread-health.js';
import { startEmbeddedSim, type SimThreadHandle } from '../src/sim/index.js';

const MODEL = 'Qwen/Qwen3-8B';
const STALL_MS = 80;
/** The truth is stamped right before the sim's write system call and read after the kernel delivered it. */
const DELIVERY_SLACK_MS = 2;

let sim: SimThreadHandle;
before(async () => {
  sim = await startEmbeddedSim(['--model-path', MODEL, '--truth-ttft-ms', '20', '--truth-itl-ms', '5']);
});
after(() => sim.close());

function busyWait(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // Deliberately blocks the event loop while the sim keeps writing.
  }
}

/** Receive times (shared clock, ms) of a successful output's token events. */
function receivedMs(output: RequestOutput, offsetMs: number): number[] {
  let at = toSharedSeconds(output.startTime + output.ttft, offsetMs) * 1000;
  const times = [at];
  for (const gap of output.itl) times.push((at += gap * 1000));
  return times;
}

test('a client stalled while streams are in flight: the verdict names the delayed requests and a bound that holds for each', async () => {
  const apiUrl = `${sim.url}/generate`;
  const { request } = resolveRunConfig(parseBenchArgs([]));
  const pool = new HttpPool({ streamIdleTimeout: 30 });
  const executor = createExecutor({
    backend: 'sglang', request, pool, apiUrl, modelId: MODEL, headers: { withAuth: {}, withoutAuth: {} }, multiTurn: false, startAt: 'write', print: () => {},
  });
  const send = (rid: string, tokens: number): Promise<RequestOutput[]> => {
    const input = executor.inputFor({ prompt: 'Tell me a story.', promptLen: 5, outputLen: tokens, textPromptLen: 5, visionPromptLen: 0, imageData: null, extraRequestBody: {} }, null, { rid });
    return executor.execute(executor.prepare(input), { queueTime: 0, dueAt: nowSeconds() });
  };
  try {
    const health = startThreadHealthMonitor();
    // Twelve short requests end before the stall; four long ones are mid-stream when it comes.
    const short = await Promise.all(Array.from({ length: 12 }, (_, i) => send(`short-${i}`, 3)));
    const long = Array.from({ length: 4 }, (_, i) => send(`long-${i}`, 40));
    await new Promise((resolve) => setTimeout(resolve, 60));
    busyWait(STALL_MS);
    const outputs = [...short, ...(await Promise.all(long))].flat();
    const verdict = judgeClient([health.stop()], requestBoundsOf(outputs));

    assert.ok(outputs.every((output) => output.success));
    assert.equal(verdict.requestsTimed, 16);
    // Every long request carries the stall in its bound, and the verdict's worst bound is at least the stall.
    const longBounds = outputs.slice(12).map((output) => output.stampLatenessBound! * 1000);
    assert.ok(longBounds.every((bound) => bound >= STALL_MS), `long requests' bounds ${longBounds.join(', ')} ms`);
    assert.ok(verdict.worstRequestBoundMs >= STALL_MS, verdict.line);
    // The short ones ended before it: normally calm, so the verdict names the four apart (a busy
    // machine can stall the short ones too, and then they are named with it).
    if (verdict.requestsOverBound > 0) {
      assert.match(verdict.line, /for \d+ of 16 requests; \d+ read a token or the end after a loop stall and may be off by up to \d+\.\d\d ms/);
      assert.ok(verdict.requestsOverBound >= 4, verdict.line);
    } else {
      assert.match(verdict.line, /timing error <= \d+\.\d\d ms for every request/);
    }

    const truth = ((await (await fetch(`${sim.url}/sim/truth`)).json()) as { requests: Record<string, { actualMs: number[] }> }).requests;
    const offsetMs = threadClockOffsetMs();
    const rids = [...Array.from({ length: 12 }, (_, i) => `short-${i}`), ...Array.from({ length: 4 }, (_, i) => `long-${i}`)];
    let worstError = 0;
    outputs.forEach((output, i) => {
      const written = truth[rids[i]!]!.actualMs;
      const received = receivedMs(output, offsetMs);
      assert.equal(received.length, written.length);
      const error = Math.max(...received.map((at, k) => at - written[k]!));
      worstError = Math.max(worstError, error);
      const ownBound = output.stampLatenessBound! * 1000;
      // What the verdict states for this request: the calm bound, or the stalled requests' one.
      const stated = ownBound <= verdict.timingErrorBoundMs ? verdict.timingErrorBoundMs : verdict.worstRequestBoundMs;
      assert.ok(error <= ownBound + DELIVERY_SLACK_MS, `${rids[i]}: error ${error} ms, its bound ${ownBound} ms`);
      assert.ok(error <= stated + DELIVERY_SLACK_MS, `${rids[i]}: error ${error} ms, stated ${stated} ms`);
    });
    assert.ok(worstError >= STALL_MS / 2, `the stall did delay reads (worst error ${worstError} ms)`);
  } finally {
    await pool.close();
  }
});
