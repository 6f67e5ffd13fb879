import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTokenizer, type Tokenizer } from '../../tokenizer/index.js';
import { planOutput } from './output-plan.js';
import { buildTokenPool, type TokenPool } from './token-pool.js';

async function poolOf(tokenizer: Tokenizer): Promise<TokenPool> {
  const vocabulary = tokenizer.vocabIds().map((id): [string, number] => [tokenizer.idToToken(id) ?? '', id]);
  return buildTokenPool(vocabulary, (text) => tokenizer.encode(text, false));
}

for (const model of ['Qwen/Qwen3-8B', 'deepseek-ai/DeepSeek-V3']) {
  describe(`token pool of ${model}`, () => {
    test('every drawn answer re-tokenizes to exactly its token count and ids', async () => {
      const tokenizer = await loadTokenizer({ model });
      const pool = await poolOf(tokenizer);
      assert.ok(pool.texts.length >= 1000, `pool has ${pool.texts.length} words`);
      assert.ok(pool.texts.every((t) => /^ [a-z]+$/.test(t)));
      for (let requestIndex = 0; requestIndex < 20; requestIndex++) {
        const plan = planOutput(pool, 3, { maxNewTokens: 300, ignoreEos: true, stop: [], requestIndex });
        const text = plan.pieces.join('');
        assert.deepEqual(await tokenizer.encode(text, false), plan.ids);
        // Stream chunks are re-tokenized one by one (bench ITL): each piece is one token.
        const chunk = plan.pieces.slice(5, 9).join('');
        assert.equal((await tokenizer.encode(chunk, false)).length, 4);
      }
    });
  });
}

test('a vocabulary without word tokens is refused with a one-line error', async () => {
  await assert.rejects(buildTokenPool([['abc', 1], ['<s>', 2]], async () => [1]), /too few space-prefixed word tokens/);
});

test('reads the vocabulary, in id order, only until it has its words', async () => {
  let read = 0;
  const vocabulary = function* (): Generator<[string, number]> {
    for (let id = 0; id < 1000; id++) {
      read += 1;
      yield [`Ġw${'abcdefghij'[id % 10]}${'abcdefghij'[Math.floor(id / 10) % 10]}${'abcdefghij'[Math.floor(id / 100)]}`, id];
    }
  };
  // Each word is its own token: 'w' and three digits spelt a..j, least significant first.
  const idOf = (word: string): number => [...word.slice(1)].reduce((n, c, i) => n + 'abcdefghij'.indexOf(c) * 10 ** i, 0);
  const pool = await buildTokenPool(vocabulary(), async (text) => text.trim().split(' ').map(idOf), 20);
  assert.deepEqual([...pool.ids], Array.from({ length: 20 }, (_, i) => i));
  assert.equal(read, 20);
});
