/**
 * Reads the server's `/metrics` during a run, off the requests' path: on a pool (and connection) of
 * its own, at the start of the measured window, every `intervalS` on an unref'd timer (a reading
 * still in flight makes the next tick skip), and at the end. During the run a reading only keeps
 * the text and when it came back; parsing waits until the run is over. A reading that fails costs a
 * count and its message, never the run. Not started (null) when the first reading finds no SGLang
 * or vLLM metrics: a server without them is benchmarked as before.
 */
import { describeError } from '../../core/errors.js';
import { getSupervisedText } from '../transport/auxiliary.js';
import { nowSeconds } from '../transport/clock.js';
import { HttpPool } from '../transport/http-pool.js';
import { parseExposition } from './exposition.js';
import { readSnapshot } from './snapshot.js';
import { summarizeServerMetrics, type ServerMetricsSummary, type TimedSnapshot } from './summary.js';

/** What the scrape collected: raw readings in order, and the readings that failed. */
export interface ScrapeLog {
  readings: Array<{ at: number; text: string }>;
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
}

/** A reading that sends no byte for this long fails (and the next tick tries again). */
const READ_TIMEOUT_S = 5;

async function readMetrics(pool: HttpPool, url: string, headers: Record<string, string>): Promise<string> {
  const { status, text } = await getSupervisedText(pool, url, headers);
  if (status !== 200) throw new Error(`HTTP ${status}`);
  return text;
}

/** Starts scraping `baseUrl`/metrics: resolves after the first reading, or with null when the server exposes no metrics bench reads. */
export async function startServerScrape(options: ScrapeOptions): Promise<ServerScrape | null> {
  const pool = new HttpPool({ streamIdleTimeout: Math.max(READ_TIMEOUT_S, options.intervalS) });
  const url = `${options.baseUrl}/metrics`;
  let first: string;
  try {
    first = await readMetrics(pool, url, options.headers);
  } catch {
    await pool.close();
    return null;
  }
  if (readSnapshot(parseExposition(first).samples) === null) {
    await pool.close();
    return null;
  }
  const log: ScrapeLog = { readings: [{ at: nowSeconds(), text: first }], failed: 0, firstFailure: null };
  const read = async (): Promise<void> => {
    try {
      const text = await readMetrics(pool, url, options.headers);
      log.readings.push({ at: nowSeconds(), text });
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
    if (inFlight !== null) await inFlight;
    await read();
    await pool.close();
    return log;
  };
  return { stop: () => (stopped ??= stop()) };
}

/** The summary of a scrape log (every reading parsed now), in the server's time; null when fewer than two readings are usable. */
export function summarizeScrape(log: ScrapeLog, timeScale: number): ServerMetricsSummary | null {
  const readings: TimedSnapshot[] = [];
  let unusable = 0;
  for (const reading of log.readings) {
    const snapshot = readSnapshot(parseExposition(reading.text).samples);
    if (snapshot === null) unusable++;
    else readings.push({ at: reading.at, snapshot });
  }
  return summarizeServerMetrics(readings, log.failed + unusable, timeScale);
}
