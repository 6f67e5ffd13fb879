/**
 * Warmup (spec §4.2): `--warmup-requests` copies of the first row's request, all at once and
 * outside the concurrency limit, with at most 32 output tokens, the first LoRA adapter, the
 * global extra body only and no routing key. All copies failing ends the run.
 */
import { UserError } from '../../core/errors.js';
import type { BenchRunConfig } from '../run-config.js';
import type { DatasetRow } from '../types.js';
import { nowSeconds } from '../transport/clock.js';
import type { RequestExecutor } from './executor.js';
import { warmupLora } from './lora.js';

const WARMUP_MAX_OUTPUT_LEN = 32;

/**
 * Runs the warmup and prints the reference's two lines around it; `notice` (stderr) says when a
 * copy went out twice because the server closed a reused connection unanswered, as the run's own
 * resends are reported.
 */
export async function runWarmup(
  config: Pick<BenchRunConfig, 'load' | 'request'>,
  row: DatasetRow,
  executor: RequestExecutor,
  print: (line: string) => void,
  notice: (line: string) => void,
): Promise<void> {
  const requested = config.load.warmupRequests;
  print(`Starting warmup with ${requested} sequences...`);
  const input = {
    ...executor.inputFor(row, warmupLora(config.request.lora.names), { ...config.request.extraBody }),
    outputLen: Math.min(row.outputLen, WARMUP_MAX_OUTPUT_LEN),
  };
  delete input.routingKey;
  const copies = Math.max(0, requested);
  const prepared = Array.from({ length: copies }, () => executor.prepare(input));
  const dueAt = nowSeconds();
  const outputs = (await Promise.all(prepared.map((request) => executor.execute(request, { queueTime: 0, dueAt })))).flat();
  const resent = outputs.filter((output) => output.resent === true).length;
  if (resent > 0) {
    notice(`warmup: ${resent} of ${outputs.length} requests went out twice: the server closed a reused keep-alive connection without answering (it may have seen both)`);
  }
  if (copies > 0 && !outputs.some((output) => output.success)) {
    const firstError = (outputs[0]?.error ?? '').replace(/\s*\n\s*/g, ' ').trim();
    throw new UserError(`Warmup failed - Please make sure benchmark arguments are correctly specified. Error: ${firstError}`);
  }
  print(`Warmup completed with ${requested} sequences. Starting main benchmark run...`);
}
