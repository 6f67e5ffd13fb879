/**
 * Cross-checks what a log states: a result block against the arguments that produced it, and the
 * block's numbers against each other. Disagreements become warnings; nothing is corrected.
 */
import { pyFloatRepr } from '../../core/pyformat.js';
import type { MetricValue } from '../types.js';

function num(value: unknown): number | undefined {
  return typeof value === 'number' && !Number.isNaN(value) ? value : undefined;
}

/** Checks a block against the arguments; `argsFromCommand` says defaults apply to options the command omits. */
export function checkAgainstArgs(
  metrics: Record<string, MetricValue>,
  args: Record<string, unknown> | null,
  argsFromCommand: boolean,
): string[] {
  if (!args) return [];
  const warnings: string[] = [];
  const statedRate = metrics.request_rate;
  const argRate = num(args.request_rate) ?? (argsFromCommand ? Infinity : undefined);
  if (typeof statedRate === 'number' && argRate !== undefined && statedRate !== argRate) {
    const source = args.request_rate === undefined ? 'the bench command does not set --request-rate (default inf)' : `the arguments say ${pyFloatRepr(argRate)}`;
    warnings.push(`result block states request rate ${pyFloatRepr(statedRate)} but ${source}`);
  }
  if ('max_concurrency' in metrics) {
    const argConcurrency = args.max_concurrency === undefined ? (argsFromCommand ? null : undefined) : (num(args.max_concurrency) || null);
    if (argConcurrency !== undefined && metrics.max_concurrency !== argConcurrency) {
      warnings.push(`result block states max concurrency ${String(metrics.max_concurrency ?? 'not set')} but the arguments say ${String(argConcurrency ?? 'not set')}`);
    }
  }
  if (typeof metrics.backend === 'string' && typeof args.backend === 'string' && metrics.backend !== args.backend) {
    warnings.push(`result block states backend ${metrics.backend} but the arguments say ${args.backend}`);
  }
  const prompts = num(args.num_prompts);
  const completed = num(metrics.completed);
  if (prompts !== undefined && completed !== undefined && completed < prompts && args.dataset_name !== 'generated-shared-prefix') {
    warnings.push(`${completed} of ${prompts} requests succeeded`);
  }
  if (argsFromCommand && args.dataset_name === undefined && (args.random_input_len !== undefined || args.random_output_len !== undefined)) {
    warnings.push('bench command sets random lengths but no --dataset-name (bench_serving defaults to sharegpt)');
  }
  return warnings;
}

/** A derived value agrees with its stated value within the rounding of the printed inputs. */
function agrees(stated: number, computed: number, duration: number): boolean {
  const tolerance = 0.01 + Math.abs(computed) * (0.01 + 0.005 / duration);
  return Math.abs(stated - computed) <= tolerance;
}

/** Checks throughputs against totals ÷ duration and the total against input + output. */
export function checkBlockArithmetic(metrics: Record<string, MetricValue>): string[] {
  const warnings: string[] = [];
  const duration = num(metrics.duration);
  if (duration === undefined || duration <= 0) return warnings;
  const pairs: Array<[rate: string, total: string, label: string]> = [
    ['output_throughput', 'total_output_tokens', 'output token throughput'],
    ['input_throughput', 'total_input_tokens', 'input token throughput'],
    ['request_throughput', 'completed', 'request throughput'],
  ];
  for (const [rateKey, totalKey, label] of pairs) {
    const rate = num(metrics[rateKey]);
    const total = num(metrics[totalKey]);
    if (rate !== undefined && total !== undefined && !agrees(rate, total / duration, duration)) {
      warnings.push(`${label} ${rate} disagrees with ${total} / ${duration} s = ${(total / duration).toFixed(2)}`);
    }
  }
  const input = num(metrics.input_throughput);
  const output = num(metrics.output_throughput);
  const total = num(metrics.total_throughput);
  if (input !== undefined && output !== undefined && total !== undefined && Math.abs(total - input - output) > 0.02 + 0.001 * total) {
    warnings.push(`total token throughput ${total} is not input ${input} + output ${output}`);
  }
  return warnings;
}
