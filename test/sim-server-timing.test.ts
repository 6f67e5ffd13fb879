import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import type { SimServerHandle } from '../src/sim/server/sim-server.js';
import { get, MODEL, post, startTruthSim } from './sim-server-helpers.js';

const hrNowMs = (): number => Number(process.hrtime.bigint()) / 1e6;

describe('sim: truth mode, metrics and disconnects', () => {
  let sim: SimServerHandle;
  before(async () => {
    sim = await startTruthSim(['--enable-metrics']);
  });
  after(() => sim.close());

  test('GET /sim/truth records each chunk on the shared clock: scheduled at arrival + ttft + k·itl, written then', async () => {
    await request(`${sim.url}/sim/truth`, { method: 'DELETE' }).then((r) => r.body.text());
    const sent = hrNowMs();
    const reply = await post(sim.url, '/generate', { text: 'hi', sampling_params: { max_new_tokens: 6, ignore_eos: true }, stream: true });
    const received = hrNowMs();
    const id = reply.events[0].meta_info.id as string;
    const truth = (await get(sim.url, '/sim/truth')).json;
    assert.equal(truth.clock, 'process.hrtime');
    const record = truth.requests[id];
    assert.ok(record.arrivalMs >= sent && record.arrivalMs <= received);
    assert.equal(record.scheduledMs.length, 6);
    record.scheduledMs.forEach((scheduled: number, k: number) => assert.ok(Math.abs(scheduled - (record.arrivalMs + 5 + 2 * k)) < 1e-6));
    record.actualMs.forEach((actual: number, k: number) => {
      assert.ok(actual >= record.scheduledMs[k] - 1e-6, `chunk ${k} written ${actual - record.scheduledMs[k]} ms before its schedule`);
      assert.ok(actual <= received);
    });
    assert.deepEqual(record.tokens, [1, 1, 1, 1, 1, 1]);
  });

  test('/metrics exposes SGLang metric names with the counts of the requests served', async () => {
    await post(sim.url, '/v1/completions', { model: MODEL, prompt: 'hello there', max_tokens: 3, ignore_eos: true });
    const text = (await get(sim.url, '/metrics')).text;
    for (const name of [
      'sglang:num_running_reqs',
      'sglang:num_queue_reqs',
      'sglang:token_usage',
      'sglang:cache_hit_rate',
      'sglang:spec_accept_length',
      'sglang:gen_throughput',
      'sglang:time_to_first_token_seconds_bucket',
      'sglang:inter_token_latency_seconds_count',
      'sglang:time_per_output_token_seconds_sum',
      'sglang:e2e_request_latency_seconds_count',
    ]) {
      assert.ok(text.includes(`${name}{model_name="${MODEL}"`), `missing ${name}`);
    }
    const value = (name: string): number => Number(new RegExp(`^${name}\\{[^}]*\\} (\\S+)$`, 'm').exec(text)![1]);
    assert.ok(value('sglang:generation_tokens_total') >= 9);
    assert.ok(value('sglang:prompt_tokens_total') >= 2);
    assert.ok(value('sglang:num_requests_total') >= 2);
    assert.match(text, /^# TYPE sglang:time_to_first_token_seconds histogram$/m);
    assert.match(text, /^sglang:time_to_first_token_seconds_bucket\{model_name="[^"]+",le="\+Inf"\} \d+$/m);
  });

  test('a client that disconnects frees its slot at once', async () => {
    const controller = new AbortController();
    const response = await request(`${sim.url}/generate`, {
      method: 'POST',
      body: JSON.stringify({ text: 'hi', sampling_params: { max_new_tokens: 30000, ignore_eos: true }, stream: true }),
      signal: controller.signal,
    });
    const body = response.body;
    await new Promise<void>((resolve) => body.once('data', () => resolve()));
    const running = async (): Promise<number> => (await get(sim.url, '/get_server_info')).json.internal_states[0].num_running_reqs;
    assert.equal(await running(), 1);
    controller.abort();
    body.on('error', () => {});
    const deadline = Date.now() + 2000;
    while ((await running()) !== 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    assert.equal(await running(), 0);
    const metrics = (await get(sim.url, '/metrics')).text;
    assert.match(metrics, /^sglang:num_aborted_requests_total\{[^}]*\} 1\.0$/m);
  });
});

describe('sim: truth mode on shared steps', () => {
  let sim: SimServerHandle;
  before(async () => {
    sim = await startTruthSim(['--truth-shared-steps']);
  });
  after(() => sim.close());

  test('every request is written on one step clock, the first chunk at least ttft after arrival', async () => {
    const body = { text: 'hi', sampling_params: { max_new_tokens: 4, ignore_eos: true }, stream: true };
    const first = await post(sim.url, '/generate', body);
    await new Promise((resolve) => setTimeout(resolve, 3));
    const second = await post(sim.url, '/generate', body);
    const truth = (await get(sim.url, '/sim/truth')).json.requests;
    const [a, b] = [first, second].map((reply) => truth[reply.events[0].meta_info.id as string]);
    const origin = a.scheduledMs[0] as number;
    for (const record of [a, b]) {
      assert.ok(record.scheduledMs[0] >= record.arrivalMs + 5 - 1e-6);
      assert.ok(record.scheduledMs[0] < record.arrivalMs + 5 + 2);
      for (const [k, scheduled] of (record.scheduledMs as number[]).entries()) {
        const steps = (scheduled - origin) / 2;
        assert.ok(Math.abs(steps - Math.round(steps)) < 1e-6, `chunk ${k} at ${scheduled - origin} ms from the first step, off the 2 ms step clock`);
        assert.ok(record.actualMs[k] >= scheduled - 1e-6);
      }
    }
  });
});
