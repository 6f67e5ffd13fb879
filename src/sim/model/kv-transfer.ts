/** PD disaggregation: time to move a prefilled request's KV from a prefill to a decode instance. */
import type { ResolvedInstance } from './resolve-instance.js';

/**
 * The prefill instance's end of a transfer: what its busiest device sends per prompt token (its shard
 * of the KV, its slice of the prompt under context parallel) and the link it sends over. Separate
 * from the decode's end so that two sim processes can each hold one half (the prefill serves its
 * own to the decode).
 */
export interface KvSendSide {
  sentBytesPerToken: number;
  /** Bytes per second of one device's share of the instances' NICs, at the link's efficiency. */
  linkBytesPerSec: number;
  latencySec: number;
}

export function kvSendSide(prefill: ResolvedInstance): KvSendSide {
  return {
    sentBytesPerToken: prefill.kvBytesPerTokenPerDevice / prefill.prefillContextParallel,
    linkBytesPerSec: prefill.hardware.interNodeGBs * 1e9 * prefill.efficiency.link,
    latencySec: prefill.efficiency.transferLatencyUs * 1e-6,
  };
}

/** Seconds until the prefill's devices have sent `tokens` tokens of KV. */
export function kvSendSeconds(send: KvSendSide, tokens: number): number {
  return send.latencySec + (tokens * send.sentBytesPerToken) / send.linkBytesPerSec;
}

/**
 * `T_kv = α + bytes / (η_l · B_net)` (spec §2 "PD disaggregation"), over the NICs between the
 * instances' nodes. Every device moves its own bytes in parallel, so the busiest end sets the time:
 * a decode device receives its own copy (MLA latents are replicated over attention TP).
 */
export function kvTransferSecondsFrom(send: KvSendSide, decode: ResolvedInstance, tokens: number): number {
  const received = tokens * decode.kvBytesPerTokenPerDevice;
  return send.latencySec + Math.max(tokens * send.sentBytesPerToken, received) / send.linkBytesPerSec;
}

export function kvTransferSeconds(prefill: ResolvedInstance, decode: ResolvedInstance, tokens: number): number {
  return kvTransferSecondsFrom(kvSendSide(prefill), decode, tokens);
}
