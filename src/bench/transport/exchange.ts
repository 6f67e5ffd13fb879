/**
 * One POST whose response is read as it arrives, through undici's raw dispatch handler. Each data
 * callback is stamped with the run clock before anything else; a stream is split into lines at
 * byte level, a non-stream body is collected and handed over whole. A callback that throws (a
 * malformed chunk) aborts the transfer with that error.
 */
import type { Dispatcher } from 'undici';
import type { FailureCause } from '../types.js';
import { nowSeconds } from './clock.js';
import { classifyTransportError } from './errors.js';
import type { ActiveTransfer, HttpPool } from './httpPool.js';
import { LineSplitter } from './lineSplitter.js';

export interface ExchangeRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** Stream mode: called for each complete line with the arrival time of its last chunk. */
  onLine?: (line: string, now: number) => void;
  /** Body mode (no onLine): called once with the whole body and the time its last byte arrived. */
  onBody?: (body: string, now: number) => void;
}

export type ExchangeOutcome = { ok: true } | { ok: false; cause: FailureCause; error: string };

const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** Sends one POST and resolves when the response has been consumed or the transfer failed. */
export function exchange(pool: HttpPool, request: ExchangeRequest, st: number): Promise<ExchangeOutcome> {
  const target = new URL(request.url);
  return new Promise<ExchangeOutcome>((resolve) => {
    let settled = false;
    let controller: Dispatcher.DispatchController | null = null;
    let pendingAbort: Error | null = null;
    let status = 0;
    let statusMessage = '';
    const bodyParts: Buffer[] = [];
    let bodyBytes = 0;
    const splitter = request.onLine ? new LineSplitter() : null;
    // One callback for the whole transfer: lines of a chunk share the chunk's arrival time.
    let chunkTime = st;
    const emitLine = (line: string): void => request.onLine!(line, chunkTime);

    const transfer: ActiveTransfer = {
      lastByteAt: st,
      abort(reason: Error) {
        if (controller) controller.abort(reason);
        else pendingAbort = reason;
      },
    };
    const untrack = pool.track(transfer);

    const settle = (outcome: ExchangeOutcome): void => {
      if (settled) return;
      settled = true;
      untrack();
      resolve(outcome);
    };
    const fail = (error: unknown): void => {
      const { cause, message } = classifyTransportError(error);
      settle({ ok: false, cause, error: message });
    };

    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(ctrl) {
        controller = ctrl;
        if (pendingAbort) ctrl.abort(pendingAbort);
      },
      onResponseStart(_ctrl, statusCode, _headers, message) {
        status = statusCode;
        statusMessage = message ?? '';
      },
      onResponseData(ctrl, chunk) {
        const now = nowSeconds();
        transfer.lastByteAt = now;
        if (status !== 200 || !splitter) {
          if (bodyBytes < MAX_ERROR_BODY_BYTES || status === 200) bodyParts.push(chunk);
          bodyBytes += chunk.length;
          return;
        }
        chunkTime = now;
        try {
          splitter.push(chunk, emitLine);
        } catch (error) {
          fail(error);
          ctrl.abort(error as Error);
        }
      },
      onResponseEnd() {
        const now = nowSeconds();
        if (settled) return;
        const text = (): string => Buffer.concat(bodyParts).toString('utf8');
        if (status !== 200) {
          // The reference's error text: "<reason phrase>: <response body>".
          settle({ ok: false, cause: 'http_status', error: `${statusMessage}: ${text()}` });
          return;
        }
        try {
          // An unterminated last line arrived with the last data chunk, at `chunkTime`.
          if (splitter) splitter.flush(emitLine);
          else request.onBody?.(text(), now);
          settle({ ok: true });
        } catch (error) {
          fail(error);
        }
      },
      onResponseError(_ctrl, error) {
        fail(error);
      },
    };

    pool.agent.dispatch(
      {
        origin: target.origin,
        path: target.pathname + target.search,
        method: 'POST',
        headers: request.headers,
        body: request.body,
      },
      handler,
    );
  });
}
