/**
 * servebench's extra lines, printed after bench_serving's closing rule so the reference block
 * above stays byte-identical. Same `{:<40} {:<10}` style.
 */
import { pyFloatRepr } from '../../core/pyformat.js';
import type { ServebenchExtras } from '../metrics/types.js';
import { BLOCK_WIDTH, numberLine, sectionHeader, textLine } from './block.js';

/**
 * The extras section: failures (per cause), requests resent (only when there were any: a run
 * without that fault prints what it always printed), queue time (with `--max-concurrency`), requested
 * versus achieved request rate, the true peaks (requests in flight at one instant, tokens in any
 * 1-second window; the block's own peaks are bench_serving's per-second buckets), and reasoning
 * TTFT when any request streamed reasoning; then
 * `appendix`, the lines a prediction adds (its expected error, src/predict/expected-error.ts).
 * Ends with a newline.
 */
export function formatExtendedBlock(extras: ServebenchExtras, appendix: readonly string[] = []): string {
  const lines = [sectionHeader('servebench extras', '-'), textLine('Failed requests:', extras.failed)];
  for (const [cause, count] of Object.entries(extras.failuresByCause)) {
    lines.push(textLine(`  ${cause}:`, count as number));
  }
  if (extras.resentRequests > 0) lines.push(textLine('Resent requests (keep-alive closed):', extras.resentRequests));
  if (extras.queueTime !== null) {
    lines.push(
      numberLine('Mean queue time (ms):', extras.queueTime.meanMs),
      numberLine('P99 queue time (ms):', extras.queueTime.p99Ms),
    );
  }
  lines.push(textLine('Requested request rate (req/s):', pyFloatRepr(extras.requestedRate)));
  if (extras.achievedRate !== null) lines.push(numberLine('Achieved request rate (req/s):', extras.achievedRate));
  lines.push(
    textLine('Peak in-flight requests:', extras.peakInFlight),
    numberLine('Peak output tok/s (1 s window):', extras.peakOutputTokensPerS),
  );
  if (extras.reasoningTtft !== null) {
    lines.push(
      numberLine('Mean reasoning TTFT (ms):', extras.reasoningTtft.meanMs),
      numberLine('Median reasoning TTFT (ms):', extras.reasoningTtft.medianMs),
      numberLine('P99 reasoning TTFT (ms):', extras.reasoningTtft.p99Ms),
    );
  }
  lines.push(...appendix, '='.repeat(BLOCK_WIDTH));
  return lines.join('\n') + '\n';
}
