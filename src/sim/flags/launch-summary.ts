/**
 * The start-up report of `servebench sim`: what is being simulated and which pasted flags have no
 * effect. Pure: lines of text from the parsed launch and its resolved deployment.
 */
import type { ResolvedInstance } from '../model/resolve-instance.js';
import type { LaunchConfig, TruthOptions } from '../../deployment/index.js';

function formatTokens(n: number): string {
  return Number.isFinite(n) ? n.toLocaleString('en-US') : 'off';
}

/** Lines describing the deployment (or the truth-mode schedule) and the ignored flags. */
export function describeLaunch(launch: LaunchConfig, deployment: ResolvedInstance | null, truth: TruthOptions | null, contextLength: number): string[] {
  const lines: string[] = [];
  const served = launch.servedModelName ?? launch.modelPath;
  lines.push(`model: ${launch.modelPath}${served !== launch.modelPath ? ` (served as ${served})` : ''}`);
  if (truth !== null) {
    lines.push(
      `truth mode: first chunk ${truth.sharedSteps ? 'at the first shared step ' : ''}${truth.ttftMs} ms after arrival, ` +
        `then one chunk of ${truth.tokensPerChunk} token(s) every ${truth.itlMs} ms${truth.sharedSteps ? ' (one step clock for all requests)' : ''}; ` +
        'actual write times at GET /sim/truth',
    );
  }
  if (deployment !== null) {
    const d = deployment;
    lines.push(
      `simulated: ${d.model.name} ${d.quant.name} on ${d.devices} × ${d.hardware.name} (${d.hardware.key}); ` +
        `TP ${d.tp}${d.attentionDp > 1 ? `, DP-attention ${d.attentionDp}` : ''}${d.replicas > 1 ? `, ${d.replicas} DP replicas` : ''}` +
        `${d.ep > 1 ? `, EP ${d.ep}` : ''}${d.nnodes > 1 ? `, ${d.nnodes} nodes` : ''}`,
    );
    lines.push(
      `KV pool ${formatTokens(d.kvCapacityPerRank)} tokens per rank, max running ${d.maxRunningPerRank} per rank, ` +
        `chunked prefill ${formatTokens(d.chunkedPrefillPerRank)}, context ${formatTokens(d.contextLength)}, page ${d.pageSize}, ` +
        `radix cache ${d.radixCache ? 'on' : 'off'}, CUDA graph ${d.cudaGraph ? `≤ ${d.cudaGraphMaxBs}` : 'off'}`,
    );
    if (d.speculative !== null) {
      lines.push(`speculative: ${d.speculative.algorithm}, ${d.speculative.steps} steps, ${d.speculative.draftTokens} draft tokens`);
    }
    if (d.disaggregation !== 'null') lines.push(`disaggregation: ${d.disaggregation} instance`);
  } else {
    lines.push(`context length ${formatTokens(contextLength)}`);
  }
  const api: string[] = [];
  if (launch.reasoningParser !== null) api.push(`reasoning parser ${launch.reasoningParser}`);
  if (launch.toolCallParser !== null) api.push(`tool-call parser ${launch.toolCallParser}`);
  if (launch.enableMetrics) api.push('metrics at /metrics');
  if (api.length > 0) lines.push(api.join(', '));
  lines.push(
    launch.ignoredFlags.length > 0 ? `ignored flags (no effect on the simulation): ${launch.ignoredFlags.join(' ')}` : 'ignored flags: none',
  );
  return lines;
}
