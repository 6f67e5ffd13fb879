/**
 * The sim's TensorRT-LLM (`/v2/models/ensemble/generate_stream`) and Truss (`/v1/models/model:predict`)
 * routes: the bytes bench_serving's `trt` and `truss` backends send and parse (spec §2.5, §2.6).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import { loadTokenizer } from '../src/tokenizer/index.js';
import type { SimServerHandle } from '../src/sim/server/sim-server.js';
import { TRT_STREAM_PATH, TRUSS_PREDICT_PATH } from '../src/sim/server/route-trt-truss.js';
import { get, MODEL, post, startTruthSim } from './sim-server-helpers.js';

/** bench's trt payload for `max_tokens` (without `--disable-ignore-eos`). */
function trtBody(prompt: string, maxTokens: number): Record<string, unknown> {
  return { accumulate_tokens: true, text_input: prompt, temperature: 0.000001, top_p: 1.0, max_tokens: maxTokens, stream: true, min_length: maxTokens, end_id: 1048576 };
}

/** bench's truss payload. */
function trussBody(prompt: string, maxTokens: number, stream = true): Record<string, unknown> {
  return { model: MODEL, prompt, temperature: 0.0, best_of: 1, max_tokens: maxTokens, stream, ignore_eos: true };
}

describe('sim: TensorRT-LLM generate_stream', () => {
  let sim: SimServerHandle;
  before(async () => {
    sim = await startTruthSim(['--context-length', '256']);
  });
  after(() => sim.close());

  test('streams one `data:` line per token with that token\'s own text, and no [DONE]', async () => {
    const reply = await post(sim.url, TRT_STREAM_PATH, trtBody('The quick brown fox', 12));
    assert.equal(reply.status, 200);
    assert.ok(reply.text.startsWith('data:{'), reply.text.slice(0, 40));
    assert.ok(!reply.text.includes('[DONE]'));
    assert.equal(reply.events.length, 12);
    for (const event of reply.events) {
      assert.equal(event.model_name, 'ensemble');
      assert.ok(event.text_output !== '', 'every token has text');
    }
    // Appended as bench appends them, the pieces retokenize to exactly the tokens sent.
    const text = reply.events.map((e) => e.text_output).join('');
    const tokenizer = await loadTokenizer({ model: MODEL });
    assert.equal((await tokenizer.encode(text, false)).length, 12);
  });

  test('without min_length and end_id (--disable-ignore-eos) EOS may end answers early', async () => {
    const lengths: number[] = [];
    for (let i = 0; i < 6; i++) {
      const { min_length: _min, end_id: _end, ...body } = trtBody('hi', 40);
      lengths.push((await post(sim.url, TRT_STREAM_PATH, body)).events.length);
    }
    assert.ok(lengths.every((n) => n >= 1 && n <= 40), `lengths ${lengths}`);
    assert.ok(lengths.some((n) => n < 40), `lengths ${lengths}`);
  });

  test('an end_id outside the vocabulary alone runs the answer to max_tokens', async () => {
    for (let i = 0; i < 4; i++) {
      const { min_length: _min, ...body } = trtBody('hi', 20);
      assert.equal((await post(sim.url, TRT_STREAM_PATH, body)).events.length, 20);
    }
  });

  test('stream false answers one JSON object with the whole text; stop_words cut it', async () => {
    const whole = await post(sim.url, TRT_STREAM_PATH, { ...trtBody('hi', 8), stream: false });
    assert.equal(whole.status, 200);
    assert.equal(typeof whole.json.text_output, 'string');
    // Thirty words all but surely hold an 'e': the answer stops on it, before the limit.
    const cut = await post(sim.url, TRT_STREAM_PATH, { ...trtBody('hi', 30), stop_words: ['e'] });
    const text = cut.events.map((e) => e.text_output).join('');
    assert.ok(cut.events.length < 30, `${cut.events.length} lines`);
    assert.ok(!text.includes('e'), JSON.stringify(text));
  });

  test('malformed requests get one-line JSON errors; GET is 405', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ max_tokens: 4 }, /'text_input' is required/],
      [{ text_input: ['a', 'b'], max_tokens: 4 }, /'text_input' must be a string/],
      [{ text_input: 'hi' }, /'max_tokens' is required/],
      [{ text_input: 'hi', max_tokens: 0 }, /'max_tokens' must be at least 1/],
      [{ text_input: 'hi', max_tokens: 4, accumulate_tokens: 'yes' }, /'accumulate_tokens' must be a boolean/],
      [{ text_input: 'hi', max_tokens: 4, end_id: 'eos' }, /'end_id' must be an integer/],
      [{ text_input: 'hi', max_tokens: 300 }, /maximum context length of 256/],
    ];
    for (const [body, message] of cases) {
      const reply = await post(sim.url, TRT_STREAM_PATH, body);
      assert.equal(reply.status, 400, reply.text);
      assert.match(reply.json.error.message, message);
      assert.ok(!reply.text.includes('\n'));
    }
    assert.equal((await get(sim.url, TRT_STREAM_PATH)).status, 405);
  });

  test('a client that leaves mid-stream frees its slot', async () => {
    const controller = new AbortController();
    const response = await request(`${sim.url}${TRT_STREAM_PATH}`, { method: 'POST', body: JSON.stringify(trtBody('hi', 200)), signal: controller.signal });
    await new Promise<void>((resolve) => response.body.once('data', () => resolve()));
    const running = async (): Promise<number> => (await get(sim.url, '/get_server_info')).json.internal_states[0].num_running_reqs;
    assert.equal(await running(), 1);
    response.body.on('error', () => {});
    controller.abort();
    const deadline = Date.now() + 2000;
    while ((await running()) !== 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    assert.equal(await running(), 0);
  });
});

describe('sim: Truss model:predict', () => {
  let sim: SimServerHandle;
  before(async () => {
    sim = await startTruthSim();
  });
  after(() => sim.close());

  test('streams completions chunks, one non-empty choices[0].text per token, then [DONE]', async () => {
    const reply = await post(sim.url, TRUSS_PREDICT_PATH, trussBody('The quick brown fox', 10));
    assert.equal(reply.status, 200);
    assert.ok(reply.text.endsWith('data: [DONE]\n\n'));
    assert.equal(reply.events.length, 10);
    for (const event of reply.events) {
      assert.equal(event.object, 'text_completion');
      assert.notEqual(event.choices[0].text, '');
    }
    assert.equal(reply.events.at(-1).choices[0].finish_reason, 'length');
  });

  test('without stream answers a completions body with usage', async () => {
    const reply = await post(sim.url, TRUSS_PREDICT_PATH, trussBody('hi', 6, false));
    assert.equal(reply.status, 200);
    assert.equal(reply.json.usage.completion_tokens, 6);
    assert.equal(typeof reply.json.choices[0].text, 'string');
  });

  test('errors use OpenAI\'s shape', async () => {
    const unknown = await post(sim.url, TRUSS_PREDICT_PATH, { ...trussBody('hi', 4), model: 'gpt-5' });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.json.error.param, 'model');
    const missing = await post(sim.url, TRUSS_PREDICT_PATH, { model: MODEL, max_tokens: 4 });
    assert.equal(missing.status, 400);
    assert.equal(missing.json.error.param, 'prompt');
  });
});
