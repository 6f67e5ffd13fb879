import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTokenizer } from '../src/tokenizer/index.js';
import type { SimServerHandle } from '../src/sim/server/sim-server.js';
import { get, MODEL, post, startTruthSim } from './sim-server-helpers.js';

describe('sim: SGLang native API', () => {
  let sim: SimServerHandle;
  before(async () => {
    sim = await startTruthSim(['--truth-tokens-per-chunk', '3', '--served-model-name', 'served-qwen']);
  });
  after(() => sim.close());

  test('/generate streams cumulative text whose completion_tokens the client can trust', async () => {
    const prompt = 'The quick brown fox jumps over the lazy dog.';
    const reply = await post(sim.url, '/generate', { text: prompt, sampling_params: { max_new_tokens: 10, ignore_eos: true, temperature: 0 }, stream: true });
    assert.equal(reply.status, 200);
    assert.ok(reply.text.endsWith('data: [DONE]\n\n'));
    const counts = reply.events.map((e) => e.meta_info.completion_tokens);
    assert.deepEqual(counts, [3, 6, 9, 10]);
    for (let i = 1; i < reply.events.length; i++) assert.ok(reply.events[i].text.startsWith(reply.events[i - 1].text), 'text is cumulative');
    const last = reply.events.at(-1);
    assert.deepEqual(last.meta_info.finish_reason, { type: 'length', length: 10 });
    assert.deepEqual(last.meta_info.spec_verify_ct, 4);
    const tokenizer = await loadTokenizer({ model: MODEL });
    assert.equal(last.meta_info.prompt_tokens, (await tokenizer.encode(prompt)).length);
    assert.equal((await tokenizer.encode(last.text, false)).length, 10);
    assert.ok(last.meta_info.e2e_latency >= 0.005 + 3 * 0.002 - 1e-3);
  });

  test('/generate without stream answers one body; input_ids count as given', async () => {
    const reply = await post(sim.url, '/generate', { input_ids: [1, 2, 3, 4, 5], sampling_params: { max_new_tokens: 4, ignore_eos: true }, stream: false });
    assert.equal(reply.status, 200);
    assert.equal(reply.json.meta_info.prompt_tokens, 5);
    assert.equal(reply.json.meta_info.completion_tokens, 4);
    assert.equal(reply.json.output_ids.length, 4);
    assert.equal(typeof reply.json.text, 'string');
  });

  test('a batch (input_ids as a list of lists, text as a list) answers a list, or streams each prompt with its index', async () => {
    const plain = await post(sim.url, '/generate', { input_ids: [[1, 2, 3], [4, 5, 6, 7]], rid: ['b0', 'b1'], sampling_params: { max_new_tokens: 3, ignore_eos: true } });
    assert.equal(plain.status, 200);
    assert.deepEqual(plain.json.map((r: any) => [r.meta_info.id, r.meta_info.prompt_tokens, r.meta_info.completion_tokens]), [['b0', 3, 3], ['b1', 4, 3]]);
    const streamed = await post(sim.url, '/generate', { text: ['one', 'two words'], sampling_params: { max_new_tokens: 4, ignore_eos: true }, stream: true });
    assert.deepEqual(streamed.events.filter((e) => e.index === 1).map((e) => e.meta_info.completion_tokens), [3, 4]);
    assert.deepEqual(streamed.events.filter((e) => e.index === 0).map((e) => e.meta_info.completion_tokens), [3, 4]);
    assert.ok(streamed.text.endsWith('data: [DONE]\n\n'));
    const scalarRid = await post(sim.url, '/generate', { input_ids: [[1], [2]], rid: 'x' });
    assert.deepEqual([scalarRid.status, scalarRid.json.error.message], [400, 'The rid should be a list for batch processing.']);
  });

  test('without ignore_eos answers end early with finish stop, and stop strings cut the text', async () => {
    const lengths = [];
    for (let i = 0; i < 8; i++) {
      const reply = await post(sim.url, '/generate', { text: 'hi', sampling_params: { max_new_tokens: 40 } });
      lengths.push(reply.json.meta_info.completion_tokens);
      if (reply.json.meta_info.completion_tokens < 40) assert.equal(reply.json.meta_info.finish_reason.type, 'stop');
    }
    assert.ok(lengths.some((n) => n < 40), `lengths ${lengths}`);
  });

  test('server and model info, health, flush, profiler', async () => {
    const info = (await get(sim.url, '/get_server_info')).json;
    assert.equal(info.model_path, MODEL);
    assert.equal(info.served_model_name, 'served-qwen');
    assert.equal(info.tp_size, 1);
    assert.ok(Array.isArray(info.internal_states) && 'avg_spec_accept_length' in info.internal_states[0]);
    assert.deepEqual((await get(sim.url, '/server_info')).json.model_path, MODEL);
    assert.equal((await get(sim.url, '/get_model_info')).json.model_path, MODEL);
    assert.equal((await get(sim.url, '/v1/models')).json.data[0].id, 'served-qwen');
    assert.equal((await get(sim.url, '/health')).status, 200);
    assert.equal((await get(sim.url, '/health_generate')).status, 200);
    assert.equal((await post(sim.url, '/flush_cache', '')).status, 200);
    assert.equal((await post(sim.url, '/start_profile', { num_steps: null })).status, 200);
    assert.equal((await post(sim.url, '/stop_profile', {})).status, 200);
  });
});
