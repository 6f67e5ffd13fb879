import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, copyFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTokenizer, listBundledTokenizers, resolveTokenizerFamily, bundledTokenizerDir } from './index.js';
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
    assert.equal(resolveTokenizerFamily('meta-llama/Llama-3.1-8B'), null);
    assert.deepEqual(listBundledTokenizers().map((b) => b.family), ['qwen', 'deepseek']);
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
    await assert.rejects(loadTokenizer({ model: 'meta-llama/Llama-3.1-8B' }), (e: unknown) => {
      assert.ok(e instanceof UserError);
      assert.equal(
        e.message,
        "no tokenizer for model 'meta-llama/Llama-3.1-8B': pass --tokenizer with a local HF folder or tokenizer.json (bundled: Qwen2.5/Qwen3, DeepSeek-V3/R1/V3.2)",
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
