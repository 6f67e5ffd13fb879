/**
 * The `openai` dataset (spec §3.4): chat-completion request bodies from JSONL, in file order.
 * Every key but the messages, token limits and model travels as the row's extra request body.
 */
import { UserError } from '../../core/errors.js';
import { isObject } from '../../core/json-object.js';
import { pythonJsonDumps } from '../../core/pyjson.js';
import type { PyValue } from '../../core/pyrepr.js';
import type { ChatMessage, Dataset, DatasetRow } from '../types.js';
import type { DatasetContext } from './context.js';
import { parseJsonl, readDatasetText } from './files.js';
import { printTokenTotals, textRow } from './rows.js';

const NOT_IN_EXTRA_BODY = new Set(['messages', 'max_tokens', 'max_completion_tokens', 'model']);
const DEFAULT_OUTPUT_LEN = 256;

/** `--dataset-name openai`. Reads until `--num-prompts` objects (all when ≤ 0); rows without messages are skipped. */
export async function buildOpenAiDataset(ctx: DatasetContext): Promise<Dataset> {
  const { path, numPrompts: wanted } = ctx.options;
  const fixedOutput = ctx.options.sharegpt.outputLen;
  const text = readDatasetText(path, 'OpenAI-format dataset', 'pass an existing JSONL file of chat requests with --dataset-path');
  const rows: DatasetRow[] = [];
  for (const { line, value } of parseJsonl(text, path, wanted)) {
    if (!isObject(value)) throw new UserError(`${path} line ${line}: expected a JSON object with "messages"; fix the line`);
    const messages = value.messages;
    if (!Array.isArray(messages) || messages.length === 0) continue;
    const requested = value.max_tokens;
    const outputLen = fixedOutput || (typeof requested === 'number' ? requested : DEFAULT_OUTPUT_LEN);
    const extra: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) if (!NOT_IN_EXTRA_BODY.has(key)) extra[key] = item;
    const templated = ctx.tokenizer.applyChatTemplate(messages as ChatMessage[], { addGenerationPrompt: true });
    let promptLen = (await ctx.tokenizer.encode(templated, false)).length;
    if ('tools' in extra) promptLen += (await ctx.tokenizer.encode(pythonJsonDumps(extra.tools as PyValue))).length;
    rows.push({ ...textRow(messages as ChatMessage[], promptLen, outputLen), extraRequestBody: extra });
  }
  ctx.print(`Loaded ${rows.length} OpenAI-format requests`);
  printTokenTotals(ctx.print, rows.map((r) => r.promptLen), rows.map((r) => r.outputLen));
  return { rows, multiTurn: false };
}
