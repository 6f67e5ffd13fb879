/**
 * The server's side of a run, printed after the extras in the same `{:<40} {:<10}` lines: what its
 * `/metrics` counted over the measured window, where TTFT went, whether its token counts match the
 * client's. A figure the server did not give reads `n/a`; a section it gave nothing for is left out.
 */
import { formatFixed } from '../../core/pyformat.js';
import type { ServerSide } from '../server-metrics/server-side.js';
import type { GaugeSummary } from '../server-metrics/summary.js';
import { BLOCK_WIDTH, numberLine, sectionHeader, textLine } from './block.js';

const NA = 'n/a';

function valueLine(label: string, value: number | null, scale = 1): string {
  return value === null ? textLine(label, NA) : numberLine(label, value * scale);
}

function gaugeLines(name: string, unit: string, gauge: GaugeSummary | null, scale = 1): string[] {
  return [valueLine(`Mean ${name}${unit}:`, gauge && gauge.mean, scale), valueLine(`Max ${name}${unit}:`, gauge && gauge.max, scale)];
}

/** The section's lines (ending with the closing rule and a newline), or '' when the server gave nothing to show. */
export function formatServerBlock(side: ServerSide): string {
  const lines: string[] = [];
  const { metrics, ttftSplit, tokenCounts } = side;
  if (metrics !== null) {
    lines.push(
      textLine('Metrics read (scrapes):', `${metrics.dialect}, ${metrics.scrapes} over ${formatFixed(metrics.windowS, 2)} s`),
      valueLine('Prefix cache hit rate (%):', metrics.prefixCacheHitRate, 100),
      valueLine('Mean server queue time (ms):', metrics.queueTime && metrics.queueTime.meanMs),
      valueLine('P99 server queue time (ms, buckets):', metrics.queueTime && metrics.queueTime.p99Ms),
      ...gaugeLines('running requests', '', metrics.running),
      ...gaugeLines('queued requests', '', metrics.queued),
      ...gaugeLines('KV cache usage', ' (%)', metrics.kvUsage, 100),
      valueLine('Server gen throughput (tok/s):', metrics.generationThroughput),
    );
    if (metrics.specAcceptLength !== null) lines.push(numberLine('Server accept length:', metrics.specAcceptLength));
  }
  if (ttftSplit !== null && (ttftSplit.serverQueueReported > 0 || metrics !== null)) {
    lines.push(sectionHeader('TTFT split, from due (mean)', '-'), numberLine('Client queue, before TTFT (ms):', ttftSplit.clientQueueMs));
    if (ttftSplit.serverQueueMs !== null) {
      const partial = ttftSplit.serverQueueReported < ttftSplit.requests ? ` (${ttftSplit.serverQueueReported} of ${ttftSplit.requests})` : '';
      lines.push(numberLine(`Server queue (ms)${partial}:`, ttftSplit.serverQueueMs));
      lines.push(numberLine('Rest of TTFT (ms):', ttftSplit.restMs));
    } else {
      lines.push(textLine('Server queue (ms):', NA), numberLine('TTFT, not split (ms):', ttftSplit.restMs));
    }
  }
  if (tokenCounts !== null) {
    lines.push(textLine('Token counts differing (client/server):', `${tokenCounts.differing} of ${tokenCounts.checked}`));
  }
  if (lines.length === 0) return '';
  return [sectionHeader('servebench server side', '-'), ...lines, '='.repeat(BLOCK_WIDTH)].join('\n') + '\n';
}

/** Lines to say after the block: readings that failed, and token counts that differ; none when all is well. */
export function serverSideNotes(side: ServerSide): string[] {
  const notes: string[] = [];
  const failed = side.failedScrapes;
  if (failed !== null) {
    const first = failed.first === null ? '' : ` (first: ${failed.first})`;
    notes.push(`warning: ${failed.failed} of ${failed.attempted} /metrics readings failed during the run${first}; the server figures come from the others`);
  }
  const counts = side.tokenCounts;
  if (counts !== null && counts.differing > 0) {
    notes.push(
      `warning: ${counts.differing} of ${counts.checked} requests: the client's token count (retokenized output) differs from the server's completion_tokens`,
    );
  }
  return notes;
}
