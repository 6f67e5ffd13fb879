import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, copyFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUNDLED_LONGEST_TOKEN_BYTES } from './bundled.js';
import { loadTokenizer, locateTokenizer, specialTokensOfLocalConfig } from './load.js';
import { listBundledTokenizers, resolveTokenizerFamily, bundledTokenizerDir } from './bundled.js';
import { UserError } from '../core/errors.js';

const scratch = mkdtempSync(join(tmpdir(), 'servebench-tok-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

describe('resolveTokenizerFamily', () => {
  test('maps model names and paths to bundled families', () => {
    assert.equal(resolveTokenizerFamily('Qwen/Qwen2.5-0.5B-Instruct'), 'qwen');
    assert.equal(resolveTokenizerFamily('Qwen3-Coder-480B-A35B-Instruct-w8a8-QuaRot'), 'qwen');
    assert.equal(resolveTokenizerFamily('Qwen/Qwen3-Next-80B-A3B-Instruct'), 'qwen');
    assert.equal(resolveTokenizerFamily('Qwen/QwQ-32B'), 'qwen');
    assert.equal(resolveTokenizerFamily('/mnt/models/qwen2.5-0.5b'), 'qwen');
    assert.equal(resolveTokenizerFamily('deepseek-ai/DeepSeek-V3.2-Exp'), 'deepseek');
    assert.equal(resolveTokenizerFamily('/root/.cache/modelscope/hub/models/DeepSeek-V3.2-Exp-W8A8'), 'deepseek');
    assert.equal(resolveTokenizerFamily('deepseek-ai/DeepSeek-R1'), 'deepseek');
    assert.equal(resolveTokenizerFamily('deepseek-ai/DeepSeek-R1-Distill-Qwen-7B'), null);
    for (const llama of [
      'meta-llama/Llama-3.1-70B-Instruct',
      'Meta-Llama/Llama-3.1-70B',
      'meta-llama/Meta-Llama-3-8B-Instruct',
      'meta-llama/Llama-3.2-1B',
      'Llama-3.3-70B',
      '/models/llama3.1-8b-instruct',
      'nvidia/Llama-3.1-Nemotron-70B-Instruct-HF',
    ]) {
      assert.equal(resolveTokenizerFamily(llama), 'llama3', llama);
    }
    for (const other of ['huggyllama/llama-30b', 'meta-llama/Llama-2-7b-hf', 'meta-llama/Llama-4-Scout-17B-16E', 'deepseek-ai/DeepSeek-R1-Distill-Llama-70B']) {
      assert.equal(resolveTokenizerFamily(other), null, other);
    }
    assert.equal(resolveTokenizerFamily('openai/gpt-oss-120b'), 'gpt-oss');
    assert.equal(resolveTokenizerFamily('/data/gpt_oss_20b'), 'gpt-oss');
    assert.equal(resolveTokenizerFamily('google/gemma-3-27b-it'), null);
    assert.deepEqual(listBundledTokenizers().map((b) => b.family), ['qwen', 'deepseek', 'llama3', 'gpt-oss']);
  });
});

describe('bundled Qwen vocabulary', () => {
  test('round trip, no BOS, sizes, chat template', async () => {
    const tok = await loadTokenizer({ model: 'Qwen/Qwen2.5-7B-Instruct' });
    assert.equal(tok.numSpecialTokensToAdd, 0);
    assert.equal(tok.bosToken, null);
    assert.equal(tok.vocabSize, 151643);
    const text = 'Hello world, 你好! 🚀';
    const ids = await tok.encode(text);
    assert.deepEqual(ids.slice(0, 2), [9707, 1879]);
    assert.equal(await tok.decode(ids), text);
    assert.deepEqual(await tok.encodeBatch([text, 'x']), [ids, await tok.encode('x')]);
    const vocab = tok.vocabIds();
    assert.equal(vocab.length, 151669);
    assert.equal(vocab[vocab.length - 1], 151668);
    assert.equal(tok.idToToken(9707), 'Hello');
    assert.equal(tok.tokenToId('<|im_start|>'), 151644);
    assert.ok(tok.specialTokenIds.includes(151645));
    assert.equal(tok.hasChatTemplate, true);
    assert.equal(
      tok.applyChatTemplate([{ role: 'user', content: 'What is 2+2?' }], { addGenerationPrompt: true }),
      '<|im_start|>user\nWhat is 2+2?<|im_end|>\n<|im_start|>assistant\n',
    );
  });

  test('is cached per file', async () => {
    const a = await loadTokenizer({ model: 'Qwen/Qwen3-8B' });
    const b = await loadTokenizer({ tokenizer: 'Qwen/QwQ-32B' });
    assert.equal(a, b);
  });
});

describe('bundled DeepSeek vocabulary', () => {
  test('adds BOS like HF, decodes special tokens as text', async () => {
    const tok = await loadTokenizer({ model: 'deepseek-ai/DeepSeek-V3.2' });
    assert.equal(tok.numSpecialTokensToAdd, 1);
    assert.equal(tok.bosToken, '<｜begin▁of▁sentence｜>');
    assert.equal(tok.vocabSize, 128000);
    const ids = await tok.encode('Hello world');
    assert.deepEqual(ids, [0, 19923, 2058]);
    assert.deepEqual(await tok.encode('Hello world', false), [19923, 2058]);
    assert.equal(await tok.decode(ids), '<｜begin▁of▁sentence｜>Hello world');
    assert.equal(await tok.decode(ids, true), 'Hello world');
    assert.equal(
      tok.applyChatTemplate([{ role: 'user', content: 'What is 2+2?' }], { addGenerationPrompt: true }),
      '<｜begin▁of▁sentence｜><｜User｜>What is 2+2?<｜Assistant｜>',
    );
  });
});

describe('bundled Llama 3 vocabulary', () => {
  test("adds BOS and gives HF's ids for every Llama 3.x name", async () => {
    const tok = await loadTokenizer({ model: 'Meta-Llama/Llama-3.1-70B' });
    assert.equal(await loadTokenizer({ model: 'meta-llama/Llama-3.3-70B-Instruct' }), tok);
    assert.equal(tok.numSpecialTokensToAdd, 1);
    assert.equal(tok.bosToken, '<|begin_of_text|>');
    assert.equal(tok.vocabSize, 128000);
    // HF AutoTokenizer of Llama-3.2-1B / Llama-3.1-8B-Instruct.
    assert.deepEqual(await tok.encode('Hello world, I am a'), [128000, 9906, 1917, 11, 358, 1097, 264]);
    assert.equal(tok.tokenToId('<|eot_id|>'), 128009);
    // Llama 3's own template (3.1 onwards prepend a system block: --tokenizer for those).
    assert.equal(
      tok.applyChatTemplate([{ role: 'user', content: 'Hi' }], { addGenerationPrompt: true }),
      '<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nHi<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n',
    );
  });
});

describe('bundled gpt-oss vocabulary', () => {
  test("o200k_harmony: tiktoken's o200k ids for text, the harmony tokens, no BOS", async () => {
    const tok = await loadTokenizer({ model: 'openai/gpt-oss-120b' });
    assert.equal(tok.numSpecialTokensToAdd, 0);
    assert.equal(tok.vocabSize, 199998);
    assert.deepEqual(await tok.encode('Hello world! This is a test.'), [13225, 2375, 0, 1328, 382, 261, 1746, 13]);
    assert.deepEqual(await tok.encode('<|start|>user<|message|>hi<|end|>'), [200006, 1428, 200008, 3686, 200007]);
    assert.equal(tok.tokenToId('<|return|>'), 200002);
  });
});

describe('locating without loading', () => {
  test('null only when neither --tokenizer nor the model names one', () => {
    assert.equal(locateTokenizer({ model: 'some-org/UnknownModel-7B' }), null);
    assert.equal(locateTokenizer({}), null);
    assert.deepEqual(locateTokenizer({ model: 'openai/gpt-oss-20b' }), {
      name: 'gpt-oss',
      file: join(bundledTokenizerDir('gpt-oss'), 'tokenizer.json'),
      longestTokenBytes: BUNDLED_LONGEST_TOKEN_BYTES,
    });
    assert.throws(() => locateTokenizer({ tokenizer: 'some-org/UnknownModel-7B', model: 'Qwen/Qwen3-8B' }), /does not exist/);
  });

  test("the special tokens a local folder's tokenizer_config.json asks for", () => {
    const folder = join(scratch, 'config-only');
    mkdirSync(folder);
    assert.equal(specialTokensOfLocalConfig(folder), null);
    assert.equal(specialTokensOfLocalConfig('some-org/UnknownModel-7B'), null);
    const path = join(folder, 'tokenizer_config.json');
    writeFileSync(path, JSON.stringify({ add_bos_token: true, bos_token: { content: '<s>' }, add_eos_token: true, eos_token: '</s>' }));
    assert.deepEqual(specialTokensOfLocalConfig(folder), { count: 2, path });
    writeFileSync(path, JSON.stringify({ add_bos_token: false, bos_token: '<s>' }));
    assert.deepEqual(specialTokensOfLocalConfig(folder), { count: 0, path });
    writeFileSync(path, 'not json');
    assert.throws(() => specialTokensOfLocalConfig(folder), (e: unknown) => e instanceof UserError && !e.message.includes('\n'));
  });
});

describe('the longest text one token stands for', () => {
  test('every bundled vocabulary: its longest token decodes to the stated number of bytes', async () => {
    for (const model of ['Qwen/Qwen3-8B', 'deepseek-ai/DeepSeek-V3', 'meta-llama/Llama-3.1-8B', 'openai/gpt-oss-20b']) {
      const tok = await loadTokenizer({ model });
      const ids = tok.vocabIds();
      const texts = await tok.decodeBatch(ids.map((id) => [id]));
      const longest = texts.reduce((most, text) => Math.max(most, Buffer.byteLength(text)), 0);
      assert.equal(longest, BUNDLED_LONGEST_TOKEN_BYTES, model);
      assert.equal(tok.longestTokenBytes, BUNDLED_LONGEST_TOKEN_BYTES, model);
    }
  });

  test('a local vocabulary is read: byte-level entries count 2 bytes per byte, a bound never short', async () => {
    const folder = join(scratch, 'local-longest');
    mkdirSync(folder);
    copyFileSync(join(bundledTokenizerDir('qwen'), 'tokenizer.json'), join(folder, 'tokenizer.json'));
    const tok = await loadTokenizer({ tokenizer: folder });
    assert.equal(tok.longestTokenBytes, 2 * BUNDLED_LONGEST_TOKEN_BYTES);
  });
});

describe('local tokenizers and errors', () => {
  test('a local folder given as --model or --tokenizer, and a tokenizer.json path', async () => {
    const folder = join(scratch, 'my-model');
    mkdirSync(folder);
    copyFileSync(join(bundledTokenizerDir('deepseek'), 'tokenizer.json'), join(folder, 'tokenizer.json'));
    const viaModel = await loadTokenizer({ model: folder });
    // Without tokenizer_config.json nothing asks for BOS and there is no chat template.
    assert.equal(viaModel.numSpecialTokensToAdd, 0);
    assert.equal(viaModel.hasChatTemplate, false);
    assert.throws(() => viaModel.applyChatTemplate([{ role: 'user', content: 'x' }], { addGenerationPrompt: true }), UserError);
    const viaFile = await loadTokenizer({ tokenizer: join(folder, 'tokenizer.json'), model: 'whatever' });
    assert.equal(viaFile, viaModel);
    writeFileSync(join(scratch, 'tokenizer_config.json'), JSON.stringify({ add_bos_token: true, bos_token: '<｜begin▁of▁sentence｜>' }));
    copyFileSync(join(folder, 'tokenizer.json'), join(scratch, 'tokenizer.json'));
    const withConfig = await loadTokenizer({ tokenizer: scratch });
    assert.equal(withConfig.numSpecialTokensToAdd, 1);
  });

  test('a chat template that raises is a UserError, an unparsable one only fails when used', async () => {
    const folder = join(scratch, 'templated');
    mkdirSync(folder);
    copyFileSync(join(bundledTokenizerDir('qwen'), 'tokenizer.json'), join(folder, 'tokenizer.json'));
    const template = "{% if messages[0].role != 'user' %}{{ raise_exception('user first') }}{% endif %}{{ messages[0].content }}";
    writeFileSync(join(folder, 'tokenizer_config.json'), JSON.stringify({ chat_template: template }));
    const tok = await loadTokenizer({ tokenizer: folder });
    assert.equal(tok.applyChatTemplate([{ role: 'user', content: 'hi' }], { addGenerationPrompt: true }), 'hi');
    assert.throws(() => tok.applyChatTemplate([{ role: 'system', content: 'x' }], { addGenerationPrompt: true }), (e: unknown) => {
      assert.ok(e instanceof UserError);
      assert.match(e.message, /rejected the messages: .*user first/);
      return true;
    });
    const broken = join(scratch, 'broken-template');
    mkdirSync(broken);
    copyFileSync(join(folder, 'tokenizer.json'), join(broken, 'tokenizer.json'));
    writeFileSync(join(broken, 'tokenizer_config.json'), JSON.stringify({ chat_template: '{% if %}' }));
    const loaded = await loadTokenizer({ tokenizer: broken });
    assert.equal(loaded.hasChatTemplate, true);
    assert.throws(() => loaded.applyChatTemplate([{ role: 'user', content: 'x' }], { addGenerationPrompt: true }), /cannot be parsed/);
  });

  test('missing or unknown paths give one-line UserErrors', async () => {
    await assert.rejects(loadTokenizer({ model: 'google/gemma-3-27b-it' }), (e: unknown) => {
      assert.ok(e instanceof UserError);
      assert.equal(
        e.message,
        "no tokenizer for model 'google/gemma-3-27b-it': pass --tokenizer with a local HF folder or tokenizer.json " +
          '(bundled: Qwen2.5/Qwen3/QwQ, DeepSeek-V3/V3.1/V3.2/R1, Llama 3/3.1/3.2/3.3, gpt-oss)',
      );
      return true;
    });
    await assert.rejects(loadTokenizer({ tokenizer: join(scratch, 'nope', 'tokenizer.json') }), /does not exist/);
    const empty = join(scratch, 'empty');
    mkdirSync(empty);
    await assert.rejects(loadTokenizer({ tokenizer: empty }), /has no tokenizer\.json/);
    const broken = join(scratch, 'broken.json');
    writeFileSync(broken, '{"not": "a tokenizer"}');
    await assert.rejects(loadTokenizer({ tokenizer: broken }), (e: unknown) => e instanceof UserError && !e.message.includes('\n'));
    await assert.rejects(loadTokenizer({}), UserError);
  });
});
