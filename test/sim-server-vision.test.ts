/**
 * Images in requests to the sim, counted as SGLang and the model's processor count them: a
 * vision-language model adds one token per merged patch block of each resized image (640×360:
 * 299 for Qwen2.5-VL, 220 for Qwen3-VL), a text-only model drops the image as SGLang does (its
 * chat template takes text only, and it has no processor for `image_data`).
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

  test("a local Qwen3-VL directory (config.json, preprocessor_config.json) counts images with its own processor's budget", async () => {
    const root = mkdtempSync(join(tmpdir(), 'servebench-vl-'));
    const dir = join(root, 'Qwen3-VL-8B-Instruct');
    mkdirSync(dir);
    writeFileSync(join(dir, 'config.json'), JSON.stringify({
      architectures: ['Qwen3VLForConditionalGeneration'], model_type: 'qwen3_vl',
      text_config: {
        model_type: 'qwen3_vl_text', hidden_size: 4096, intermediate_size: 12288, num_hidden_layers: 36, num_attention_heads: 32,
        num_key_value_heads: 8, head_dim: 128, vocab_size: 151936, max_position_embeddings: 262144, tie_word_embeddings: false,
      },
      vision_config: { depth: 27, hidden_size: 1152, intermediate_size: 4304, num_position_embeddings: 2304, patch_size: 16, spatial_merge_size: 2, deepstack_visual_indexes: [8, 16, 24] },
    }));
    // A budget of at most 32×32-pixel blocks × 64: the 640×360 image shrinks to 64 tokens or fewer.
    writeFileSync(join(dir, 'preprocessor_config.json'), JSON.stringify({ size: { shortest_edge: 4096, longest_edge: 65536 } }));
    const sim = await startSimServer(['--model-path', dir], { port: 0, host: '127.0.0.1', quiet: true });
    try {
      const count = async (body: unknown): Promise<number> => (await post(sim.url, '/v1/chat/completions', body)).json.usage.prompt_tokens;
      const imageTokens = (await count(withImage)) - (await count(chat(`${PLACEHOLDER}What is in this picture?`))) + 1;
      assert.ok(imageTokens > 0 && imageTokens <= 64, `${imageTokens} image tokens`);
      assert.equal((await get(sim.url, '/get_model_info')).json.has_image_understanding, true);
    } finally {
      await sim.close();
      rmSync(root, { recursive: true, force: true });
    }
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
