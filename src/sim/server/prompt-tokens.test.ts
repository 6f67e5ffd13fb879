import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTokenizer, type Tokenizer } from '../../tokenizer/index.js';
import { HttpError } from '../../core/http-error.js';
import { boundedPromptIds, promptBytesPerToken, type PromptLimits } from './prompt-tokens.js';

let qwen: Tokenizer;
/** The texts the tokenizer was asked to encode, in order. */
let encoded: string[] = [];

before(async () => {
  qwen = await loadTokenizer({ model: 'Qwen/Qwen3-8B' });
});

/** Limits over the Qwen vocabulary that record every text handed to `encode`. */
function limits(contextLength: number): PromptLimits {
  encoded = [];
  const tokenizer = Object.create(qwen) as Tokenizer;
  tokenizer.encode = (text, addSpecialTokens) => {
    encoded.push(text);
    return qwen.encode(text, addSpecialTokens);
  };
  return { tokenizer, contextLength, promptBytesPerToken: promptBytesPerToken(qwen) };
}

function refusal(message: RegExp): (error: unknown) => boolean {
  return (error) => error instanceof HttpError && error.status === 400 && error.openAi.apiCode === 'context_length_exceeded' && message.test(error.message);
}

test('a bundled vocabulary: one token stands for at most 512 prompt bytes, normalization included', () => {
  assert.equal(promptBytesPerToken(qwen), 512);
});

test('a prompt whose byte count alone exceeds the context length is refused untokenized', async () => {
  const text = 'x'.repeat(64 * 512);
  await assert.rejects(
    boundedPromptIds(limits(64), text, true, 'text'),
    refusal(/^The input \(at least 64 tokens: 32768 bytes\) is longer than the model's context length \(64 tokens\)\.$/),
  );
  assert.deepEqual(encoded, []);
});

test('a long prompt of short tokens is refused after a few slices, never tokenized whole', async () => {
  const text = 'hello world '.repeat(100_000); // 1.2 MB: at least 2344 tokens by its bytes, 200,000 in fact
  await assert.rejects(boundedPromptIds(limits(4096), text, true, 'prompt'), refusal(/^The input \(more than 4096 tokens\)/));
  assert.ok(encoded.length <= 8, `${encoded.length} slices`);
  assert.ok(encoded.every((slice) => slice.length <= 8192));
});

test('a prompt that fits gets exactly the ids of tokenizing it whole, short or longer than a slice', async () => {
  for (const text of ['Hello world, 你好!', 'hello world '.repeat(2000), '😀'.repeat(10_000)]) {
    assert.deepEqual(await boundedPromptIds(limits(100_000), text, true, 'text'), await qwen.encode(text, true));
    // No slice ends inside a surrogate pair: each one survives a round trip through UTF-8.
    for (const slice of encoded) assert.equal(Buffer.from(slice, 'utf8').toString('utf8'), slice);
  }
});

test('a prompt too long to tokenize whole keeps its slices ids: the same as whole, BOS included', async () => {
  const llama = await loadTokenizer({ model: 'meta-llama/Llama-3.1-8B' });
  const text = 'Hello world, this is a long prompt. '.repeat(30_000); // 1.08 M units, over the 1 Mi tokenized whole
  const ids = await boundedPromptIds({ tokenizer: llama, contextLength: 1_000_000, promptBytesPerToken: promptBytesPerToken(llama) }, text, true, 'text');
  const whole = await llama.encode(text, true);
  assert.equal(ids[0], whole[0], 'BOS first');
  assert.equal(ids.length, whole.length);
  assert.deepEqual(ids, whole);
});
