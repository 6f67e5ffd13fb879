/**
 * What one request will answer: how many tokens, why it stops, and the text of every token.
 * Pure and seeded, so the same request under the same `--sim-seed` always gets the same answer.
 */
import { seededUniform, uniformInt, type UniformSource } from './seeded-random.js';
import type { TokenPool } from './token-pool.js';

export interface OutputPlan {
  /** Tokens the engine must generate (stop strings included, as SGLang counts them). */
  tokens: number;
  finishReason: 'length' | 'stop';
  /** Visible text of each token, index-aligned; text cut by a stop string is dropped. */
  pieces: string[];
  /** Token ids of the answer (native `output_ids`). */
  ids: number[];
  /** The stop string that ended the answer, when one did. */
  matchedStop: string | null;
}

export interface PlanRequest {
  maxNewTokens: number;
  ignoreEos: boolean;
  stop: string[];
  /** Also used as the per-request stream of the seeded draws. */
  requestIndex: number;
}

/**
 * Without `ignore_eos` the answer ends early at a seeded uniform length in [1, max_new_tokens]
 * (finish `stop`, as an EOS would); with it, the answer always runs to max_new_tokens (`length`).
 */
export function drawOutputLength(random: UniformSource, maxNewTokens: number, ignoreEos: boolean): number {
  if (ignoreEos || maxNewTokens <= 1) return maxNewTokens;
  return uniformInt(random, 1, maxNewTokens);
}

/** Plans one answer drawn from the token pool. */
export function planOutput(pool: TokenPool, seed: number, request: PlanRequest): OutputPlan {
  const random = seededUniform(seed, request.requestIndex);
  const length = drawOutputLength(random, request.maxNewTokens, request.ignoreEos);
  const pieces: string[] = new Array(length);
  const ids: number[] = new Array(length);
  for (let i = 0; i < length; i++) {
    const k = Math.floor(random() * pool.texts.length);
    pieces[i] = pool.texts[k]!;
    ids[i] = pool.ids[k]!;
  }
  const finishReason = length === request.maxNewTokens ? 'length' : 'stop';
  return applyStopStrings({ tokens: length, finishReason, pieces, ids, matchedStop: null }, request.stop);
}

/**
 * Ends the answer at the earliest stop-string match: the token that completes the match is the
 * last one generated, and the visible text stops right before the match (OpenAI/SGLang semantics).
 */
export function applyStopStrings(plan: OutputPlan, stops: readonly string[]): OutputPlan {
  const wanted = stops.filter((s) => s.length > 0);
  if (wanted.length === 0) return plan;
  let text = '';
  for (let i = 0; i < plan.pieces.length; i++) {
    const before = text.length;
    text += plan.pieces[i];
    let cut = -1;
    let matched: string | null = null;
    for (const stop of wanted) {
      const at = text.indexOf(stop, Math.max(0, before - stop.length + 1));
      if (at !== -1 && (cut === -1 || at < cut)) {
        cut = at;
        matched = stop;
      }
    }
    if (cut === -1) continue;
    const pieces = plan.pieces.slice(0, i + 1);
    let offset = 0;
    for (let j = 0; j < pieces.length; j++) {
      const start = offset;
      offset += pieces[j]!.length;
      pieces[j] = start >= cut ? '' : pieces[j]!.slice(0, Math.max(0, cut - start));
    }
    return { tokens: i + 1, finishReason: 'stop', pieces, ids: plan.ids.slice(0, i + 1), matchedStop: matched };
  }
  return plan;
}
