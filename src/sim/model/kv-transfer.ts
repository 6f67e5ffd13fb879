/** PD disaggregation: time to move a prefilled request's KV from a prefill to a decode instance. */
import type { Deployment } from './deployment.js';

/**
 * `T_kv = α + n · kv_bytes_per_token / (η_l · B_net)` (spec §2 "PD disaggregation"): every prefill
 * device sends its own KV shard over its own NIC, in parallel, so the per-device bytes count.
 */
export function kvTransferSeconds(prefill: Deployment, tokens: number): number {
  const bandwidth = prefill.hardware.interNodeGBs * 1e9 * prefill.efficiency.family.link;
  const latency = prefill.efficiency.features.disaggregation.transferLatencyUs * 1e-6;
  return latency + (tokens * prefill.kvBytesPerTokenPerDevice) / bandwidth;
}
