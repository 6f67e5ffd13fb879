import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseLaunchArgs } from '../../deployment/flags/launch-flags.js';
import type { Engine, SimRequest, TokenEmission } from '../types.js';
import { kvTransferSeconds } from '../model/kv-transfer.js';
import { resolveInstance } from '../model/resolve-instance.js';
import { createDisaggregatedEngine, createEngine } from './index.js';
import type { RankStep } from './rank-step.js';

const launch = (...args: string[]) => parseLaunchArgs(['--model-path', 'qwen2.5-0.5b', '--hardware', 'h100', ...args]).launch;

function request(id: string, promptTokens: number, outputTokens: number, arrivalTime = 0, promptTokenIds?: number[]): SimRequest {
  return { id, promptTokens, outputTokens, finishReason: 'length', arrivalTime, promptTokenIds };
}

/** Runs the engine until idle; returns every emission in time order. */
function drain(engine: Engine, horizon = 1e6): TokenEmission[] {
  const out: TokenEmission[] = [];
  for (let t = engine.nextEventTime(); t !== undefined && t <= horizon; t = engine.nextEventTime()) out.push(...engine.advanceTo(t));
  return out;
}

const byRequest = (emissions: TokenEmission[], id: string) => emissions.filter((e) => e.requestId === id);

describe('engine basics', () => {
  test('a request streams exactly its output tokens, then finishes with its reason', () => {
    const engine = createEngine(launch());
    engine.submit(request('a', 100, 5));
    const emitted = drain(engine);
    assert.equal(emitted.length, 5);
    assert.deepEqual(emitted.map((e) => e.completionTokens), [1, 2, 3, 4, 5]);
    assert.equal(emitted.at(-1)!.finished, true);
    assert.equal(emitted.at(-1)!.finishReason, 'length');
    for (let i = 1; i < emitted.length; i++) assert.ok(emitted[i]!.time > emitted[i - 1]!.time);
    assert.equal(engine.nextEventTime(), undefined);
    const stats = engine.stats();
    assert.deepEqual([stats.requestsFinished, stats.generationTokensTotal, stats.promptTokensTotal, stats.numRunning], [1, 5, 100, 0]);
    assert.equal(stats.avgSpecAcceptLength, null);
  });

  test('advanceTo only runs steps that end by the given time', () => {
    const engine = createEngine(launch());
    engine.submit(request('a', 100, 50));
    const first = engine.nextEventTime()!;
    assert.deepEqual(engine.advanceTo(first - 1e-9), []);
    // Advance in small slices until the first tokens appear: they must not bring the whole request.
    let partial = engine.advanceTo(first);
    for (let until = first; partial.length === 0 && until < first + 10; ) partial = engine.advanceTo((until += 0.005));
    assert.ok(partial.length > 0 && partial.length < 50);
    assert.equal(partial.length + drain(engine).length, 50);
  });

  test('without the overlap scheduler a token is visible when its step ends, not after the next host pass', () => {
    /** Seconds from each decode step's end to its token's emission. */
    const lags = (...args: string[]): number[] => {
      const ends: number[] = [];
      const engine = createEngine(launch(...args), { onRankStep: (step) => ends.push(step.time) });
      engine.submit(request('a', 100, 5));
      return drain(engine).map((e, i) => e.time - ends[i]!);
    };
    const overlapped = lags();
    const serial = lags('--disable-overlap-schedule');
    for (let i = 0; i < 5; i++) assert.ok(serial[i]! >= 0 && serial[i]! < overlapped[i]!, `token ${i + 1}`);
  });

  test('under the overlap scheduler a prefill launched next holds back the last step\'s tokens until it is queued', () => {
    /** b's first token, and the ends of the first two steps (b's prefill, then whatever ran next). */
    const run = (withNewcomer: boolean, ...flags: string[]) => {
      const ends: number[] = [];
      // A 32B model's eager prefill is host-bound for tens of milliseconds.
      const engine = createEngine(launch('--sim-model', 'qwen3-32b', '--tp', '2', ...flags), { onRankStep: (step) => ends.push(step.time) });
      engine.submit(request('b', 100, 3));
      // c reaches the scheduler while b's prefill runs, so its own prefill is the next step.
      if (withNewcomer) engine.submit(request('c', 100, 3, 0.01));
      const first = byRequest(drain(engine), 'b')[0]!.time;
      return { lag: first - ends[0]!, next: ends[1]! - ends[0]! };
    };
    const alone = run(false);
    const followed = run(true);
    // SGLang processes b's prefill result only after launching c's eager pass (host-bound here).
    assert.ok(followed.lag > 0.8 * followed.next, `b's first token waits for c's launch: ${followed.lag} of ${followed.next}`);
    assert.ok(alone.lag < 0.5 * followed.lag, `a decode step next is launched at once: ${alone.lag}`);
    // Speculative decoding turns the overlap loop off: results are processed before the next launch.
    const speculative = run(true, '--speculative-algorithm', 'EAGLE');
    assert.ok(speculative.lag < 0.5 * speculative.next, `no overlap loop under speculative decoding: ${speculative.lag} of ${speculative.next}`);
  });

  test('same seed, same emissions', () => {
    const run = () => {
      const engine = createEngine(launch('--speculative-algorithm', 'EAGLE', '--sim-model', 'qwen3-32b', '--tp', '2'), { seed: 7 });
      for (let i = 0; i < 20; i++) engine.submit(request(`r${i}`, 200 + i, 40, i * 0.01));
      return drain(engine).map((e) => `${e.requestId}:${e.tokens}:${e.time.toFixed(9)}`);
    };
    assert.deepEqual(run(), run());
  });
});

describe('scheduler rules', () => {
  test('max running requests holds the rest in the queue', () => {
    const engine = createEngine(launch('--max-running-requests', '4'));
    for (let i = 0; i < 10; i++) engine.submit(request(`r${i}`, 50, 20));
    engine.advanceTo(engine.nextEventTime()!);
    engine.advanceTo(engine.nextEventTime()!);
    const stats = engine.stats();
    assert.equal(stats.numRunning, 4);
    assert.equal(stats.numWaiting, 6);
    assert.equal(drain(engine).filter((e) => e.finished).length, 10);
  });

  test('queueing time runs from entering the waiting queue to the first prefill batch, once per request', () => {
    const engine = createEngine(launch('--max-running-requests', '2'));
    for (let i = 0; i < 6; i++) engine.submit(request(`r${i}`, 50, 10));
    const emitted = drain(engine);
    const firsts = Array.from({ length: 6 }, (_, i) => byRequest(emitted, `r${i}`)[0]!);
    // The first two go into the first batch after the front end hands them over; the rest wait for a slot.
    assert.ok(firsts.every((e) => e.queueTime !== undefined && e.queueTime >= 0));
    const [a, b, c] = firsts.map((e) => e.queueTime!);
    assert.ok(a! < 0.001 && b! < 0.001, `admitted at once: ${a}, ${b}`);
    assert.ok(c! > 0.005, `waited for a slot: ${c}`);
    // Every later chunk of a request carries the same figure.
    assert.ok(byRequest(emitted, 'r4').every((e) => e.queueTime === firsts[4]!.queueTime));
    const stats = engine.stats();
    assert.equal(stats.queuedRequests, 6);
    assert.ok(Math.abs(stats.queueTimeSum - firsts.reduce((sum, e) => sum + e.queueTime!, 0)) < 1e-12);
  });

  test('a prompt longer than the chunk is prefilled over several steps, its first token after the last chunk', () => {
    const chunked = createEngine(launch('--chunked-prefill-size', '1024'));
    chunked.submit(request('long', 5000, 2));
    const emitted = drain(chunked);
    assert.equal(emitted.length, 2);
    // 5 extend steps + 1 decode step.
    assert.equal(chunked.stats().stepCount, 6);
    const whole = createEngine(launch());
    whole.submit(request('long', 5000, 2));
    drain(whole);
    assert.equal(whole.stats().stepCount, 2);
  });

  /** Largest gap between request a's chunks when b (a long prompt) arrives mid-decode. */
  function largestGapWithNewcomer(...flags: string[]): { largest: number; typical: number; finish: number } {
    const engine = createEngine(launch(...flags));
    engine.submit(request('a', 100, 60));
    const early = drain(engine, 0.03);
    engine.submit(request('b', 4000, 5, 0.03));
    const a = byRequest([...early, ...drain(engine)], 'a');
    const gaps = a.slice(1).map((e, i) => e.time - a[i]!.time).sort((x, y) => x - y);
    return { largest: gaps.at(-1)!, typical: gaps[Math.floor(gaps.length / 2)]!, finish: a.at(-1)!.time };
  }

  test('prefill has priority: a newcomer stalls running decodes for one extend step', () => {
    const { largest, typical } = largestGapWithNewcomer();
    assert.ok(largest > 1.5 * typical, 'one decode gap includes the extend step');
  });

  test('--enable-mixed-chunk lets decodes ride along the extend step', () => {
    // The running request decodes during the newcomer's extend step instead of waiting it out, so it
    // finishes about one decode step sooner (its token still waits for the eager launch, as in SGLang).
    const separate = largestGapWithNewcomer();
    const mixed = largestGapWithNewcomer('--enable-mixed-chunk');
    assert.ok(mixed.finish < separate.finish - 0.5 * separate.typical);
  });

  test('the radix cache serves a repeated prompt; --disable-radix-cache does not', () => {
    const ids = Array.from({ length: 300 }, (_, i) => i + 10);
    for (const [flags, expected] of [[[], 299], [['--disable-radix-cache'], 0]] as const) {
      const engine = createEngine(launch(...flags));
      engine.submit(request('first', 300, 3, 0, ids));
      drain(engine);
      engine.submit(request('second', 300, 3, 1, ids));
      const second = drain(engine);
      assert.equal(second[0]!.cachedTokens, expected);
      assert.equal(engine.stats().cachedTokensTotal, expected);
    }
  });

  test('running out of KV retracts requests, which later finish all the same', () => {
    const engine = createEngine(launch('--max-total-tokens', '3000'));
    for (let i = 0; i < 8; i++) engine.submit(request(`r${i}`, 200, 300));
    const emitted = drain(engine);
    assert.equal(emitted.filter((e) => e.finished).length, 8);
    for (let i = 0; i < 8; i++) assert.equal(byRequest(emitted, `r${i}`).at(-1)!.completionTokens, 300);
    assert.ok(engine.stats().kvUsage <= 1);
  });

  test('abort frees the slot and KV at once; flush_cache refuses while requests run', () => {
    const engine = createEngine(launch());
    engine.submit(request('a', 1000, 1000));
    engine.advanceTo(engine.nextEventTime()!);
    assert.ok(engine.stats().kvUsage > 0);
    assert.equal(engine.flushCache(), false);
    engine.abort('a', engine.nextEventTime()!);
    drain(engine);
    const stats = engine.stats();
    assert.deepEqual([stats.numRunning, stats.numWaiting, stats.kvUsage], [0, 0, 0]);
    assert.equal(engine.flushCache(), true);
  });

  test('DP attention spreads requests over the ranks round-robin and steps them together', () => {
    const dp = createEngine(
      parseLaunchArgs(['--model-path', 'deepseek-ai/DeepSeek-V3', '--hardware', 'h200', '--tp', '8', '--dp', '4', '--enable-dp-attention', '--ep', '8']).launch,
    );
    for (let i = 0; i < 8; i++) dp.submit(request(`r${i}`, 500, 10));
    const emitted = drain(dp);
    assert.equal(emitted.filter((e) => e.finished).length, 8);
    // All ranks prefill in the same extend step: every first token comes from one step.
    const firstTokens = emitted.filter((e) => e.completionTokens === 1).map((e) => e.time);
    assert.ok(Math.max(...firstTokens) - Math.min(...firstTokens) < 0.001);
  });

  test('--dp without DP attention runs independent replicas', () => {
    const engine = createEngine(launch('--dp', '2', '--sim-model', 'qwen2.5-7b'));
    for (let i = 0; i < 4; i++) engine.submit(request(`r${i}`, 100, 10));
    assert.equal(drain(engine).filter((e) => e.finished).length, 4);
    assert.equal(engine.stats().kvCapacityTokens, 2 * engine.deployment.kvCapacityPerRank);
  });
});

describe('speculative decoding', () => {
  const spec = () =>
    createEngine(
      parseLaunchArgs([
        '--model-path', 'deepseek-ai/DeepSeek-V3.2-Exp', '--hardware', 'b200', '--tp', '8', '--speculative-algorithm', 'EAGLE',
        '--speculative-num-steps', '3', '--speculative-num-draft-tokens', '4',
      ]).launch,
      { seed: 1, acceptLength: 2.9 },
    );

  test('chunks carry several tokens; the accept length is accepted tokens per verify pass', () => {
    const engine = spec();
    for (let i = 0; i < 16; i++) engine.submit(request(`r${i}`, 300, 400));
    const emitted = drain(engine);
    const decodeChunks = emitted.filter((e) => e.specVerifyCount > 0);
    assert.ok(decodeChunks.some((e) => e.tokens > 1) && decodeChunks.every((e) => e.tokens <= 4));
    const accept = engine.stats().avgSpecAcceptLength!;
    assert.ok(Math.abs(accept - 2.9) < 0.25, String(accept));
    const last = emitted.filter((e) => e.finished);
    assert.ok(last.every((e) => e.completionTokens === 400));
    assert.equal(engine.flushCache(), true);
    assert.equal(engine.stats().avgSpecAcceptLength, 0);
  });

  test('on the A3 stack a seeded 6% of requests accept almost nothing; a given accept length sets the whole workload', () => {
    const engine = createEngine(
      parseLaunchArgs([
        '--model-path', 'DeepSeek-V3.2-Exp-W8A8', '--hardware', 'ascend-910c', '--quantization', 'modelslim', '--tp', '16', '--dp', '4',
        '--enable-dp-attention', '--moe-a2a-backend', 'deepep', '--speculative-algorithm', 'NEXTN', '--speculative-num-steps', '3',
        '--speculative-num-draft-tokens', '4',
      ]).launch,
      { seed: 1, acceptLength: 2.67 },
    );
    for (let i = 0; i < 50; i++) engine.submit(request(`r${i}`, 100, 300));
    const emitted = drain(engine);
    const slow = Array.from({ length: 50 }, (_, i) => byRequest(emitted, `r${i}`).at(-1)!).filter((e) => 300 / e.specVerifyCount < 1.2);
    assert.equal(slow.length, 3);
    const accept = engine.stats().avgSpecAcceptLength!;
    assert.ok(Math.abs(accept - 2.67) < 0.15, String(accept));
  });
});

describe('PD disaggregation', () => {
  const instance = (role: string) =>
    parseLaunchArgs(['--model-path', 'qwen3-32b', '--hardware', 'h100', '--tp', '2', '--disaggregation-mode', role]).launch;

  test('prefill instances hand KV to decode instances, which stream every token after the transfer', () => {
    const engine = createDisaggregatedEngine([instance('prefill')], [instance('decode')]);
    for (let i = 0; i < 6; i++) engine.submit(request(`r${i}`, 4000, 20, i * 0.001));
    const emitted = drain(engine);
    assert.equal(emitted.filter((e) => e.finished).length, 6);
    for (let i = 0; i < 6; i++) {
      const chunks = byRequest(emitted, `r${i}`);
      assert.deepEqual(chunks.map((e) => e.completionTokens), Array.from({ length: 20 }, (_, k) => k + 1));
    }
    const transfer = kvTransferSeconds(resolveInstance(instance('prefill')), resolveInstance(instance('decode')), 4000);
    assert.ok(emitted[0]!.time > transfer, 'the first token waits for prefill plus the KV transfer');
    const stats = engine.stats();
    assert.deepEqual([stats.requestsFinished, stats.generationTokensTotal, stats.numRunning, stats.kvUsage], [6, 120, 0, 0]);
  });

  test('a lone prefill instance serves whole requests (its server asks for one token)', () => {
    const engine = createEngine(instance('prefill'));
    engine.submit(request('a', 100, 5));
    assert.equal(drain(engine).filter((e) => e.finished).length, 1);
  });

  test("a lone decode instance starts each request at its KV's arrival with the prefill's token, and holds its KV in the pool", () => {
    const engine = createEngine(instance('decode'));
    engine.submit({ ...request('a', 4000, 5), kvArrivalTime: 0.25 });
    engine.submit({ ...request('b', 300, 1), kvArrivalTime: 0.1 });
    const first = engine.advanceTo(0.25);
    assert.deepEqual(first.map((e) => [e.requestId, e.completionTokens, e.finished]), [['b', 1, true], ['a', 1, false]]);
    assert.ok(first[1]!.time >= 0.25, 'nothing of a request before its KV arrived');
    assert.ok(engine.stats().kvUsage * engine.stats().kvCapacityTokens >= 4000, 'its prompt occupies the KV pool, no prefill ran');
    const rest = drain(engine);
    assert.deepEqual(rest.map((e) => e.completionTokens), [2, 3, 4, 5]);
    const stats = engine.stats();
    assert.deepEqual([stats.requestsFinished, stats.generationTokensTotal, stats.numRunning], [2, 6, 0]);
  });
});

describe('rank steps (what the scheduler log reports)', () => {
  /** Runs `submit` on an engine that records its rank steps; returns them in order. */
  function recorded(args: string[], submit: (engine: Engine) => void, options: { seed?: number; acceptLength?: number } = {}): RankStep[] {
    const steps: RankStep[] = [];
    const engine = createEngine(launch(...args), { ...options, onRankStep: (step) => steps.push(step) });
    submit(engine);
    drain(engine);
    return steps;
  }

  test('one request: a prefill step of its prompt, then one decode step per further token', () => {
    const steps = recorded([], (engine) => engine.submit(request('a', 100, 5)));
    assert.equal(steps.length, 5);
    assert.deepEqual(steps[0]!.prefill, { requests: 1, newTokens: 100, cachedTokens: 0, running: 0, queued: 0, kvTokens: 0 });
    assert.equal(steps[0]!.decode, null);
    assert.equal(steps[0]!.cudaGraph, false);
    for (const step of steps.slice(1)) {
      assert.equal(step.prefill, null);
      assert.deepEqual([step.decode!.requests, step.decode!.tokens, step.decode!.verifies, step.decode!.queued], [1, 1, 0, 0]);
      assert.equal(step.cudaGraph, true);
      assert.equal(step.kvCapacity, steps[0]!.kvCapacity);
    }
    // A decode step writes its input token's KV: the prompt plus one slot per decode step so far; the last step frees it all.
    assert.deepEqual(steps.slice(1).map((s) => s.decode!.kvTokens), [101, 102, 103, 0]);
    for (let i = 1; i < steps.length; i++) assert.ok(steps[i]!.time > steps[i - 1]!.time);
  });

  test('a repeated prompt is counted as cached; requests behind a full batch as queued', () => {
    const ids = Array.from({ length: 300 }, (_, i) => i + 10);
    const steps = recorded([], (engine) => {
      engine.submit(request('first', 300, 3, 0, ids));
      drain(engine);
      engine.submit(request('second', 300, 3, 1, ids));
    });
    const prefills = steps.filter((s) => s.prefill !== null).map((s) => s.prefill!);
    assert.deepEqual(prefills.map((p) => [p.newTokens, p.cachedTokens]), [[300, 0], [1, 299]]);
    const queued = recorded(['--max-running-requests', '2'], (engine) => {
      for (let i = 0; i < 4; i++) engine.submit(request(`r${i}`, 50, 4));
    });
    assert.deepEqual([queued[0]!.prefill!.requests, queued[0]!.prefill!.queued], [2, 2]);
  });

  test('DP attention reports each rank; speculative decoding its verify passes', () => {
    const dpSteps: RankStep[] = [];
    const dp = createEngine(
      parseLaunchArgs(['--model-path', 'deepseek-ai/DeepSeek-V3', '--hardware', 'h200', '--tp', '8', '--dp', '4', '--enable-dp-attention', '--ep', '8']).launch,
      { onRankStep: (step) => dpSteps.push(step) },
    );
    for (let i = 0; i < 8; i++) dp.submit(request(`r${i}`, 500, 10));
    drain(dp);
    assert.deepEqual([...new Set(dpSteps.map((s) => s.rank))].sort(), [0, 1, 2, 3]);
    assert.ok(dpSteps.every((s) => s.instance === 0));
    const specSteps = recorded(['--sim-model', 'qwen3-32b', '--tp', '2', '--speculative-algorithm', 'EAGLE'], (engine) => engine.submit(request('a', 100, 200)), { seed: 1 });
    const decodes = specSteps.filter((s) => s.decode !== null).map((s) => s.decode!);
    assert.ok(decodes.every((d) => d.verifies === d.requests && d.tokens >= d.verifies));
    assert.equal(decodes.reduce((sum, d) => sum + d.tokens, 0), 199);
  });

  test('an engine without an observer records nothing (bench and predict pay nothing for the log)', () => {
    const engine = createEngine(launch());
    engine.submit(request('a', 100, 3));
    assert.equal(drain(engine).length, 3);
  });
});
