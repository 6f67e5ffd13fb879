/**
 * The server's side of a run, put together once the run is over: its `/metrics` readings summarized,
 * each request's TTFT split, the token counts compared. Pure apart from what it is handed.
 */
import type { RequestOutput } from '../types.js';
import { tokenCountCheck, ttftSplit, type TokenCountCheck, type TtftSplit } from './per-request.js';
import { summarizeScrape, type ScrapeLog } from './scraper.js';
import type { ServerMetricsSummary } from './summary.js';

export interface ServerSide {
  /** The `/metrics` readings over the measured window; null when the server exposes none (or fewer than two readings worked). */
  metrics: ServerMetricsSummary | null;
  /** Readings that failed during the run, of those attempted, and the first failure's message; null when none failed. */
  failedScrapes: { failed: number; attempted: number; first: string | null } | null;
  ttftSplit: TtftSplit | null;
  tokenCounts: TokenCountCheck | null;
}

/** The server side of a run whose outputs are in the server's time (`timeScale`: wall seconds per server second of the readings). */
export function serverSideOf(
  scrape: ScrapeLog | null,
  outputs: readonly RequestOutput[],
  retokenizedOutputLens: readonly number[],
  timeScale: number,
): ServerSide {
  const metrics = scrape === null ? null : summarizeScrape(scrape, timeScale);
  const failed = scrape === null ? 0 : scrape.failed;
  return {
    metrics,
    failedScrapes: scrape === null || failed === 0 ? null : { failed, attempted: scrape.readings.length + failed, first: scrape.firstFailure },
    ttftSplit: ttftSplit(outputs),
    tokenCounts: tokenCountCheck(outputs, retokenizedOutputLens),
  };
}

/** Whether the run has anything of the server's to show: its metrics, or figures its responses reported. */
export function hasServerSide(side: ServerSide): boolean {
  return side.metrics !== null || side.tokenCounts !== null || (side.ttftSplit?.serverQueueReported ?? 0) > 0 || side.failedScrapes !== null;
}
