/**
 * The `mooncake` dataset as the INTENDED trace replay of spec §3.10 (Q4 fixed: the reference
 * crashes before warmup, and replays only for `--backend sglang`).
 *
 * The first `--num-prompts` records of the JSONL trace (`{timestamp: ms, output_length,
 * hash_ids}`) are sorted by timestamp (stable). Session k is released
 * `(ts_k − ts_0) / 1000 · slowdown` seconds after replay start; all its rounds carry that
 * `timestamp` and are emitted back to back. Round i's user turn is `Round {i+1}: ` + a text made
 * of the hash ids (`{id}` + 128 × "hi"), ending in `Tell me a story based on this context.`;
 * the prompt is the chat template over the history so far (fallback: `role: content` lines) and
 * each round appends a placeholder answer of output_length × "story". The warmup row comes from the
 * file's first record: 512 × "hi" per hash id, no template, output_length default 32.
 * Rows work with every backend: chat backends get the history as messages (the server applies
 * the template; prompt_len is still the templated length), others the templated text.
 */
import { UserError } from '../../core/errors.js';
import { isObject } from '../../core/json-object.js';
import { pyFloatRepr } from '../../core/pyformat.js';
import type { Tokenizer } from '../../tokenizer/index.js';
import type { ChatMessage, Dataset, DatasetRow } from '../types.js';
import type { DatasetContext } from './context.js';
import { parseJsonl, readDatasetText } from './files.js';
import { textRow } from './rows.js';

const TRACE_URLS: Record<string, string> = {
  mooncake: 'https://raw.githubusercontent.com/kvcache-ai/Mooncake/main/FAST25-release/arxiv-trace/mooncake_trace.jsonl',
  conversation: 'https://raw.githubusercontent.com/kvcache-ai/Mooncake/main/FAST25-release/traces/conversation_trace.jsonl',
  synthetic: 'https://raw.githubusercontent.com/kvcache-ai/Mooncake/main/FAST25-release/traces/synthetic_trace.jsonl',
  toolagent: 'https://raw.githubusercontent.com/kvcache-ai/Mooncake/main/FAST25-release/traces/toolagent_trace.jsonl',
};

/** One trace record. */
export interface MooncakeRecord {
  timestamp: number;
  outputLength: number | null;
  hashIds: number[];
}

function toRecord(value: unknown, where: string): MooncakeRecord {
  if (!isObject(value) || typeof value.timestamp !== 'number') {
    throw new UserError(`${where}: expected an object with a numeric "timestamp" (ms); fix the trace line`);
  }
  const hashIds = value.hash_ids ?? [];
  if (!Array.isArray(hashIds)) throw new UserError(`${where}: "hash_ids" must be a list of integers; fix the trace line`);
  const output = value.output_length;
  return { timestamp: value.timestamp, outputLength: typeof output === 'number' ? output : null, hashIds: hashIds as number[] };
}

/** `{id}` + `hi` × count joined by spaces, for every hash id, then the closing request. */
export function hashIdText(hashIds: readonly number[], hiCount: number, closing: string): string {
  const his = new Array<string>(hiCount).fill('hi').join(' ');
  return hashIds.map((id) => `${id}${his}`).join('') + closing;
}

function renderHistory(tokenizer: Tokenizer, history: ChatMessage[]): string {
  if (tokenizer.hasChatTemplate) {
    try {
      return tokenizer.applyChatTemplate(history, { addGenerationPrompt: true });
    } catch {
      // Fall through to the plain rendering, as bench_serving does when templating fails.
    }
  }
  return history.map((m) => `${m.role}: ${m.content}`).join('\n');
}

/** The two lines bench_serving prints when the replay starts. */
export function mooncakeReplayLines(sessions: number, rounds: number, slowdown: number): string[] {
  return [
    'Using time-based Mooncake request scheduler, ignoring --request-rate.',
    `Starting Mooncake trace replay. Sessions: ${sessions}, Rounds per session: ${rounds}. Slowdown factor: ${pyFloatRepr(slowdown)}`,
  ];
}

/** `--dataset-name mooncake`: a local trace file (`--dataset-path`, else /tmp/<workload>_trace.jsonl). */
export async function buildMooncakeDataset(ctx: DatasetContext): Promise<Dataset> {
  const { options, tokenizer } = ctx;
  const { workload, slowdownFactor: slowdown, numRounds: rounds } = options.mooncake;
  const path = options.path || `/tmp/${workload}_trace.jsonl`;
  if (rounds < 1) throw new UserError(`--mooncake-num-rounds must be at least 1, got ${rounds}`);
  const text = readDatasetText(path, 'Mooncake trace', `download ${TRACE_URLS[workload]} and pass it with --dataset-path`);
  const records = parseJsonl(text, path, options.numPrompts).map(({ line, value }) => toRecord(value, `${path} line ${line}`));
  if (records.length === 0) throw new UserError(`${path} has no trace records: pass a Mooncake JSONL trace with --dataset-path`);

  const first = records[0]!;
  const warmupPrompt = hashIdText(first.hashIds, 512, 'Can you tell me a detailed story in 1000 words?');
  const warmupRow = textRow(warmupPrompt, (await tokenizer.encode(warmupPrompt)).length, first.outputLength ?? 32);

  const sessions = [...records].sort((a, b) => a.timestamp - b.timestamp);
  const start = sessions[0]!.timestamp;
  const asMessages = ctx.backend.endsWith('-chat');
  const prompts: string[] = [];
  const meta: { timestamp: number; outputLen: number; history: ChatMessage[] }[] = [];
  for (const session of sessions) {
    const base = hashIdText(session.hashIds, 128, 'Tell me a story based on this context.');
    const outputLen = session.outputLength ?? 256;
    const timestamp = ((session.timestamp - start) / 1000) * slowdown;
    const history: ChatMessage[] = [];
    for (let i = 0; i < rounds; i++) {
      history.push({ role: 'user', content: `Round ${i + 1}: ${base}` });
      prompts.push(renderHistory(tokenizer, history));
      meta.push({ timestamp, outputLen, history: history.slice() });
      history.push({ role: 'assistant', content: new Array<string>(outputLen).fill('story').join(' ') });
    }
  }
  const lengths = (await tokenizer.encodeBatch(prompts)).map((ids) => ids.length);
  const rows: DatasetRow[] = prompts.map((prompt, i) => {
    const { timestamp, outputLen, history } = meta[i]!;
    return { ...textRow(asMessages ? history : prompt, lengths[i]!, outputLen), timestamp };
  });
  for (const line of mooncakeReplayLines(sessions.length, rounds, slowdown)) ctx.print(line);
  return { rows, warmupRow, multiTurn: false };
}
