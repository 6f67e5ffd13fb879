/**
 * SGLang's messages for a PD request that fails (reference §2 "Failures"): each request aborts
 * with status 500 and `finish_reason.message` naming the side, the request and its room.
 */
import { ServebenchError } from '../../../core/errors.js';

/** A PD request's failure, carrying SGLang's message; routes answer it as SGLang's abort. */
export class PdFailure extends ServebenchError {
  readonly code = 'E_PD_TRANSFER';
}

function exception(room: string, reason: string): string {
  return `with exception KVTransferError(bootstrap_room=${room}): ${reason}`;
}

/** Prefill side: no decode connected for the room within the bootstrap timeout (prefill.py L855-885). */
export function prefillBootstrapTimeout(rid: string, room: string, timeoutSec: number): PdFailure {
  return new PdFailure(
    `Prefill bootstrap failed for request rank=0 req.rid='${rid}' req.bootstrap_room=${room} ` +
      exception(room, `Request ${room} timed out after ${timeoutSec.toFixed(1)}s in KVPoll.Bootstrapping`),
  );
}

/** Decode side: the prefill's bootstrap server never answered the handshake (decode.py L645-692). */
export function decodeHandshakeFailed(rid: string, room: string): PdFailure {
  return new PdFailure(
    `Decode handshake failed for request rank=0 decode_req.req.rid='${rid}' decode_req.req.bootstrap_room=${room} ` +
      exception(room, 'Aborted by AbortReq.'),
  );
}

function decodeTransferFailed(rid: string, room: string, reason: string): PdFailure {
  return new PdFailure(
    `Decode transfer failed for request rank=0 decode_req.req.rid='${rid}' decode_req.req.bootstrap_room=${room} ` + exception(room, reason),
  );
}

/** Decode side: bootstrapped, but the KV did not arrive within the waiting timeout (decode.py L1680-1712). */
export function decodeWaitingTimeout(rid: string, room: string, timeoutSec: number): PdFailure {
  return decodeTransferFailed(rid, room, `Request ${room} timed out after ${timeoutSec.toFixed(1)}s in KVPoll.WaitingForInput`);
}

/** Decode side: the prefill's bootstrap server stopped answering heartbeats (conn.py L668-765). */
export function prefillLost(rid: string, room: string, address: string): PdFailure {
  return decodeTransferFailed(rid, room, `Lost connection with prefill instance (bootstrap_addr: ${address})`);
}
