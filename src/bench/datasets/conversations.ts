/**
 * The sharegpt and custom datasets (spec §3.2–3.3): shuffle the conversation pairs with the
 * Python stream, then keep rows in shuffled order until `--num-prompts` pass the length filters.
 */
import { UsageError } from '../../core/errors.js';
import type { Dataset, DatasetRow } from '../types.js';
import { ENCODE_BATCH, type DatasetContext } from './context.js';
import { readCustomPairs, readShareGptPairs, type ConversationPair } from './conversation-file.js';
import { printTokenTotals, textRow } from './rows.js';

const ASSISTANT_SUFFIX = 'Assistant:';

/** The prompt text as bench_serving sends it: optional suffix, optional chat template without BOS. */
function preparePrompt(ctx: DatasetContext, prompt: string): string {
  const { promptSuffix: suffix, applyChatTemplate: applyTemplate } = ctx.options;
  let text = prompt;
  if (suffix) {
    if (text.endsWith(ASSISTANT_SUFFIX)) text = text.slice(0, -ASSISTANT_SUFFIX.length);
    text = text + suffix + ASSISTANT_SUFFIX;
  }
  if (applyTemplate) {
    text = ctx.tokenizer.applyChatTemplate([{ role: 'user', content: text }], { addGenerationPrompt: true });
    const bos = ctx.tokenizer.bosToken;
    if (bos) text = text.split(bos).join('');
  }
  return text;
}

/** bench_serving's refusal of a fixed ShareGPT output length below 4. */
export function checkShareGptOutputLen(fixedOutput: number | null): void {
  if (fixedOutput !== null && fixedOutput < 4) {
    throw new UsageError(`--sharegpt-output-len must be at least 4, got ${fixedOutput} (bench_serving: output_len too small)`);
  }
}

async function sampleRows(ctx: DatasetContext, pairs: ConversationPair[]): Promise<Dataset> {
  const wanted = ctx.options.numPrompts;
  const { outputLen: fixedOutput, contextLen } = ctx.options.sharegpt;
  checkShareGptOutputLen(fixedOutput);
  ctx.rngs.python.shuffle(pairs);
  const rows: DatasetRow[] = [];
  for (let start = 0; start < pairs.length && rows.length < wanted; start += ENCODE_BATCH) {
    const batch = pairs.slice(start, start + ENCODE_BATCH);
    const prompts = batch.map(([prompt]) => preparePrompt(ctx, prompt));
    const promptIds = await ctx.tokenizer.encodeBatch(prompts);
    const completionIds = fixedOutput === null ? await ctx.tokenizer.encodeBatch(batch.map(([, completion]) => completion)) : null;
    for (let i = 0; i < batch.length && rows.length < wanted; i++) {
      const promptLen = promptIds[i]!.length;
      const outputLen = completionIds === null ? fixedOutput! : completionIds[i]!.length;
      if (promptLen < 2 || outputLen < 2) continue;
      if (contextLen && promptLen + outputLen > contextLen) continue;
      rows.push(textRow(prompts[i]!, promptLen, outputLen));
    }
  }
  printTokenTotals(ctx.print, rows.map((r) => r.promptLen), rows.map((r) => r.outputLen));
  return { rows, multiTurn: false };
}

/** `--dataset-name sharegpt`: a local ShareGPT JSON file (the Hub download is not available offline). */
export function buildShareGptDataset(ctx: DatasetContext): Promise<Dataset> {
  if (ctx.options.path === '') {
    throw new UsageError(
      'the sharegpt dataset needs --dataset-path to send its text: download ShareGPT_V3_unfiltered_cleaned_split.json (HF dataset anon8231489123/ShareGPT_Vicuna_unfiltered) and pass its path (predict and sweep --predict do without it)',
    );
  }
  return sampleRows(ctx, readShareGptPairs(ctx.options.path));
}

/** `--dataset-name custom`: a JSONL file of conversations. */
export function buildCustomDataset(ctx: DatasetContext): Promise<Dataset> {
  if (ctx.options.tokenizePrompt) throw new UsageError('--tokenize-prompt does not work with --dataset-name custom; drop one of them');
  return sampleRows(ctx, readCustomPairs(ctx.options.path));
}
