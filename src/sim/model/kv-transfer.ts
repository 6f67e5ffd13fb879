/** PD disaggregation: time to move a prefilled request's KV from a prefill to a decode instance. */
import type { ResolvedInstance } from './resolve-instance.js';

/**
 * `T_kv = α + bytes / (η_l · B_net)` (spec §2 "PD disaggregation"), over the NICs between the
 * instances' nodes. Every device moves its own bytes in parallel, so the busiest end sets the time:
 * a prefill device sends its shard of the request's KV (its slice of the prompt under context
 * parallel), and a decode device receives its own copy (MLA latents are replicated over attention TP).
 */
export function kvTransferSeconds(prefill: ResolvedInstance, decode: ResolvedInstance, tokens: number): number {
  const bandwidth = prefill.hardware.interNodeGBs * 1e9 * prefill.efficiency.link;
  const latency = prefill.efficiency.transferLatencyUs * 1e-6;
  const sent = (tokens * prefill.kvBytesPerTokenPerDevice) / prefill.prefillContextParallel;
  const received = tokens * decode.kvBytesPerTokenPerDevice;
  return latency + Math.max(sent, received) / bandwidth;
}
