/**
 * One generation request (a POST) whose response is read as it arrives. Each socket read is
 * stamped with the run clock before anything parses it (connection.ts); a stream's de-chunked
 * bytes go straight to the byte-level line splitter, and every line of a read carries that read's
 * arrival time. A non-stream body is collected and handed over whole. A line callback that throws
 * (a malformed chunk) fails the transfer with that error.
 */
import type { FailureCause } from '../types.js';
import { BodyBuffer } from './body-buffer.js';
import { classifyTransportError } from './errors.js';
import type { HttpPool } from './http-pool.js';
import { LineSplitter } from './line-splitter.js';
import { roundTrip } from './round-trip.js';
import type { HttpRequest, ResponseHandler } from './round-trip.js';

export interface ExchangeRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** Stream mode: called for each complete line with the arrival time of its last read. */
  onLine?: (line: string, now: number) => void;
  /** Body mode (no onLine): called once with the whole body and the time its last byte arrived. */
  onBody?: (body: string, now: number) => void;
}

export type ExchangeOutcome = { ok: true } | { ok: false; cause: FailureCause; error: string };

const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** Sends one POST and resolves when the response has been consumed or the transfer failed. */
export async function exchange(pool: HttpPool, request: ExchangeRequest, st: number): Promise<ExchangeOutcome> {
  const { onLine, onBody } = request;
  let outcome: ExchangeOutcome = { ok: true };
  let body: BodyBuffer | null = null;
  let splitter: LineSplitter | null = null;
  // One callback for the whole transfer: lines of a read share the read's arrival time.
  let readTime = st;
  const emitLine = (line: string): void => onLine!(line, readTime);

  const handler: ResponseHandler = {
    onHead(status, reason) {
      if (status !== 200) {
        body = new BodyBuffer(MAX_ERROR_BODY_BYTES);
        // The reference's error text: "<reason phrase>: <response body>".
        outcome = { ok: false, cause: 'http_status', error: reason };
      } else if (onLine) splitter = new LineSplitter();
      else body = new BodyBuffer();
    },
    onBody(bytes, start, end, now) {
      if (splitter) {
        readTime = now;
        splitter.push(bytes, start, end, emitLine);
      } else body!.push(bytes, start, end);
    },
    onComplete(now) {
      if (!outcome.ok) outcome.error = `${outcome.error}: ${body!.text()}`;
      // An unterminated last line arrived with the last read, at `readTime`.
      else if (splitter) splitter.flush(emitLine);
      else onBody?.(body!.text(), now);
    },
  };

  const post: HttpRequest = { method: 'POST', url: request.url, headers: request.headers, body: request.body };
  const error = await roundTrip(pool, post, handler, { sentAt: st, supervised: true });
  if (error === null) return outcome;
  const { cause, message } = classifyTransportError(error);
  return { ok: false, cause, error: message };
}
