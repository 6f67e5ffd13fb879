/**
 * How a chat answer is split between reasoning, content and a tool call (pure, seeded).
 * With `--reasoning-parser` the first tokens are `reasoning_content`; with `--tool-call-parser`
 * and `tools` in the request the rest is one function call whose JSON arguments stream in pieces.
 */
import { seededUniform, uniformInt } from '../text/seeded-random.js';
import type { OutputPlan } from '../text/output-plan.js';
import type { TokenPool } from '../text/token-pool.js';

export interface ToolCallPlan {
  id: string;
  name: string;
  /** The arguments JSON cut into one piece per tool-call token (concatenated, they parse). */
  argumentPieces: string[];
}

export interface ChatAnswerPlan {
  /** Tokens [0, reasoningTokens) are reasoning; the rest are content or the tool call. */
  reasoningTokens: number;
  toolCall: ToolCallPlan | null;
}

/** A tool the request offers, reduced to what the sim needs. */
export interface OfferedTool {
  name: string;
  parameters: Record<string, unknown> | null;
}

/** Parsers whose models think only when asked (`chat_template_kwargs.thinking: true`). */
const THINK_ONLY_WHEN_ASKED = new Set(['deepseek-v3', 'deepseek-v31', 'deepseek-v32']);

/** Whether a chat answer starts with reasoning, from the parser and the request's template kwargs. */
export function reasoningEnabled(parser: string | null, kwargs: Record<string, unknown> | null): boolean {
  if (parser === null) return false;
  const asked = kwargs?.['thinking'] ?? kwargs?.['enable_thinking'];
  if (asked === false) return false;
  if (asked === true) return true;
  return !THINK_ONLY_WHEN_ASKED.has(parser);
}

/** Splits `tokens` into a reasoning part (30–70 %, at least one content token left). */
export function drawReasoningTokens(tokens: number, seed: number, requestIndex: number): number {
  if (tokens < 2) return 0;
  const random = seededUniform(seed ^ 0x5eed, requestIndex);
  const share = 0.3 + 0.4 * random();
  return Math.min(tokens - 1, Math.max(1, Math.round(tokens * share)));
}

function argumentValue(schema: unknown, words: () => string, random: () => number): unknown {
  const s = (schema ?? {}) as Record<string, unknown>;
  if (Array.isArray(s['enum']) && s['enum'].length > 0) return s['enum'][0];
  switch (s['type']) {
    case 'integer':
      return uniformInt(random, 1, 100);
    case 'number':
      return Math.round(random() * 10000) / 100;
    case 'boolean':
      return random() < 0.5;
    case 'array':
      return [argumentValue(s['items'], words, random)];
    case 'object':
      return {};
    default:
      return words().trim();
  }
}

/** Builds plausible arguments from a JSON-schema `parameters` object: its required properties (or all). */
export function buildToolArguments(parameters: Record<string, unknown> | null, pool: TokenPool, seed: number, requestIndex: number): string {
  const random = seededUniform(seed ^ 0x7001, requestIndex);
  const words = (): string => {
    const n = uniformInt(random, 1, 3);
    let text = '';
    for (let i = 0; i < n; i++) text += pool.texts[Math.floor(random() * pool.texts.length)];
    return text;
  };
  const properties = (parameters?.['properties'] ?? {}) as Record<string, unknown>;
  const required = Array.isArray(parameters?.['required']) ? (parameters!['required'] as unknown[]).map(String) : [];
  const names = required.length > 0 ? required : Object.keys(properties);
  const args: Record<string, unknown> = {};
  for (const name of names) args[name] = argumentValue(properties[name], words, random);
  return JSON.stringify(args);
}

/** Cuts `text` into `count` consecutive pieces of near-equal length (some empty when text is short). */
export function splitIntoPieces(text: string, count: number): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < count; i++) pieces.push(text.slice(Math.floor((i * text.length) / count), Math.floor(((i + 1) * text.length) / count)));
  return pieces;
}

/** Plans the reasoning/content/tool-call split of one chat answer. */
export function planChatAnswer(options: {
  plan: OutputPlan;
  reasoning: boolean;
  tool: OfferedTool | null;
  pool: TokenPool;
  seed: number;
  requestIndex: number;
  callId: string;
}): ChatAnswerPlan {
  const { plan, pool, seed, requestIndex } = options;
  const reasoningTokens = options.reasoning ? drawReasoningTokens(plan.tokens, seed, requestIndex) : 0;
  if (options.tool === null) return { reasoningTokens, toolCall: null };
  const callTokens = Math.max(1, plan.tokens - reasoningTokens);
  const args = buildToolArguments(options.tool.parameters, pool, seed, requestIndex);
  return {
    reasoningTokens: Math.min(reasoningTokens, plan.tokens - 1),
    toolCall: { id: options.callId, name: options.tool.name, argumentPieces: splitIntoPieces(args, callTokens) },
  };
}
