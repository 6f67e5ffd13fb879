import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { request } from 'undici';
import type { SimServerHandle } from '../src/sim/server/sim-server.js';
import { get, MODEL, post, startTruthSim } from './sim-server-helpers.js';

/** OpenAI's error body: {"error": {"message", "type", "param", "code"}}. */
function assertOpenAiError(json: any, param: string | null): void {
  assert.equal(typeof json.error.message, 'string');
  assert.equal(typeof json.error.type, 'string');
  assert.equal(json.error.param, param);
  assert.ok('code' in json.error);
}

describe('sim: malformed requests get JSON errors with the right status, never a crash', () => {
  let sim: SimServerHandle;
  before(async () => {
    sim = await startTruthSim(['--context-length', '64']);
  });
  after(() => sim.close());

  const chat = { model: MODEL, messages: [{ role: 'user', content: 'hi' }], max_tokens: 4 };
  const cases: Array<[string, string, unknown, number, string | null]> = [
    ['malformed JSON', '/v1/chat/completions', '{"model": ', 400, null],
    ['a body that is not an object', '/v1/completions', '[1, 2]', 400, null],
    ['missing messages', '/v1/chat/completions', { model: MODEL }, 400, 'messages'],
    ['a message without a role', '/v1/chat/completions', { model: MODEL, messages: [{ content: 'hi' }] }, 400, 'messages[0].role'],
    ['max_tokens of the wrong type', '/v1/chat/completions', { ...chat, max_tokens: '4' }, 400, 'max_tokens'],
    ['negative max_completion_tokens', '/v1/chat/completions', { ...chat, max_completion_tokens: -1 }, 400, 'max_completion_tokens'],
    ['stream of the wrong type', '/v1/completions', { model: MODEL, prompt: 'hi', stream: 'yes' }, 400, 'stream'],
    ['temperature of the wrong type', '/v1/completions', { model: MODEL, prompt: 'hi', temperature: 'hot' }, 400, 'temperature'],
    ['a missing prompt', '/v1/completions', { model: MODEL }, 400, 'prompt'],
    ['an empty prompt', '/v1/completions', { model: MODEL, prompt: '' }, 400, 'prompt'],
    ['n > 1', '/v1/completions', { model: MODEL, prompt: 'hi', n: 2 }, 400, 'n'],
    ['a prompt over the context length', '/v1/completions', { model: MODEL, prompt: 'word '.repeat(100), max_tokens: 1 }, 400, 'prompt'],
    ['prompt plus max_tokens over the context length', '/v1/completions', { model: MODEL, prompt: 'hi', max_tokens: 64 }, 400, 'prompt'],
    ['an unknown model', '/v1/chat/completions', { ...chat, model: 'gpt-5' }, 404, 'model'],
  ];
  for (const [name, path, body, status, param] of cases) {
    test(`${name} → ${status}`, async () => {
      const reply = await post(sim.url, path, body);
      assert.equal(reply.status, status, reply.text);
      assertOpenAiError(reply.json, param);
    });
  }

  test('native /generate errors use SGLang\'s {"error": {"message"}} shape', async () => {
    const missing = await post(sim.url, '/generate', { sampling_params: { max_new_tokens: 4 } });
    assert.equal(missing.status, 400);
    assert.deepEqual(Object.keys(missing.json.error), ['message']);
    const badType = await post(sim.url, '/generate', { text: 'hi', sampling_params: { max_new_tokens: 1.5 } });
    assert.equal(badType.status, 400);
    assert.match(badType.json.error.message, /max_new_tokens/);
    const tooLong = await post(sim.url, '/generate', { input_ids: Array.from({ length: 80 }, (_, i) => i) });
    assert.equal(tooLong.status, 400);
    assert.match(tooLong.json.error.message, /longer than the model's context length \(64 tokens\)/);
  });

  test('a native rid that is already running is refused', async () => {
    const running = await request(`${sim.url}/generate`, {
      method: 'POST',
      body: JSON.stringify({ rid: 'same', text: 'hi', sampling_params: { max_new_tokens: 30, ignore_eos: true }, stream: true }),
    });
    // Its first chunk proves it is running; the twin is sent while it streams the rest.
    await new Promise<void>((resolve) => running.body.once('data', () => resolve()));
    const twin = await post(sim.url, '/generate', { rid: 'same', text: 'hi', sampling_params: { max_new_tokens: 1 } });
    assert.equal(twin.status, 400);
    assert.match(twin.json.error.message, /rid 'same' is already running/);
    running.body.resume();
    await once(running.body, 'end');
  });

  test('an oversize body is refused with 413', async () => {
    const huge = JSON.stringify({ model: MODEL, prompt: 'x'.repeat(33 * 1024 * 1024) });
    const reply = await post(sim.url, '/v1/completions', huge);
    assert.equal(reply.status, 413);
    assertOpenAiError(reply.json, null);
    assert.match(reply.json.error.message, /exceeds the sim's limit of \d+ bytes for this route: .*shorten the prompt\.$/);
  });

  test('unknown routes are 404, wrong methods 405, and metrics are 404 unless enabled', async () => {
    assert.equal((await get(sim.url, '/v1/nothing')).status, 404);
    assert.equal((await get(sim.url, '/generate')).status, 405);
    assert.equal((await get(sim.url, '/metrics')).status, 404);
  });

  test('the server still answers after all of the above', async () => {
    const reply = await post(sim.url, '/v1/chat/completions', chat);
    assert.equal(reply.status, 200);
    assert.ok(reply.json.usage.completion_tokens >= 1);
  });
});
