/**
 * The text of SGLang's scheduler lines (scheduler_metrics_mixin.py, 2026 releases): fields in
 * SGLang's order, ratios and rates with two decimals, Python's True/False.
 */
import { formatFixed } from '../../core/pyformat.js';
import type { DecodeLine, PrefillLine, SchedulerLine } from './scheduler-log-lines.js';

const two = (x: number): string => formatFixed(x, 2);
const pyBool = (b: boolean): string => (b ? 'True' : 'False');

/** `Prefill batch, #new-seq: 1, #new-token: 9, ..., input throughput (token/s): 1.81, cuda graph: False` */
function prefillMessage(line: PrefillLine): string {
  return (
    `Prefill batch, #new-seq: ${line.newSeqs}, #new-token: ${line.newTokens}, #cached-token: ${line.cachedTokens}, ` +
    `token usage: ${two(line.tokenUsage)}, #running-req: ${line.runningReqs}, #queue-req: ${line.queueReqs}, ` +
    `input throughput (token/s): ${two(line.inputThroughput)}, cuda graph: ${pyBool(line.cudaGraph)}`
  );
}

/** `Decode batch, #running-req: 2, #token: 84, token usage: 0.00, [accept len: 2.47, accept rate: 0.82, ]cuda graph: True, ...` */
function decodeMessage(line: DecodeLine): string {
  const accept = line.accept === null ? '' : `accept len: ${two(line.accept.length)}, accept rate: ${two(line.accept.rate)}, `;
  return (
    `Decode batch, #running-req: ${line.runningReqs}, #token: ${line.tokens}, token usage: ${two(line.tokenUsage)}, ${accept}` +
    `cuda graph: ${pyBool(line.cudaGraph)}, gen throughput (token/s): ${two(line.genThroughput)}, #queue-req: ${line.queueReqs}`
  );
}

/** The message of a scheduler line (without timestamp and prefix: log-line.ts adds those). */
export function schedulerMessage(line: SchedulerLine): string {
  return line.kind === 'prefill' ? prefillMessage(line) : decodeMessage(line);
}
