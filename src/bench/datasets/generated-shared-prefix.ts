/**
 * The `generated-shared-prefix` dataset (spec §3.7): G groups of P conversations sharing one
 * random-token system prompt, optionally T turns each. `--num-prompts` is ignored (Q24).
 *
 * bench_serving caches the rows in a pickle (~/.cache/sglang/benchmark) and, on a cache hit, draws
 * nothing from the RNG, so its later Poisson intervals differ from an uncached run (Q12). servebench
 * always generates (it takes seconds), so a seed gives the same schedule every time; the printed
 * "Generating new input data..." line is therefore always present.
 */
import { randomUUID } from 'node:crypto';
import { UsageError } from '../../core/errors.js';
import { formatFixed, pyFloatRepr } from '../../core/pyformat.js';
import type { Dataset, DatasetRow } from '../types.js';
import type { DatasetContext } from './context.js';
import { computeRandomLens } from './lengths.js';
import { textRow } from './rows.js';

/** `YYYYmmddHHMMSS` in local time, as `datetime.now().strftime`. */
function compactTimestamp(now: Date): string {
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${now.getFullYear()}${two(now.getMonth() + 1)}${two(now.getDate())}${two(now.getHours())}${two(now.getMinutes())}${two(now.getSeconds())}`;
}

function average(values: readonly number[]): string {
  return formatFixed(values.reduce((a, b) => a + b, 0) / values.length, 1);
}

/** `--dataset-name generated-shared-prefix`. */
export async function buildGeneratedSharedPrefixDataset(ctx: DatasetContext): Promise<Dataset> {
  const { rngs, tokenizer, print } = ctx;
  const gsp = ctx.options.gsp;
  if (ctx.options.tokenizePrompt) throw new UsageError('--tokenize-prompt does not work with --dataset-name generated-shared-prefix; drop one of them');
  const groups = gsp.numGroups;
  const perGroup = gsp.promptsPerGroup;
  const turns = gsp.numTurns;
  const ratio = gsp.rangeRatio;
  if (groups < 1 || perGroup < 1 || turns < 1) {
    throw new UsageError('--gsp-num-groups, --gsp-prompts-per-group and --gsp-num-turns must be at least 1');
  }
  print('');
  print(
    `Generating new input data... (num_groups=${groups}, ${perGroup}, system_prompt_len=${gsp.systemPromptLen}, ` +
      `question_len=${gsp.questionLen}, output_len=${gsp.outputLen}, range_ratio=${pyFloatRepr(ratio)}, num_turns=${turns})`,
  );
  const routingPrefix = `${randomUUID().replace(/-/g, '').slice(0, 8)}_${compactTimestamp(new Date())}`;
  const names = (length: string) => ({ length, ratio: '--gsp-range-ratio' });
  const systemLens = computeRandomLens(rngs.numpy, gsp.systemPromptLen, ratio, groups, names('--gsp-system-prompt-len'));
  const questionLens = computeRandomLens(rngs.numpy, gsp.questionLen, ratio, groups * perGroup * turns, names('--gsp-question-len'));
  const outputLens = computeRandomLens(rngs.numpy, gsp.outputLen, ratio, groups * perGroup, names('--gsp-output-len'));

  // gen_prompt: k ids drawn with random.choices over every vocab id, then decoded. All draws
  // happen first, in the reference order (system prompts, then questions g, p, t).
  const vocab = tokenizer.vocabIds();
  const systemIds = systemLens.map((k) => rngs.python.choices(vocab, k));
  const questionIds = questionLens.map((k) => rngs.python.choices(vocab, k));
  const systemPrompts = await tokenizer.decodeBatch(systemIds);
  const questions = await tokenizer.decodeBatch(questionIds);

  const conversations: string[][] = [];
  for (let g = 0; g < groups; g++) {
    for (let p = 0; p < perGroup; p++) {
      const base = (g * perGroup + p) * turns;
      const own = questions.slice(base, base + turns);
      conversations.push([`${systemPrompts[g]}\n\n${own[0]}`, ...own.slice(1)]);
    }
  }
  const fast = gsp.fastPrepare;
  const firstTurnLens = fast ? conversations.map(() => 1) : (await tokenizer.encodeBatch(conversations.map((c) => c[0]!))).map((ids) => ids.length);

  const rows: DatasetRow[] = conversations.map((turnPrompts, index) => {
    const row = textRow(turns === 1 ? turnPrompts[0]! : turnPrompts, firstTurnLens[index]!, outputLens[index]!);
    if (gsp.sendRoutingKey) row.routingKey = `${routingPrefix}_${Math.floor(index / perGroup)}`;
    return row;
  });
  if (!gsp.ordered) rngs.python.shuffle(rows);

  print('');
  print('Generated shared prefix dataset statistics:');
  print(`Number of groups: ${groups}`);
  print(`Prompts per group: ${perGroup}`);
  print(`Number of turns: ${turns}`);
  print(`Total prompts: ${rows.length}`);
  if (!fast) {
    print(`Total input tokens: ${firstTurnLens.reduce((a, b) => a + b, 0)}`);
    print(`Total output tokens: ${outputLens.reduce((a, b) => a + b, 0)}`);
    const systemTokens = (await tokenizer.encodeBatch(systemPrompts)).map((ids) => ids.length);
    const questionTokens = (await tokenizer.encodeBatch(questions)).map((ids) => ids.length);
    print(`Average system prompt length: ${average(systemTokens)} tokens`);
    print(`Average question length: ${average(questionTokens)} tokens`);
    print('');
  }
  return { rows, multiTurn: turns > 1 };
}
