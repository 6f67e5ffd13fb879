/**
 * Reads the server's `/metrics` during a run, off the requests' path: on a pool (and connection) of
 * its own, at the start of the measured window, every `intervalS` on an unref'd timer (a reading
 * still in flight makes the next tick skip), and at the end. During the run a reading only keeps
 * the text and when it came back; parsing waits until the run is over. A reading that fails costs a
 * count and its message, never the run. Not started (null) when the first reading finds no SGLang
 * or vLLM metrics: a server without them is benchmarked as before.
 *
 * Bounded: a reading longer than {@link MAX_READING_BYTES} fails unread past that point, and once
 * the texts kept pass {@link RAW_TEXT_BUDGET} (hours of readings) they are reduced to the few
 * figures the summary reads, and later readings as they come.
 */
import { describeError } from '../../core/errors.js';
import { getSupervisedText } from '../transport/auxiliary.js';
import { nowSeconds } from '../transport/clock.js';
import { HttpPool } from '../transport/http-pool.js';
import { parseExposition } from './exposition.js';
import { readSnapshot, type ServerSnapshot } from './snapshot.js';
import { summarizeServerMetrics, type ServerMetricsSummary, type TimedSnapshot } from './summary.js';

/** One reading: its text, or (past the budget) what the summary reads of it, null when unreadable. */
export interface ScrapeReading {
  at: number;
  reading: string | ServerSnapshot | null;
}

/** What the scrape collected: readings in order, and the readings that failed. */
export interface ScrapeLog {
  readings: ScrapeReading[];
  failed: number;
  /** The first failure's message (no credentials: the URL is never part of it). */
  firstFailure: string | null;
}

export interface ServerScrape {
  /** Takes the last reading, stops the timer, closes the connection; later calls give the same log. */
  stop(): Promise<ScrapeLog>;
}

export interface ScrapeOptions {
  /** The server's base URL (`/metrics` is appended). */
  baseUrl: string;
  headers: Record<string, string>;
  intervalS: number;
  /** How long the start and the end of the run wait for their reading (default {@link READ_TIMEOUT_S}). */
  readingWaitS?: number;
}

/** A reading that sends no byte for this long fails (and the next tick tries again). */
const READ_TIMEOUT_S = 5;
/** SGLang's and vLLM's pages are tens of KB; a reading past this is not a metrics page. */
export const MAX_READING_BYTES = 16 * 1024 * 1024;
/** Characters of reading texts kept before they are reduced to snapshots (a day of 30 KB readings a second is 2.6 GB). */
export const RAW_TEXT_BUDGET = 64 * 1024 * 1024;

async function readMetrics(pool: HttpPool, url: string, headers: Record<string, string>): Promise<string> {
  const { status, text } = await getSupervisedText(pool, url, headers, MAX_READING_BYTES);
  if (status !== 200) throw new Error(`HTTP ${status}`);
  return text;
}

const snapshotOf = (text: string): ServerSnapshot | null => readSnapshot(parseExposition(text).samples);

/**
 * Runs `work` on `pool`, failing its transfers once `seconds` pass: a server trickling its page
 * must not hold the run's start or end (the stream-idle timeout sees bytes still coming).
 */
async function withinWait<T>(pool: HttpPool, seconds: number, message: string, work: () => Promise<T>): Promise<T> {
  const cutoff = setTimeout(() => pool.abortAll(message), seconds * 1000);
  try {
    return await work();
  } finally {
    clearTimeout(cutoff);
  }
}

/** Starts scraping `baseUrl`/metrics: resolves after the first reading, or with null when the server exposes no metrics bench reads. */
export async function startServerScrape(options: ScrapeOptions): Promise<ServerScrape | null> {
  const pool = new HttpPool({ streamIdleTimeout: Math.max(READ_TIMEOUT_S, options.intervalS) });
  const url = `${options.baseUrl}/metrics`;
  const waitS = options.readingWaitS ?? READ_TIMEOUT_S;
  const first = await withinWait(pool, waitS, 'no complete /metrics reading', () => readMetrics(pool, url, options.headers)).catch(() => null);
  const firstSnapshot = first === null ? null : snapshotOf(first);
  if (firstSnapshot === null) {
    await pool.close();
    return null;
  }
  // The first reading was parsed to see whether the server has metrics at all: kept as that snapshot, not parsed again.
  const log: ScrapeLog = { readings: [{ at: nowSeconds(), reading: firstSnapshot }], failed: 0, firstFailure: null };
  const keep = readingKeeper(log);
  const read = async (): Promise<void> => {
    try {
      const text = await readMetrics(pool, url, options.headers);
      keep(nowSeconds(), text);
    } catch (error) {
      log.failed++;
      log.firstFailure ??= describeError(error);
    }
  };
  let inFlight: Promise<void> | null = null;
  const timer = setInterval(() => {
    if (inFlight !== null) return;
    inFlight = read().finally(() => {
      inFlight = null;
    });
  }, options.intervalS * 1000);
  timer.unref();
  let stopped: Promise<ScrapeLog> | null = null;
  const stop = async (): Promise<ScrapeLog> => {
    clearInterval(timer);
    await withinWait(pool, waitS, `no complete /metrics reading within ${waitS} s of the run's end`, async () => {
      if (inFlight !== null) await inFlight;
      await read();
    });
    await pool.close();
    return log;
  };
  return { stop: () => (stopped ??= stop()) };
}

/** Adds readings to `log`: as text within the budget; past it, every reading (those kept too) as its snapshot. */
export function readingKeeper(log: ScrapeLog, budget = RAW_TEXT_BUDGET): (at: number, text: string) => void {
  let kept = 0;
  let reduced = false;
  return (at, text) => {
    if (!reduced && kept + text.length <= budget) {
      kept += text.length;
      log.readings.push({ at, reading: text });
      return;
    }
    if (!reduced) {
      for (const entry of log.readings) if (typeof entry.reading === 'string') entry.reading = snapshotOf(entry.reading);
      reduced = true;
    }
    log.readings.push({ at, reading: snapshotOf(text) });
  };
}

/** The summary of a scrape log (texts parsed now), in the server's time; null when fewer than two readings are usable. */
export function summarizeScrape(log: ScrapeLog, timeScale: number): ServerMetricsSummary | null {
  const readings: TimedSnapshot[] = [];
  let unusable = 0;
  for (const reading of log.readings) {
    const snapshot = typeof reading.reading === 'string' ? snapshotOf(reading.reading) : reading.reading;
    if (snapshot === null) unusable++;
    else readings.push({ at: reading.at, snapshot });
  }
  return summarizeServerMetrics(readings, log.failed + unusable, timeScale);
}
