/**
 * The `random` and `random-ids` datasets (spec §3.5–3.6): exact token counts, text from ShareGPT
 * first turns (or the offline fallback corpus) cut or repeated to length, or synthetic id runs.
 */
import { UserError } from '../../core/errors.js';
import type { NumpyRandomState } from '../../core/rng.js';
import type { Tokenizer } from '../../tokenizer/index.js';
import type { DatasetOptions } from '../run-config.js';
import type { Dataset, DatasetRow } from '../types.js';
import { ENCODE_BATCH, type DatasetContext } from './context.js';
import { readShareGptPairs } from './conversation-file.js';
import { fallbackPromptTexts } from './fallback-corpus.js';
import { computeRandomLens } from './lengths.js';
import { printTokenTotals, textRow } from './rows.js';

/**
 * Input lengths then output lengths (in that RNG order), inputs reduced by the `specialTokens`
 * encode adds (unless the prompts are sent as ids): what every row's lengths come from.
 */
export function sampleLengths(options: DatasetOptions, numpy: NumpyRandomState, specialTokens: number): { inputLens: number[]; outputLens: number[] } {
  const { inputLen, outputLen, rangeRatio: ratio } = options.random;
  const inputLens = computeRandomLens(numpy, inputLen, ratio, options.numPrompts, {
    length: '--random-input-len',
    ratio: '--random-range-ratio',
  });
  const outputLens = computeRandomLens(numpy, outputLen, ratio, options.numPrompts, {
    length: '--random-output-len',
    ratio: '--random-range-ratio',
  });
  if (!options.tokenizePrompt) {
    for (let i = 0; i < inputLens.length; i++) inputLens[i] = Math.max(0, inputLens[i]! - specialTokens);
  }
  return { inputLens, outputLens };
}

/**
 * `decode(ids repeated to length)`. When the base decodes on its own to text that concatenates
 * cleanly (complete UTF-8, checked on two copies), the repeats are string copies; otherwise
 * the whole id list is decoded.
 */
async function decodeRepeated(tokenizer: Tokenizer, base: number[], length: number): Promise<string> {
  const copies = Math.floor(length / base.length);
  const rest = base.slice(0, length - copies * base.length);
  if (copies >= 2) {
    const [single, double, tail] = await tokenizer.decodeBatch([base, [...base, ...base], rest]);
    if (double === single! + single!) return single!.repeat(copies) + tail!;
  }
  const ids = new Array<number>(length);
  for (let j = 0; j < length; j++) ids[j] = base[j % base.length]!;
  return tokenizer.decode(ids);
}

/** The prompt of one row from a text's ids: first `target` ids, or the ids repeated up to `target`. */
async function promptFromIds(ctx: DatasetContext, ids: number[], target: number): Promise<string | number[]> {
  const asIds = ctx.options.tokenizePrompt;
  if (ids.length > target) {
    const cut = ids.slice(0, target);
    return asIds ? cut : ctx.tokenizer.decode(cut);
  }
  if (!asIds) return decodeRepeated(ctx.tokenizer, ids, target);
  const out = new Array<number>(target);
  for (let j = 0; j < target; j++) out[j] = ids[j % ids.length]!;
  return out;
}

/**
 * The texts to sample from: ShareGPT first turns of `datasetPath` (used once each, as the
 * reference), else the fallback corpus, walked cyclically so any `--num-prompts` gets its rows.
 */
export function sourceTexts(datasetPath: string): { texts: string[]; cyclic: boolean } {
  if (datasetPath === '') return { texts: fallbackPromptTexts(), cyclic: true };
  const texts = readShareGptPairs(datasetPath).map(([prompt]) => prompt);
  if (texts.length === 0) throw new UserError(`${datasetPath} has no conversation with two turns to take prompt text from: pass a ShareGPT JSON file`);
  return { texts, cyclic: false };
}

/** `--dataset-name random`. */
export async function buildRandomDataset(ctx: DatasetContext): Promise<Dataset> {
  const { inputLens, outputLens } = sampleLengths(ctx.options, ctx.rngs.numpy, ctx.tokenizer.numSpecialTokensToAdd);
  const { texts, cyclic } = sourceTexts(ctx.options.path);
  ctx.rngs.python.shuffle(texts);
  const count = inputLens.length;
  const rows: DatasetRow[] = [];
  let next = 0;
  const more = (): boolean => cyclic || next < texts.length;
  while (rows.length < count && more()) {
    const batch: string[] = [];
    while (batch.length < ENCODE_BATCH && more()) batch.push(texts[next++ % texts.length]!);
    const encoded = await ctx.tokenizer.encodeBatch(batch);
    const chosen: { ids: number[]; row: number }[] = [];
    for (const ids of encoded) {
      if (rows.length + chosen.length === count) break;
      if (ids.length === 0) continue;
      chosen.push({ ids, row: rows.length + chosen.length });
    }
    const prompts = await Promise.all(chosen.map(({ ids, row }) => promptFromIds(ctx, ids, inputLens[row]!)));
    chosen.forEach(({ row }, k) => rows.push(textRow(prompts[k]!, inputLens[row]!, outputLens[row]!)));
  }
  printTokenTotals(ctx.print, inputLens, outputLens);
  return { rows, multiTurn: false };
}

/** `--dataset-name random-ids`: row i is ids `(offset_i + i + j) mod vocab_size`, j < length. */
export async function buildRandomIdsDataset(ctx: DatasetContext): Promise<Dataset> {
  const { inputLens, outputLens } = sampleLengths(ctx.options, ctx.rngs.numpy, ctx.tokenizer.numSpecialTokensToAdd);
  const vocab = ctx.tokenizer.vocabSize;
  const offsets = ctx.rngs.numpy.randint(0, vocab, inputLens.length);
  const idLists = inputLens.map((length, i) => {
    const ids = new Array<number>(length);
    for (let j = 0; j < length; j++) ids[j] = (offsets[i]! + i + j) % vocab;
    return ids;
  });
  const prompts: (string | number[])[] = ctx.options.tokenizePrompt ? idLists : await ctx.tokenizer.decodeBatch(idLists);
  const rows = prompts.map((prompt, i) => textRow(prompt, inputLens[i]!, outputLens[i]!));
  printTokenTotals(ctx.print, inputLens, outputLens);
  return { rows, multiTurn: false };
}
