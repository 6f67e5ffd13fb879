/**
 * `predict --explain`: what one step of a deployment is made of on its busiest device — weight and
 * KV bytes, GEMM and attention math, collectives, kernel latency, the host's launch floor, host time
 * and the speculative draft passes — so a user sees why a figure is what it is, and the fit can be
 * debugged against published runs. Pure: a deployment and a step in, lines out.
 */
import type { ResolvedInstance } from './resolve-instance.js';
import {
  cpuTime,
  passBreakdown,
  PART_NAMES,
  stepPasses,
  stepTime,
  type IndexerPath,
  type PartName,
  type PassBreakdown,
  type WorkPart,
} from './step-time.js';
import type { RequestWork } from './request-work.js';

const PART_LABELS: Record<PartName, string> = {
  attentionProjections: 'attention projections',
  attentionCore: 'attention (scores and KV)',
  linearAttention: 'linear attention state',
  denseMlp: 'dense MLP',
  experts: 'routed experts',
  sharedExpert: 'shared expert',
  lmHead: 'LM head',
};

/** What a DeepSeek-sparse-attention pass ran, by the indexer's path. */
const INDEXER_LABELS: Record<IndexerPath, string> = {
  full: 'indexer in full (queries, logits, top-k), sparse attention',
  keys: 'indexer keys only (every sequence within its top-k), sparse attention',
  dense: 'indexer keys only (every sequence within its top-k), dense MHA',
};

const ms = (seconds: number): string => `${(seconds * 1000).toFixed(seconds < 0.001 ? 3 : 2)} ms`;
const giga = (value: number, unit: string): string => `${(value / 1e9).toFixed(value < 1e9 ? 3 : 1)} ${unit}`;

/** One line per part of a pass that did work, then its collectives, kernels and floors. */
function passLines(d: ResolvedInstance, pass: PassBreakdown, indent: string): string[] {
  const lines: string[] = [];
  const boundBy = (part: WorkPart): string => (part.memorySeconds >= part.mathSeconds ? 'memory-bound' : 'math-bound');
  for (const name of PART_NAMES) {
    const part = pass.parts[name];
    if (part.seconds <= 0) continue;
    lines.push(`${indent}${PART_LABELS[name].padEnd(28)}${giga(part.flops, 'GFLOP').padStart(14)}${giga(part.bytes, 'GB').padStart(12)}${ms(part.seconds).padStart(12)}  ${boundBy(part)}`);
  }
  if (pass.expertOverhead > 0) lines.push(`${indent}${`per-expert overhead (${d.efficiency.family.expertUs.toFixed(2)} µs per expert touched)`.padEnd(54)}${ms(pass.expertOverhead).padStart(12)}`);
  if (pass.collectives > 0) lines.push(`${indent}${'collectives'.padEnd(54)}${ms(pass.collectives).padStart(12)}`);
  const kernelUs = pass.kernels > 0 ? (pass.kernelLatency / pass.kernels) * 1e6 : 0;
  lines.push(`${indent}${`kernel latency (${Math.round(pass.kernels)} kernels × ${kernelUs.toFixed(1)} µs)`.padEnd(54)}${ms(pass.kernelLatency).padStart(12)}`);
  if (pass.indexer !== null) lines.push(`${indent}${INDEXER_LABELS[pass.indexer]}`);
  if (pass.launchFloor > 0) {
    lines.push(`${indent}${`host floor of an eager pass (${d.efficiency.launchUs.toFixed(0)} µs a kernel)`.padEnd(54)}${ms(pass.launchFloor).padStart(12)}`);
  }
  if (pass.scale !== 1) lines.push(`${indent}${'phase multiplier'.padEnd(54)}${`× ${pass.scale.toFixed(2)}`.padStart(12)}`);
  lines.push(`${indent}${'pass'.padEnd(54)}${ms(pass.seconds).padStart(12)}`);
  return lines;
}

function batchLine(d: ResolvedInstance, ranks: readonly (readonly RequestWork[])[]): string {
  const first = ranks[0] ?? [];
  const request = first[0];
  if (request === undefined) return 'no work';
  const per = d.attentionDp > 1 ? ` on each of ${ranks.length} of ${d.attentionDp} attention ranks` : '';
  const tokens = request.prefill ? `${Math.round(request.newTokens)} new tokens` : `${Math.round(request.newTokens)} token${request.newTokens === 1 ? '' : 's'}`;
  return `${first.length} request${first.length === 1 ? '' : 's'}${per}, ${tokens} each on ${Math.round(request.context)} tokens of context`;
}

/**
 * The lines explaining one typical step of a run: `title` names it, `share` is the fraction of the
 * run's instance time such steps took.
 */
export function explainStep(d: ResolvedInstance, title: string, ranks: readonly (readonly RequestWork[])[], steps: number, share: number): string[] {
  const passes = stepPasses(d, ranks);
  const target = passBreakdown(d, passes.target);
  if (target === null) return [];
  const timing = stepTime(d, ranks);
  const lines = [
    `${title}: ${batchLine(d, passes.target)} (${steps} such steps, ${(share * 100).toFixed(0)}% of the instance's time)`,
    `  ${'busiest device'.padEnd(28)}${'math'.padStart(14)}${'bytes read'.padStart(12)}${'time'.padStart(12)}`,
    ...passLines(d, target, '  '),
  ];
  if (passes.draft.length > 0) {
    let draft = passes.draftFixed;
    for (const pass of passes.draft) draft += passBreakdown(d, pass, 1)?.seconds ?? 0;
    lines.push(`  ${`draft passes (${passes.draft.length} one-layer passes + fixed costs)`.padEnd(54)}${ms(draft).padStart(12)}`);
  }
  let busiest = 0;
  for (const work of ranks) busiest = Math.max(busiest, work.length);
  lines.push(`  ${`host scheduling (overlapped with the device)`.padEnd(54)}${ms(cpuTime(d, busiest)).padStart(12)}`);
  if (passes.exposedCpu > 0) lines.push(`  ${'speculative bookkeeping (not overlapped)'.padEnd(54)}${ms(passes.exposedCpu).padStart(12)}`);
  lines.push(`  ${'step'.padEnd(54)}${ms(timing.duration).padStart(12)}`);
  return lines;
}
