/**
 * Turns a finished run into bench_serving's metrics and servebench's extras: the retokenized
 * counts come from the tokenizer (encode without special tokens, batched), the rest is pure.
 */
import { calculateExtras } from '../metrics/extras.js';
import { calculateMetrics, usesRetokenizedItl } from '../metrics/calculate.js';
import type { BenchmarkMetrics, ServebenchExtras } from '../metrics/types.js';
import type { Tokenizer } from '../../tokenizer/index.js';
import type { BenchRunConfig } from '../run-config.js';
import type { BenchmarkRun } from './benchmark.js';
import { serverSideOf, type ServerSide } from '../server-metrics/server-side.js';

export interface RunSummary {
  metrics: BenchmarkMetrics;
  extras: ServebenchExtras;
  /** The server's side of the run; null under `--no-server-metrics`. */
  server: ServerSide | null;
}

/** Token counts of `texts` (no special tokens); empty texts skip the tokenizer. */
async function tokenCounts(tokenizer: Tokenizer, texts: readonly string[]): Promise<number[]> {
  const nonEmpty = texts.filter((text) => text !== '');
  const encoded = nonEmpty.length > 0 ? await tokenizer.encodeBatch(nonEmpty, false) : [];
  let next = 0;
  return texts.map((text) => (text === '' ? 0 : encoded[next++]!.length));
}

/**
 * Computes the metrics of `run`; failed outputs are not tokenized. `timeScale`: wall seconds per
 * server second of the sim the run drove (its `/metrics` readings were stamped in wall time).
 */
export async function summarizeRun(
  run: BenchmarkRun,
  config: Pick<BenchRunConfig, 'backend' | 'load' | 'serverMetrics'>,
  tokenizer: Tokenizer,
  timeScale = 1,
): Promise<RunSummary> {
  const { outputs } = run;
  const retokenizedOutputLens = await tokenCounts(
    tokenizer,
    outputs.map((output) => (output.success ? output.generatedText : '')),
  );
  let chunkTokenCounts: number[][] | undefined;
  if (usesRetokenizedItl(config.backend, run.acceptLength)) {
    const flat = await tokenCounts(tokenizer, outputs.flatMap((output) => (output.success ? output.textChunks : [])));
    let next = 0;
    chunkTokenCounts = outputs.map((output) => (output.success ? output.textChunks.map(() => flat[next++]!) : []));
  }
  const metrics = calculateMetrics({
    outputs,
    durationS: run.duration,
    backend: config.backend,
    acceptLength: run.acceptLength,
    retokenizedOutputLens,
    chunkTokenCounts,
    multiTurn: run.rows === null,
  });
  const extras = calculateExtras({ outputs, durationS: run.duration, requestRate: config.load.requestRate, maxConcurrency: config.load.maxConcurrency });
  const server = config.serverMetrics.enabled ? serverSideOf(run.serverScrape, outputs, retokenizedOutputLens, timeScale) : null;
  return { metrics, extras, server };
}
