/**
 * What eval adds to bench's request of each backend: greedy decoding, the task's stop strings, the
 * token limit, and no `ignore_eos` (an answer ends where the model ends it). SGLang's /generate takes
 * these inside `sampling_params`; the OpenAI APIs at the top level, where eval also asks for the
 * usage chunk so the output token count is the server's, not the requested limit. Pure.
 */
import { UsageError } from '../core/errors.js';
import { type BackendName, backendAdapter, chatBackend, completionsBackend, nativeBackend, type BackendAdapter } from '../bench/index.js';

export interface SamplingSettings {
  maxNewTokens: number;
  stop: readonly string[];
}

/** The backend's adapter; backends without a field for stop strings or a token count (trt, truss, gserver) are refused. */
export function evalBackendAdapter(backend: BackendName): BackendAdapter {
  const adapter = backend === 'gserver' ? null : backendAdapter(backend);
  if (adapter !== nativeBackend && adapter !== completionsBackend && adapter !== chatBackend) {
    throw new UsageError(
      `eval cannot score answers over --backend ${backend} (its requests carry no stop strings or its replies no token count); use sglang, an OpenAI completions backend (sglang-oai, vllm, openai) or a chat one (sglang-oai-chat, openai-chat)`,
    );
  }
  return adapter;
}

/** The extra request body that carries the settings over `adapter`'s API (bench's payload builders add it last). */
export function samplingBody(adapter: BackendAdapter, settings: SamplingSettings): Record<string, unknown> {
  const stop = settings.stop.length > 0 ? { stop: [...settings.stop] } : {};
  if (adapter === nativeBackend) {
    // Replaces bench's sampling_params whole: the stop strings have no other place in /generate.
    return { sampling_params: { temperature: 0.0, max_new_tokens: settings.maxNewTokens, ignore_eos: false, ...stop } };
  }
  return { temperature: 0.0, ignore_eos: false, ...stop, stream_options: { include_usage: true } };
}
