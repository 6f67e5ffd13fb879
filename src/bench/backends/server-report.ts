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

/** Each figure of a report and its name in SGLang's `meta_info` (the JSONL's per-request details use the same). */
export const SERVER_REPORT_FIELDS = [
  ['promptTokens', 'prompt_tokens'],
  ['completionTokens', 'completion_tokens'],
  ['cachedTokens', 'cached_tokens'],
  ['specVerifyCount', 'spec_verify_ct'],
  ['e2eLatency', 'e2e_latency'],
  ['queueTime', 'queue_time'],
] as const satisfies ReadonlyArray<readonly [keyof ServerReport, string]>;

/** The figures an object with `meta_info`'s names states; empty when it states none. */
export function serverReportFrom(obj: unknown): ServerReport {
  const report: ServerReport = {};
  for (const [key, name] of SERVER_REPORT_FIELDS) {
    const value = numberField(obj, name);
    if (value !== undefined) report[key] = value;
  }
  return report;
}

/** The report of a response's last `meta_info` and `usage` objects (either may be undefined); undefined when neither says anything. */
export function readServerReport(metaInfo: unknown, usage: unknown): ServerReport | undefined {
  const report = serverReportFrom(metaInfo);
  // The OpenAI usage object fills what meta_info did not say.
  const fromUsage: [keyof ServerReport, number | undefined][] = [
    ['promptTokens', numberField(usage, 'prompt_tokens')],
    ['completionTokens', numberField(usage, 'completion_tokens')],
    ['cachedTokens', numberField(field(usage, 'prompt_tokens_details'), 'cached_tokens')],
  ];
  for (const [key, value] of fromUsage) if (value !== undefined && report[key] === undefined) report[key] = value;
  return Object.keys(report).length > 0 ? report : undefined;
}
