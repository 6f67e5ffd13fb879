/**
 * One generation request (a POST, already in bytes) whose response is read as it arrives. Each socket read is
 * stamped with the run clock before anything parses it (connection.ts); a stream's de-chunked
 * bytes go straight to the byte-level line splitter, and every line of a read carries that read's
 * arrival time. A non-stream body is collected and handed over whole. A line callback that throws
 * (a malformed chunk) fails the transfer with that error.
 */
import { BodyBuffer } from './body-buffer.js';
import { BadStatusError, EmptyResponseError } from './errors.js';
import type { HttpPool } from './http-pool.js';
import { LineSplitter } from './line-splitter.js';
import { roundTrip, type ResponseHandler, type SentRequest, type StartStamp, type WireRequest } from './round-trip.js';

export interface ExchangeRequest {
  /** The POST as bytes (round-trip.ts `toWire`), built before it is due. */
  wire: WireRequest;
  /** The bytes went out (again after a resend): what the response is timed from. */
  onSent(sent: SentRequest): void;
  /** Stream mode: called for each complete line with the arrival time of its last read. */
  onLine?: (line: string, now: number) => void;
  /** Body mode (no onLine): called once with the whole body and the time its last byte arrived. */
  onBody?: (body: string, now: number) => void;
}

/** `error` says why the request failed: one of ./errors.js, a line callback's error, or a socket error. */
export type ExchangeOutcome = ({ ok: true } | { ok: false; error: Error }) & {
  /** The request went out twice: the server closed a reused connection without answering. */
  resent: boolean;
  /** The most by which a read of the response may have been stamped late (s); null when not known. */
  stampLatenessBound: number | null;
};

export interface ExchangeTiming {
  /** Run-clock seconds the request was due to leave. */
  dueAt: number;
  startAt: StartStamp;
}

const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** Sends one POST and resolves when the response has been consumed or the transfer failed. */
export async function exchange(pool: HttpPool, request: ExchangeRequest, timing: ExchangeTiming): Promise<ExchangeOutcome> {
  const { onLine, onBody } = request;
  // Set by the response callbacks; the cast keeps TypeScript from narrowing it to null below.
  let failure = null as Error | null;
  let refused = null as { status: number; reason: string } | null;
  let bodyBytes = 0;
  let body: BodyBuffer | null = null;
  let splitter: LineSplitter | null = null;
  // One callback for the whole transfer: lines of a read share the read's arrival time.
  let readTime = timing.dueAt;
  const emitLine = (line: string): void => onLine!(line, readTime);

  const handler: ResponseHandler = {
    onSent: request.onSent,
    onHead(status, reason) {
      if (status !== 200) {
        body = new BodyBuffer(MAX_ERROR_BODY_BYTES);
        refused = { status, reason };
      } else if (onLine) splitter = new LineSplitter();
      else body = new BodyBuffer();
    },
    onBody(bytes, start, end, now) {
      bodyBytes += end - start;
      if (splitter) {
        readTime = now;
        splitter.push(bytes, start, end, emitLine);
      } else body!.push(bytes, start, end);
    },
    onComplete(now) {
      // The reference's error text: "<reason phrase>: <response body>".
      if (refused !== null) failure = new BadStatusError(refused.status, `${refused.reason}: ${body!.text()}`);
      else if (bodyBytes === 0) failure = new EmptyResponseError('empty response: HTTP 200 with no body');
      // An unterminated last line arrived with the last read, at `readTime`.
      else if (splitter) splitter.flush(emitLine);
      else onBody?.(body!.text(), now);
    },
  };

  const { error, resent, stampLatenessBound } = await roundTrip(pool, request.wire, handler, { ...timing, supervised: true });
  const failed = error ?? failure;
  return failed === null ? { ok: true, resent, stampLatenessBound } : { ok: false, error: failed, resent, stampLatenessBound };
}
