/**
 * Images in requests to the sim, counted as SGLang and the model's processor count them: a
 * vision-language model adds one token per merged patch block of each resized image (640×360:
 * 299 for Qwen2.5-VL, 220 for Qwen3-VL), a text-only model drops the image as SGLang does (its
 * chat template takes text only, and it has no processor for `image_data`).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import jpeg from 'jpeg-js';
import { startSimServer, type SimServerHandle } from '../src/sim/server/sim-server.js';
import { get, post } from './sim-server-helpers.js';

/** A 640×360 JPEG as a data URI, as bench_serving's image dataset sends its `360p` images. */
const IMAGE = `data:image/jpeg;base64,${jpeg.encode({ data: Buffer.alloc(640 * 360 * 4, 255), width: 640, height: 360 }, 85).data.toString('base64')}`;
const PLACEHOLDER = '<|vision_start|><|image_pad|><|vision_end|>';

const chat = (content: unknown) => ({ messages: [{ role: 'user', content }], max_tokens: 2 });
const withImage = chat([{ type: 'image_url', image_url: { url: IMAGE } }, { type: 'text', text: 'What is in this picture?' }]);

describe('sim: image input', () => {
  const sims: Record<string, SimServerHandle> = {};
  before(async () => {
    for (const model of ['Qwen/Qwen2.5-VL-7B-Instruct', 'Qwen/Qwen3-VL-8B-Instruct', 'Qwen/Qwen3-8B']) {
      sims[model] = await startSimServer(['--model-path', model], { port: 0, host: '127.0.0.1', quiet: true });
    }
  });
  after(() => Promise.all(Object.values(sims).map((sim) => sim.close())));

  const promptTokens = async (model: string, path: string, body: unknown): Promise<number> => {
    const reply = await post(sims[model]!.url, path, body);
    assert.equal(reply.status, 200, reply.text);
    return path === '/generate' ? reply.json.meta_info.prompt_tokens : reply.json.usage.prompt_tokens;
  };

  test("a vision model counts a 640×360 image as its processor does: Qwen2.5-VL 299 tokens, Qwen3-VL 220, plus the placeholder's markers", async () => {
    for (const [model, imageTokens] of [['Qwen/Qwen2.5-VL-7B-Instruct', 299], ['Qwen/Qwen3-VL-8B-Instruct', 220]] as const) {
      const textOnly = await promptTokens(model, '/v1/chat/completions', chat(`${PLACEHOLDER}What is in this picture?`));
      // The placeholder text is three tokens; the image replaces its pad with its own tokens.
      assert.equal(await promptTokens(model, '/v1/chat/completions', withImage), textOnly - 1 + imageTokens, model);
      const text = `${PLACEHOLDER}Describe.`;
      const native = await promptTokens(model, '/generate', { text, image_data: IMAGE, sampling_params: { max_new_tokens: 2 } });
      assert.equal(native, (await promptTokens(model, '/generate', { text, sampling_params: { max_new_tokens: 2 } })) - 1 + imageTokens);
    }
    assert.equal((await get(sims['Qwen/Qwen2.5-VL-7B-Instruct']!.url, '/get_model_info')).json.has_image_understanding, true);
  });

  test('a text-only model drops the image as SGLang does: the prompt is its text alone', async () => {
    const model = 'Qwen/Qwen3-8B';
    const textOnly = await promptTokens(model, '/v1/chat/completions', chat('What is in this picture?'));
    assert.equal(await promptTokens(model, '/v1/chat/completions', withImage), textOnly);
    const native = { text: 'Describe.', sampling_params: { max_new_tokens: 2 } };
    assert.equal(await promptTokens(model, '/generate', { ...native, image_data: [IMAGE] }), await promptTokens(model, '/generate', native));
    assert.equal((await get(sims[model]!.url, '/get_model_info')).json.has_image_understanding, false);
  });

  test('an image the sim cannot read is a 400 naming the field', async () => {
    const reply = await post(sims['Qwen/Qwen2.5-VL-7B-Instruct']!.url, '/v1/chat/completions', chat([{ type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } }]));
    assert.equal(reply.status, 400);
    assert.equal(reply.json.error.param, 'messages');
  });
});
