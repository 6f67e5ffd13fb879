/**
 * Conversation files of the sharegpt (JSON array) and custom (JSONL) datasets, reduced to
 * (first turn, second turn) pairs of the conversations with at least two turns (spec §3.2–3.3).
 */
import { UserError } from '../../core/errors.js';
import { isObject } from '../../core/json-object.js';
import { parseJsonDocument, parseJsonl, readDatasetText } from './files.js';

/** A prompt and the reference completion. */
export type ConversationPair = [prompt: string, completion: string];

const SHAREGPT_HINT =
  'download ShareGPT_V3_unfiltered_cleaned_split.json (HF dataset anon8231489123/ShareGPT_Vicuna_unfiltered) and pass its path with --dataset-path';

/** A record's turn list (`conversations`, else `conversation`), or [] when it has none. */
function turnsOf(record: Record<string, unknown>): unknown[] {
  const turns = record.conversations ?? record.conversation;
  return Array.isArray(turns) ? turns : [];
}

/** The text of a turn: `value` for ShareGPT; `content`, else `value`, for custom files. */
function turnText(turn: unknown, allowContent: boolean, where: string): string {
  if (isObject(turn)) {
    const text = allowContent ? (turn.content ?? turn.value) : turn.value;
    if (typeof text === 'string') return text;
  }
  throw new UserError(`${where}: a turn has no text ${allowContent ? '"content" or "value"' : '"value"'}; fix the file or pass another --dataset-path`);
}

function pairOf(record: unknown, allowContent: boolean, where: string): ConversationPair | null {
  if (!isObject(record)) throw new UserError(`${where}: expected a JSON object with "conversations"; fix the file`);
  const turns = turnsOf(record);
  if (turns.length < 2) return null;
  return [turnText(turns[0], allowContent, where), turnText(turns[1], allowContent, where)];
}

/** Pairs of a ShareGPT JSON file (a JSON array of `{conversations: [{from, value}, ...]}`). */
export function readShareGptPairs(path: string): ConversationPair[] {
  const document = parseJsonDocument(readDatasetText(path, 'ShareGPT file', SHAREGPT_HINT), path);
  if (!Array.isArray(document)) throw new UserError(`${path} is not a ShareGPT JSON array; ${SHAREGPT_HINT}`);
  const pairs: ConversationPair[] = [];
  document.forEach((record, index) => {
    const pair = pairOf(record, false, `${path} conversation ${index}`);
    if (pair !== null) pairs.push(pair);
  });
  return pairs;
}

/** Pairs of a custom JSONL file (one `{conversations: [...]}` per line). */
export function readCustomPairs(path: string): ConversationPair[] {
  const text = readDatasetText(path, 'Dataset', 'pass an existing JSONL file with --dataset-path');
  const pairs: ConversationPair[] = [];
  for (const { line, value } of parseJsonl(text, path)) {
    const pair = pairOf(value, true, `${path} line ${line}`);
    if (pair !== null) pairs.push(pair);
  }
  return pairs;
}
