/**
 * The bytes the sim streams, built from per-request templates: the fixed JSON around each chunk is
 * serialised once per request, and each emission only splices in its text and counters. Pure.
 * Shapes follow SGLang: native `/generate` streams CUMULATIVE text with `meta_info`; OpenAI routes
 * stream deltas, with `usage` per chunk only under `stream_options.continuous_usage_stats`.
 */
import type { TokenEmission } from '../types.js';
import type { OutputPlan } from '../text/output-plan.js';
import type { ChatAnswerPlan } from './chat-answer.js';

export const DONE_EVENT = 'data: [DONE]\n\n';

/** What every formatter knows about its request. */
export interface AnswerContext {
  id: string;
  model: string;
  /** Unix seconds, OpenAI's `created`. */
  created: number;
  promptTokens: number;
  plan: OutputPlan;
  /**
   * A PD prefill instance's answer: its one token ends with `{"type":"length","length":0}`, as
   * SGLang's prefill reports it (FINISH_LENGTH(0), prefill.py L760-770).
   */
  pdPrefill?: boolean;
}

export interface UsageOptions {
  /** `stream_options.include_usage`: a final `choices: []` chunk with usage. */
  includeUsage: boolean;
  /** `stream_options.continuous_usage_stats`: usage on every chunk. */
  continuousUsage: boolean;
}

/** JSON string body (no quotes) of `text`. */
function escapeJson(text: string): string {
  const quoted = JSON.stringify(text);
  return quoted.slice(1, -1);
}

function joinPieces(plan: OutputPlan, from: number, to: number): string {
  let text = '';
  for (let i = from; i < to; i++) text += plan.pieces[i];
  return text;
}

/** OpenAI `usage` object as JSON. */
export function usageJson(promptTokens: number, completionTokens: number, cachedTokens: number): string {
  return `{"prompt_tokens":${promptTokens},"completion_tokens":${completionTokens},"total_tokens":${promptTokens + completionTokens},"prompt_tokens_details":{"cached_tokens":${cachedTokens}}}`;
}

function finishJson(reason: string | null): string {
  return reason === null ? 'null' : `"${reason}"`;
}

/** OpenAI finish reason of an emission: null until the last chunk. */
function openAiFinish(emission: TokenEmission, override: string | null = null): string | null {
  if (!emission.finished) return null;
  if (emission.finishReason === 'abort') return 'abort';
  return override ?? emission.finishReason;
}

/** SGLang's `meta_info.finish_reason` of a request's last emission: why it stopped, and on what. */
export function nativeFinishReason(last: TokenEmission, matchedStop: string | null): { [key: string]: string | number | null } {
  if (last.finishReason === 'length') return { type: 'length', length: last.completionTokens };
  if (last.finishReason === 'abort') return { type: 'abort', message: 'aborted' };
  return { type: 'stop', matched: matchedStop };
}

/** SGLang native `/generate`: cumulative text plus `meta_info`. */
export class NativeFormatter {
  private escapedText = '';
  private emitted = 0;
  private cachedTokens = 0;

  constructor(private readonly context: AnswerContext) {}

  private metaInfo(emission: TokenEmission, elapsedSec: number): string {
    const { context } = this;
    const finish = !emission.finished
      ? 'null'
      : context.pdPrefill === true
        ? '{"type":"length","length":0}'
        : JSON.stringify(nativeFinishReason(emission, context.plan.matchedStop));
    return (
      `{"id":"${context.id}","finish_reason":${finish},"prompt_tokens":${context.promptTokens},` +
      `"weight_version":"default","total_retractions":0,"completion_tokens":${emission.completionTokens},` +
      `"cached_tokens":${this.cachedTokens},"spec_verify_ct":${emission.specVerifyCount},"e2e_latency":${elapsedSec}` +
      // SGLang's meta_info.queue_time: seconds in the scheduler's waiting queue, once the engine has admitted the request.
      (emission.queueTime === undefined ? '}' : `,"queue_time":${emission.queueTime}}`)
    );
  }

  private absorb(emission: TokenEmission): void {
    if (this.emitted === 0) this.cachedTokens = emission.cachedTokens;
    this.escapedText += escapeJson(joinPieces(this.context.plan, this.emitted, emission.completionTokens));
    this.emitted = emission.completionTokens;
  }

  /** The SSE text for one emission (and `[DONE]` after the last). */
  event(emission: TokenEmission, elapsedSec: number): string {
    this.absorb(emission);
    const line = `data: {"text":"${this.escapedText}","meta_info":${this.metaInfo(emission, elapsedSec)}}\n\n`;
    return emission.finished ? line + DONE_EVENT : line;
  }

  /** Accumulates an emission of a non-stream request. */
  collect(emission: TokenEmission): void {
    this.absorb(emission);
  }

  /** The non-stream body once the last emission was collected. */
  body(last: TokenEmission, elapsedSec: number): string {
    return `{"text":"${this.escapedText}","output_ids":${JSON.stringify(this.context.plan.ids.slice(0, this.emitted))},"meta_info":${this.metaInfo(last, elapsedSec)}}`;
  }
}

/** OpenAI `/v1/completions`. */
export class CompletionFormatter {
  private readonly prefix: string;
  private emitted = 0;
  private text = '';
  private cachedTokens = 0;

  constructor(
    private readonly context: AnswerContext,
    private readonly usage: UsageOptions,
  ) {
    this.prefix = `data: {"id":"${context.id}","object":"text_completion","created":${context.created},"model":${JSON.stringify(context.model)},"choices":[{"index":0,"text":"`;
  }

  event(emission: TokenEmission): string {
    if (this.emitted === 0) this.cachedTokens = emission.cachedTokens;
    const piece = joinPieces(this.context.plan, this.emitted, emission.completionTokens);
    this.emitted = emission.completionTokens;
    const usage = this.usage.continuousUsage ? usageJson(this.context.promptTokens, this.emitted, this.cachedTokens) : 'null';
    let out = `${this.prefix}${escapeJson(piece)}","logprobs":null,"finish_reason":${finishJson(openAiFinish(emission))},"matched_stop":null}],"usage":${usage}}\n\n`;
    if (emission.finished) out += this.trailer();
    return out;
  }

  private trailer(): string {
    const { context } = this;
    const usage = this.usage.includeUsage
      ? `data: {"id":"${context.id}","object":"text_completion","created":${context.created},"model":${JSON.stringify(context.model)},"choices":[],"usage":${usageJson(context.promptTokens, this.emitted, this.cachedTokens)}}\n\n`
      : '';
    return usage + DONE_EVENT;
  }

  collect(emission: TokenEmission): void {
    if (this.emitted === 0) this.cachedTokens = emission.cachedTokens;
    this.text += joinPieces(this.context.plan, this.emitted, emission.completionTokens);
    this.emitted = emission.completionTokens;
  }

  body(last: TokenEmission): string {
    const { context } = this;
    return JSON.stringify({
      id: context.id,
      object: 'text_completion',
      created: context.created,
      model: context.model,
      choices: [{ index: 0, text: this.text, logprobs: null, finish_reason: openAiFinish(last), matched_stop: null }],
      usage: JSON.parse(usageJson(context.promptTokens, this.emitted, this.cachedTokens)),
    });
  }
}

/** OpenAI `/v1/chat/completions`, with reasoning and tool calls. */
export class ChatFormatter {
  private readonly prefix: string;
  private emitted = 0;
  private cachedTokens = 0;
  private reasoning = '';
  private content = '';

  constructor(
    private readonly context: AnswerContext,
    private readonly answer: ChatAnswerPlan,
    private readonly usage: UsageOptions,
  ) {
    this.prefix = `data: {"id":"${context.id}","object":"chat.completion.chunk","created":${context.created},"model":${JSON.stringify(context.model)},"choices":[{"index":0,"delta":`;
  }

  private chunk(delta: string, finish: string | null, usage: string): string {
    return `${this.prefix}${delta},"logprobs":null,"finish_reason":${finishJson(finish)}}],"usage":${usage}}\n\n`;
  }

  private finishReason(emission: TokenEmission): string | null {
    return openAiFinish(emission, this.answer.toolCall !== null ? 'tool_calls' : null);
  }

  /** The deltas for tokens [from, to): reasoning first, then content or tool-call argument pieces. */
  private deltas(from: number, to: number): string[] {
    const { plan } = this.context;
    const split = this.answer.reasoningTokens;
    const out: string[] = [];
    const role = from === 0 ? '"role":"assistant",' : '';
    if (from < split) {
      out.push(`{${role}"content":null,"reasoning_content":"${escapeJson(joinPieces(plan, from, Math.min(to, split)))}"}`);
    }
    const start = Math.max(from, split);
    if (start >= to) return out;
    const roleHere = out.length === 0 ? role : '';
    const call = this.answer.toolCall;
    if (call === null) {
      out.push(`{${roleHere}"content":"${escapeJson(joinPieces(plan, start, to))}"}`);
      return out;
    }
    const args = call.argumentPieces.slice(start - split, to - split).join('');
    const fn = start === split ? { name: call.name, arguments: args } : { arguments: args };
    const entry = start === split ? { index: 0, id: call.id, type: 'function', function: fn } : { index: 0, function: fn };
    out.push(`{${roleHere}"content":null,"tool_calls":[${JSON.stringify(entry)}]}`);
    return out;
  }

  private absorb(emission: TokenEmission): [number, number] {
    if (this.emitted === 0) this.cachedTokens = emission.cachedTokens;
    const range: [number, number] = [this.emitted, emission.completionTokens];
    this.emitted = emission.completionTokens;
    return range;
  }

  event(emission: TokenEmission): string {
    const [from, to] = this.absorb(emission);
    const deltas = this.deltas(from, to);
    if (deltas.length === 0) deltas.push('{"content":""}');
    const usage = this.usage.continuousUsage ? usageJson(this.context.promptTokens, this.emitted, this.cachedTokens) : 'null';
    let out = '';
    for (let i = 0; i < deltas.length; i++) {
      const last = i === deltas.length - 1;
      out += this.chunk(deltas[i]!, last ? this.finishReason(emission) : null, usage);
    }
    if (emission.finished) out += this.trailer();
    return out;
  }

  private trailer(): string {
    const { context } = this;
    const usage = this.usage.includeUsage
      ? `data: {"id":"${context.id}","object":"chat.completion.chunk","created":${context.created},"model":${JSON.stringify(context.model)},"choices":[],"usage":${usageJson(context.promptTokens, this.emitted, this.cachedTokens)}}\n\n`
      : '';
    return usage + DONE_EVENT;
  }

  collect(emission: TokenEmission): void {
    const [from, to] = this.absorb(emission);
    const split = this.answer.reasoningTokens;
    const { plan } = this.context;
    if (from < split) this.reasoning += joinPieces(plan, from, Math.min(to, split));
    const start = Math.max(from, split);
    if (start < to && this.answer.toolCall === null) this.content += joinPieces(plan, start, to);
  }

  body(last: TokenEmission): string {
    const { context, answer } = this;
    const call = answer.toolCall;
    const message: Record<string, unknown> = {
      role: 'assistant',
      content: call === null ? this.content : null,
      reasoning_content: answer.reasoningTokens > 0 ? this.reasoning : null,
      tool_calls:
        call === null
          ? null
          : [{ id: call.id, index: 0, type: 'function', function: { name: call.name, arguments: call.argumentPieces.join('') } }],
    };
    return JSON.stringify({
      id: context.id,
      object: 'chat.completion',
      created: context.created,
      model: context.model,
      choices: [{ index: 0, message, logprobs: null, finish_reason: this.finishReason(last), matched_stop: null }],
      usage: JSON.parse(usageJson(context.promptTokens, this.emitted, this.cachedTokens)),
    });
  }
}

/**
 * TensorRT-LLM's Triton ensemble `generate_stream`: one `data:` line per decode step carrying that
 * step's own text, and no `[DONE]`. bench_serving appends every `text_output` it reads, so the
 * step's text, not the accumulated answer, keeps its retokenized count equal to the tokens sent.
 */
export class TrtFormatter {
  private static readonly PREFIX = 'data:{"model_name":"ensemble","model_version":"1","sequence_end":false,"sequence_id":0,"sequence_start":false,"text_output":"';
  private emitted = 0;
  private text = '';

  constructor(private readonly plan: OutputPlan) {}

  private absorb(emission: TokenEmission): string {
    const piece = joinPieces(this.plan, this.emitted, emission.completionTokens);
    this.emitted = emission.completionTokens;
    return piece;
  }

  event(emission: TokenEmission): string {
    return `${TrtFormatter.PREFIX}${escapeJson(this.absorb(emission))}"}\n\n`;
  }

  collect(emission: TokenEmission): void {
    this.text += this.absorb(emission);
  }

  /** The one response of `stream: false`, as Triton's `generate` answers: the whole text. */
  body(): string {
    return JSON.stringify({ model_name: 'ensemble', model_version: '1', sequence_end: false, sequence_id: 0, sequence_start: false, text_output: this.text });
  }
}
