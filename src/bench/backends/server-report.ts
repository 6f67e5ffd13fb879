/**
 * What a response says about itself: SGLang's `meta_info` (`prompt_tokens`, `completion_tokens`,
 * `cached_tokens`, `spec_verify_ct`, `e2e_latency`, `queue_time`) or the OpenAI `usage` object
 * (`prompt_tokens`, `completion_tokens`, `prompt_tokens_details.cached_tokens`). The parsers keep a
 * reference to the last such object a stream carried and read it once, after the response. Pure.
 */
import type { ServerReport } from '../types.js';
import { field } from './timeline.js';

/** A count or duration the response states: finite and not negative, else not taken (a server's nonsense never enters a mean). */
function numberField(obj: unknown, key: string): number | undefined {
  const value = field(obj, key);
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** The report of a response's last `meta_info` and `usage` objects (either may be undefined); undefined when neither says anything. */
export function readServerReport(metaInfo: unknown, usage: unknown): ServerReport | undefined {
  const report: ServerReport = {};
  const set = <K extends keyof ServerReport>(key: K, value: number | undefined): void => {
    if (value !== undefined && report[key] === undefined) report[key] = value;
  };
  set('promptTokens', numberField(metaInfo, 'prompt_tokens'));
  set('completionTokens', numberField(metaInfo, 'completion_tokens'));
  set('cachedTokens', numberField(metaInfo, 'cached_tokens'));
  set('specVerifyCount', numberField(metaInfo, 'spec_verify_ct'));
  set('e2eLatency', numberField(metaInfo, 'e2e_latency'));
  set('queueTime', numberField(metaInfo, 'queue_time'));
  set('promptTokens', numberField(usage, 'prompt_tokens'));
  set('completionTokens', numberField(usage, 'completion_tokens'));
  set('cachedTokens', numberField(field(usage, 'prompt_tokens_details'), 'cached_tokens'));
  return Object.keys(report).length > 0 ? report : undefined;
}
