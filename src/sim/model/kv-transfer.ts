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

/**
 * One device's share of the NICs its instance transfers over, bytes per second at the link's
 * efficiency. The catalogue's scale-out bandwidth is one NIC per device; `--disaggregation-ib-device`
 * naming fewer NICs than the instance has devices on a node makes those devices share them.
 */
function deviceLinkBytesPerSec(instance: ResolvedInstance): number {
  const devicesPerNode = Math.min(instance.hardware.devicesPerNode, Math.ceil(instance.devices / instance.nnodes));
  const nics = instance.kvTransfer.nicsPerNode;
  const share = nics === null ? 1 : Math.min(1, nics / devicesPerNode);
  return instance.hardware.interNodeGBs * 1e9 * instance.efficiency.link * share;
}

/** The prefill's end of a transfer; with the `fake` engine nothing is sent and nothing waits. */
export function kvSendSide(prefill: ResolvedInstance): KvSendSide {
  const fake = prefill.kvTransfer.backend === 'fake';
  return {
    sentBytesPerToken: fake ? 0 : prefill.kvBytesPerTokenPerDevice / prefill.prefillContextParallel,
    linkBytesPerSec: deviceLinkBytesPerSec(prefill),
    latencySec: fake ? 0 : prefill.efficiency.transferLatencyUs * 1e-6,
  };
}

/** Seconds until the prefill's devices have sent `tokens` tokens of KV. */
export function kvSendSeconds(send: KvSendSide, tokens: number): number {
  return send.latencySec + (tokens * send.sentBytesPerToken) / send.linkBytesPerSec;
}

/**
 * `T_kv = α + bytes / (η_l · B_net)` (spec §2 "PD disaggregation"), over the NICs between the
 * instances' nodes. Every device moves its own bytes in parallel, so the busiest end sets the time:
 * a decode device receives its own copy (MLA latents are replicated over attention TP) over its
 * own share of its NICs. With the `fake` engine (both ends run it, as SGLang requires) nothing moves.
 */
export function kvTransferSecondsFrom(send: KvSendSide, decode: ResolvedInstance, tokens: number): number {
  if (decode.kvTransfer.backend === 'fake') return 0;
  const sending = (tokens * send.sentBytesPerToken) / send.linkBytesPerSec;
  const receiving = (tokens * decode.kvBytesPerTokenPerDevice) / deviceLinkBytesPerSec(decode);
  return send.latencySec + Math.max(sending, receiving);
}

export function kvTransferSeconds(prefill: ResolvedInstance, decode: ResolvedInstance, tokens: number): number {
  return kvTransferSecondsFrom(kvSendSide(prefill), decode, tokens);
}
