/**
 * Backend name → adapter (spec §2). `openai` / `openai-chat` speak the vllm / vllm-chat wire format
 * to any OpenAI-compatible server. `gserver` is rejected: the reference only raises NotImplementedError (Q16).
 */
import { UserError } from '../../core/errors.js';
import type { BackendName } from '../args/types.js';
import { chatBackend } from './chat.js';
import { completionsBackend, trussBackend } from './completions.js';
import { nativeBackend } from './native.js';
import { trtBackend } from './trt.js';
import type { BackendAdapter } from './types.js';

const ADAPTERS: Record<Exclude<BackendName, 'gserver'>, BackendAdapter> = {
  sglang: nativeBackend,
  'sglang-native': nativeBackend,
  'sglang-oai': completionsBackend,
  vllm: completionsBackend,
  lmdeploy: completionsBackend,
  openai: completionsBackend,
  'sglang-oai-chat': chatBackend,
  'vllm-chat': chatBackend,
  'lmdeploy-chat': chatBackend,
  'openai-chat': chatBackend,
  trt: trtBackend,
  truss: trussBackend,
};

/** The adapter of a backend; throws a one-line UserError for `gserver`. */
export function backendAdapter(name: BackendName): BackendAdapter {
  if (name === 'gserver') {
    throw new UserError("backend 'gserver' has no request implementation (bench_serving raises NotImplementedError); choose another --backend");
  }
  return ADAPTERS[name];
}

/** Chat backends, the only ones that accept multi-turn conversations (§2.8). */
export function isChatBackend(name: BackendName): boolean {
  return backendAdapter(name) === chatBackend;
}

export type { BackendAdapter, ParsedResponse, PayloadOptions, ResponseParser } from './types.js';
export { feedBody, feedLine } from './lines.js';
export { MalformedChunkError } from './timeline.js';
export { requestHeaders, runHeaders } from './headers.js';
export type { RunHeaders } from './headers.js';
