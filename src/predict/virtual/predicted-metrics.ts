/** bench_serving's metrics of a predicted run. */
import { calculateMetrics, type BenchmarkMetrics } from '../../bench/index.js';
import type { PredictResult } from './virtual-client.js';

/**
 * The metrics bench_serving computes from the run's outputs. The virtual client records streams
 * as the native `sglang` backend does, and the sim's text retokenizes to exactly the emitted
 * count, so the retokenized lengths are the emitted ones.
 */
export function predictedMetrics(result: PredictResult): BenchmarkMetrics {
  return calculateMetrics({
    outputs: result.outputs,
    durationS: result.durationS,
    backend: 'sglang',
    acceptLength: result.acceptLength,
    retokenizedOutputLens: result.outputs.map((output) => (output.success ? output.outputLen : 0)),
  });
}
