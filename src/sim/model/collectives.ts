/**
 * Collective communication time over a group of devices (spec §3.3). A group inside one server uses
 * the scale-up links (NVLink, HCCS); a group that spans servers runs hierarchically — the in-node
 * phases on the scale-up links, only the node-crossing share on each device's own NIC (RoCE/IB) —
 * which is how NCCL/HCCL schedule it. Pure: a deployment, a group size and bytes in, seconds out.
 */
import type { ResolvedInstance } from './resolve-instance.js';

const US = 1e-6;

interface GroupShape {
  /** Devices of the group inside one node. */
  local: number;
  /** Nodes the group spans. */
  nodes: number;
  /** Scale-up and scale-out bandwidth per device (bytes/s, achieved). */
  scaleUp: number;
  scaleOut: number;
}

function shape(d: ResolvedInstance, group: number): GroupShape {
  const hw = d.hardware;
  const link = d.efficiency.link;
  const local = Math.min(group, hw.devicesPerNode);
  return {
    local,
    nodes: Math.ceil(group / local),
    scaleUp: hw.scaleUpGBs * 1e9 * link,
    scaleOut: hw.interNodeGBs * 1e9 * link,
  };
}

/**
 * Start-up latency of one collective: the device's a-priori α scaled by the family's fitted
 * multiplier; a node-crossing one pays the NIC hop on top (twice α).
 */
function latency(d: ResolvedInstance, alphaUs: number, nodes: number): number {
  return (nodes > 1 ? 2 : 1) * alphaUs * d.efficiency.family.collectiveLatency * US;
}

/**
 * A ring collective in which `passes` × (G−1)/G of `bytes` moves: one pass for an all-gather or a
 * reduce-scatter, two for an all-reduce. Across nodes the in-node share runs on the scale-up links,
 * then each device's 1/local shard crosses the nodes over the NICs.
 */
function ringSeconds(d: ResolvedInstance, bytes: number, group: number, passes: 1 | 2): number {
  if (group <= 1 || bytes <= 0) return 0;
  const g = shape(d, group);
  const alpha = latency(d, d.hardware.allReduceUs, g.nodes);
  const inNode = ((passes * (g.local - 1)) / g.local) * (bytes / g.scaleUp);
  const crossNode = g.nodes > 1 ? ((passes * (g.nodes - 1)) / g.nodes) * (bytes / g.local / g.scaleOut) : 0;
  return alpha + inNode + crossNode;
}

/**
 * All-reduce of `bytes` held by every member (ring/tree, 2(G−1)/G of the data moves). Across nodes:
 * reduce-scatter and all-gather inside each node, then an all-reduce of each device's 1/local shard
 * between the nodes over the NICs.
 */
export function allReduceSeconds(d: ResolvedInstance, bytes: number, group: number): number {
  return ringSeconds(d, bytes, group, 2);
}

/**
 * All-gather that leaves `bytes` (the whole gathered tensor) on every member, each contributing an
 * equal share; a reduce-scatter moves the same bytes. Half an all-reduce.
 */
export function allGatherSeconds(d: ResolvedInstance, bytes: number, group: number): number {
  return ringSeconds(d, bytes, group, 1);
}

/**
 * All-to-all in which every member sends `bytes` spread evenly over the other members (EP dispatch or
 * combine). Peers in the node are reached over the scale-up links, the rest over the NIC, both at once.
 */
export function allToAllSeconds(d: ResolvedInstance, bytes: number, group: number): number {
  if (group <= 1 || bytes <= 0) return 0;
  const g = shape(d, group);
  const alpha = latency(d, d.hardware.allToAllUs, g.nodes);
  const inNodeShare = (g.local - 1) / (group - 1);
  return alpha + Math.max((bytes * inNodeShare) / g.scaleUp, (bytes * (1 - inNodeShare)) / g.scaleOut);
}
