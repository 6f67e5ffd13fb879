/**
 * Few-shot GSM8K as SGLang's `sglang.test.few_shot_gsm8k` runs it: each example is
 * `Question: <q>\nAnswer: <worked answer>` followed by a blank line, the examples are the first
 * k records of the same file, the question ends in `Answer:`, generation stops at `Question`,
 * `Assistant:` or `<|separator|>`, and the answer is the last integer of the reply. Pure.
 * Where lm-evaluation-harness differs: docs/EVAL.md.
 */
import { UsageError, UserError } from '../core/errors.js';
import type { EvalQuestion, TaskSettings } from './types.js';

/** One record of the public GSM8K JSONL (`{"question": ..., "answer": "... #### 42"}`). */
export interface Gsm8kItem {
  question: string;
  answer: string;
}

export const GSM8K_SETTINGS: TaskSettings = {
  stop: ['Question', 'Assistant:', '<|separator|>'],
  defaultMaxNewTokens: 512,
  defaultNumShots: 5,
  defaultNumQuestions: 200,
};

const EXPECTED_RECORD = 'a JSON object with string "question" and "answer", the answer ending in "#### N"';
/** The public files end every worked answer with `#### <number>`. */
const FINAL_ANSWER = /####\s*-?[0-9][0-9.,]*\s*$/;

function describe(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** The records of a GSM8K JSONL text; `source` names the file in the one-line error a bad line gets. */
export function parseGsm8k(text: string, source: string): Gsm8kItem[] {
  const items: Gsm8kItem[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '') continue;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      throw new UserError(`${source}:${i + 1}: expected ${EXPECTED_RECORD}; the line is not JSON`);
    }
    const { question, answer } = (record ?? {}) as Record<string, unknown>;
    if (typeof question !== 'string' || typeof answer !== 'string' || !FINAL_ANSWER.test(answer) || lastInteger(answer) === null) {
      throw new UserError(`${source}:${i + 1}: expected ${EXPECTED_RECORD}, got ${describe(record)}`);
    }
    items.push({ question, answer });
  }
  if (items.length === 0) throw new UserError(`${source}: expected GSM8K JSONL (${EXPECTED_RECORD} per line); the file has no records`);
  return items;
}

/** One example: `Question: <q>\nAnswer:`, plus ` <answer>` for a few-shot example. */
export function gsm8kExample(item: Gsm8kItem, includeAnswer: boolean): string {
  const asked = `Question: ${item.question}\nAnswer:`;
  return includeAnswer ? `${asked} ${item.answer}` : asked;
}

/** The few-shot prefix: each example followed by a blank line. */
export function gsm8kFewShotPrefix(shots: readonly Gsm8kItem[]): string {
  return shots.map((shot) => `${gsm8kExample(shot, true)}\n\n`).join('');
}

/**
 * The last run of digits in `text` once thousands separators are dropped, as SGLang reads it: the
 * sign and any decimals are not part of it, and a run Python's `ast.literal_eval` refuses (a
 * leading zero as in `007`, digits of another script) makes the answer invalid (null).
 */
export function lastInteger(text: string): string | null {
  const runs = text.replaceAll(',', '').match(/\p{Nd}+/gu);
  const last = runs?.at(-1);
  if (last === undefined || !/^[0-9]+$/.test(last)) return null;
  if (/^0+$/.test(last)) return '0';
  return last.startsWith('0') ? null : last;
}

export interface Gsm8kSelection {
  numShots: number;
  /** Questions from the start of the file; more than it holds asks them all. */
  numQuestions: number;
}

/** The questions of a run: the first `numQuestions` records, each after the first `numShots` as examples. */
export function gsm8kQuestions(items: readonly Gsm8kItem[], selection: Gsm8kSelection): EvalQuestion[] {
  if (selection.numShots > items.length) {
    throw new UsageError(`--num-shots ${selection.numShots} needs that many records for examples; the data has ${items.length}`);
  }
  const prefix = gsm8kFewShotPrefix(items.slice(0, selection.numShots));
  return items.slice(0, selection.numQuestions).map((item) => {
    const asked = gsm8kExample(item, false);
    return {
      subject: null,
      question: asked,
      prompt: prefix + asked,
      // Never null: parseGsm8k refused answers whose last number SGLang could not read.
      reference: lastInteger(item.answer)!,
    };
  });
}
