/**
 * The published bench_serving runs (shared/reference/logs), as data: recipe launch flags + hardware +
 * bench workload + published block metrics, and the prediction of each through the simulated engine
 * and the virtual-time client. Single-instance runs, and PD-separated runs (prefill and decode
 * instances composed with KV transfer). Used by the calibration test and by bench/sim-predict.ts.
 */
import { computeRandomLens } from '../../bench/datasets/lengths.js';
import { rowsFromLengths } from '../../bench/datasets/rows.js';
import { NumpyRandomState } from '../../core/rng.js';
import { createDisaggregatedEngine, createEngine, type SimEngine } from '../engine/index.js';
import { parseLaunchArgs } from '../flags/launch-flags.js';
import { predictedMetrics } from './predicted-metrics.js';
import { predictRun } from './virtual-client.js';

/** Block metrics of a run (ms unless named). */
export interface Published {
  durationS: number;
  meanTtftMs: number;
  medianTtftMs: number;
  meanTpotMs: number;
  meanItlMs: number;
  medianItlMs: number;
  outputThroughput: number;
  acceptLength?: number;
}

export interface CalibrationCase {
  name: string;
  /** The launch flags of the one instance; of a PD-separated run, the flags both instances share. */
  launch: string[];
  /** PD separation: each instance's own flags, appended to `launch`. */
  disaggregated?: { prefill: string[]; decode: string[] };
  workload: {
    numPrompts: number;
    inputLen: number;
    outputLen: number;
    rangeRatio: number;
    requestRate: number;
    maxConcurrency: number | null;
    /**
     * ShareGPT runs (the cookbook's B200 commands give no --dataset-name, so bench used its default
     * `sharegpt`): the real prompt/completion lengths are not available offline, so lengths follow a
     * heavy-tailed log-normal shape (seed 1) rescaled to the published totals.
     */
    sharegptTotals?: { input: number; output: number };
    /**
     * The workload's accept length, an input like the lengths: acceptance depends on model × draft ×
     * dataset (spec §3.6), while the model catalog holds one rate per model, measured on another dataset.
     */
    acceptLength?: number;
  };
  published: Published;
}

const DEEPSEEK_H800 = [
  '--model-path', 'deepseek-ai/DeepSeek-V3.2', '--hardware', 'h800', '--nnodes', '2', '--tp', '16',
  '--dp', '2', '--enable-dp-attention', '--page-size', '64', '--trust-remote-code',
  '--context-length', '65536', '--max-running-requests', '128',
  '--speculative-algorithm', 'EAGLE', '--speculative-num-steps', '2', '--speculative-eagle-topk', '1',
  '--speculative-num-draft-tokens', '3', '--enable-metrics',
];

/** Every single-instance reference run. */
export const CALIBRATION_CASES: CalibrationCase[] = [
  {
    name: 'Qwen2.5-0.5B H100 64/16 rate inf',
    launch: ['--model-path', '/mnt/weka/home/user/models/qwen2.5-0.5b', '--hardware', 'h100'],
    workload: { numPrompts: 200, inputLen: 64, outputLen: 16, rangeRatio: 0, requestRate: Infinity, maxConcurrency: null },
    published: { durationS: 0.59, meanTtftMs: 503.94, medianTtftMs: 502.47, meanTpotMs: 3.0, meanItlMs: 2.82, medianItlMs: 2.43, outputThroughput: 2781.41 },
  },
  {
    name: 'Qwen3-Coder-480B W8A8 A3x8 c80',
    launch: [
      '--model-path', '/root/.cache/modelscope/hub/models/Qwen3-Coder-480B-A35B-Instruct-w8a8-QuaRot',
      '--hardware', 'ascend-910c', '--tp', '16', '--dp-size', '4', '--enable-dp-attention', '--enable-dp-lm-head',
      '--moe-a2a-backend', 'deepep', '--max-running-requests', '80', '--chunked-prefill-size', '28672', '--context-length', '8192',
      '--disable-radix-cache', '--quantization', 'modelslim',
    ],
    workload: { numPrompts: 320, inputLen: 3500, outputLen: 1500, rangeRatio: 1, requestRate: Infinity, maxConcurrency: 80 },
    published: { durationS: 322.16, meanTtftMs: 6412.33, medianTtftMs: 6247.77, meanTpotMs: 49.43, meanItlMs: 49.43, medianItlMs: 46.89, outputThroughput: 1489.93 },
  },
  {
    name: 'DeepSeek-V3.2-Exp B200x8 TP8 EAGLE c1',
    launch: [
      '--model-path', 'deepseek-ai/DeepSeek-V3.2-Exp', '--hardware', 'b200', '--tp', '8',
      '--speculative-algorithm', 'EAGLE', '--speculative-num-steps', '3', '--speculative-eagle-topk', '1',
      '--speculative-num-draft-tokens', '4',
    ],
    // ShareGPT prompts: the run's own accept length (the catalog's DeepSeek-V3.2-Exp rate is for random prompts).
    workload: { numPrompts: 10, inputLen: 1024, outputLen: 1024, rangeRatio: 0, requestRate: Infinity, maxConcurrency: 1, sharegptTotals: { input: 1972, output: 2784 }, acceptLength: 2.46 },
    published: { durationS: 29.11, meanTtftMs: 317.58, medianTtftMs: 191.31, meanTpotMs: 9.09, meanItlMs: 9.35, medianItlMs: 7.64, outputThroughput: 95.62, acceptLength: 2.46 },
  },
  {
    name: 'DeepSeek-V3.2-Exp B200x8 TP8 EP8 DP8 c100',
    launch: ['--model-path', 'deepseek-ai/DeepSeek-V3.2-Exp', '--hardware', 'b200', '--tp', '8', '--ep', '8', '--dp', '8', '--enable-dp-attention'],
    workload: { numPrompts: 1000, inputLen: 1024, outputLen: 1024, rangeRatio: 0, requestRate: Infinity, maxConcurrency: 100, sharegptTotals: { input: 301701, output: 188375 } },
    published: { durationS: 219.09, meanTtftMs: 530.36, medianTtftMs: 444.0, meanTpotMs: 106.16, meanItlMs: 100.46, medianItlMs: 41.73, outputThroughput: 859.8 },
  },
  {
    name: 'DeepSeek-V3.2 H800x16 TP16 DP2 MTP c1 10 prompts',
    launch: DEEPSEEK_H800,
    workload: { numPrompts: 10, inputLen: 1024, outputLen: 1024, rangeRatio: 0, requestRate: 64, maxConcurrency: 1 },
    published: { durationS: 48.96, meanTtftMs: 199.88, medianTtftMs: 176.15, meanTpotMs: 10.99, meanItlMs: 11.15, medianItlMs: 8.86, outputThroughput: 86.2, acceptLength: 3.27 },
  },
  {
    name: 'DeepSeek-V3.2 H800x16 TP16 DP2 MTP c1024 r0',
    launch: DEEPSEEK_H800,
    workload: { numPrompts: 2048, inputLen: 1024, outputLen: 1024, rangeRatio: 0, requestRate: 64, maxConcurrency: 1024 },
    published: { durationS: 408.09, meanTtftMs: 127729.28, medianTtftMs: 170098.94, meanTpotMs: 49.18, meanItlMs: 48.46, medianItlMs: 52.11, outputThroughput: 2530.66, acceptLength: 3.26 },
  },
  {
    name: 'DeepSeek-V3.2 H800x16 TP16 DP2 MTP c1024 r1',
    launch: DEEPSEEK_H800,
    workload: { numPrompts: 2048, inputLen: 1024, outputLen: 1024, rangeRatio: 1, requestRate: 64, maxConcurrency: 1024 },
    published: { durationS: 612.87, meanTtftMs: 194081.02, medianTtftMs: 252945.22, meanTpotMs: 36.31, meanItlMs: 36.31, medianItlMs: 23.18, outputThroughput: 3421.84, acceptLength: 3.26 },
  },
];

/** The PD-separated reference runs (prefill and decode instances behind a router). */
export const PD_CALIBRATION_CASES: CalibrationCase[] = [
  {
    name: 'DeepSeek-V3.2-Exp W8A8 A3x32 PD 64K/3K c32',
    launch: ['--model-path', '/root/.cache/modelscope/hub/models/DeepSeek-V3.2-Exp-W8A8', '--hardware', 'ascend-910c', '--quantization', 'modelslim'],
    disaggregated: {
      prefill: [
        '--disaggregation-mode', 'prefill', '--tp', '32', '--nnodes', '2', '--max-running-requests', '1', '--disable-radix-cache',
        '--chunked-prefill-size', '-1', '--max-prefill-tokens', '68000', '--enable-nsa-prefill-context-parallel',
        '--speculative-algorithm', 'NEXTN', '--speculative-num-steps', '1', '--speculative-eagle-topk', '1', '--speculative-num-draft-tokens', '2',
      ],
      decode: [
        '--disaggregation-mode', 'decode', '--tp', '32', '--nnodes', '2', '--dp', '8', '--ep', '32', '--enable-dp-attention',
        '--max-running-requests', '32', '--moe-a2a-backend', 'deepep', '--deepep-mode', 'low_latency',
        '--speculative-algorithm', 'NEXTN', '--speculative-num-steps', '3', '--speculative-eagle-topk', '1', '--speculative-num-draft-tokens', '4',
      ],
    },
    workload: { numPrompts: 64, inputLen: 64000, outputLen: 3000, rangeRatio: 1, requestRate: Infinity, maxConcurrency: 32 },
    published: { durationS: 415.39, meanTtftMs: 43399.83, medianTtftMs: 37861.23, meanTpotMs: 27.29, meanItlMs: 27.29, medianItlMs: 23.48, outputThroughput: 462.22, acceptLength: 2.67 },
  },
];

/** `count` log-normal lengths (shape `sigma`) rescaled to sum to `total`, each at least 2 tokens. */
function logNormalLens(numpy: NumpyRandomState, count: number, sigma: number, total: number): number[] {
  const raw = Array.from({ length: count }, () => {
    const u = Math.max(numpy.randomSample(), 1e-12);
    return Math.exp(sigma * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * numpy.randomSample()));
  });
  const sum = raw.reduce((a, b) => a + b, 0);
  return raw.map((x) => Math.max(2, Math.round((x * total) / sum)));
}

export type Predicted = Omit<Published, 'acceptLength'> & { acceptLength: number | null };

/** A fresh engine of a case's launch flags: one instance, or the PD-separated pair. */
function engineOf(c: CalibrationCase): SimEngine {
  const options = { seed: 1, ...(c.workload.acceptLength === undefined ? {} : { acceptLength: c.workload.acceptLength }) };
  const pd = c.disaggregated;
  if (!pd) return createEngine(parseLaunchArgs(c.launch).launch, options);
  const launch = (own: string[]) => parseLaunchArgs([...c.launch, ...own]).launch;
  return createDisaggregatedEngine([launch(pd.prefill)], [launch(pd.decode)], options);
}

/** Runs one case's workload (seed 1) through a fresh engine of its launch flags. */
export function predictCalibrationCase(c: CalibrationCase): Predicted {
  const numpy = new NumpyRandomState(1);
  const names = { length: '--random-input-len', ratio: '--random-range-ratio' };
  const { numPrompts, sharegptTotals } = c.workload;
  const inputs = sharegptTotals
    ? logNormalLens(numpy, numPrompts, 1.5, sharegptTotals.input)
    : computeRandomLens(numpy, c.workload.inputLen, c.workload.rangeRatio, numPrompts, names);
  const outputs = sharegptTotals
    ? logNormalLens(numpy, numPrompts, 0.9, sharegptTotals.output)
    : computeRandomLens(numpy, c.workload.outputLen, c.workload.rangeRatio, numPrompts, names);
  const rows = rowsFromLengths(inputs, outputs);
  const result = predictRun(engineOf(c), rows, { requestRate: c.workload.requestRate, maxConcurrency: c.workload.maxConcurrency, numpy });
  const m = predictedMetrics(result);
  return {
    durationS: result.durationS,
    meanTtftMs: m.meanTtftMs,
    medianTtftMs: m.medianTtftMs,
    meanTpotMs: m.meanTpotMs,
    meanItlMs: m.meanItlMs,
    medianItlMs: m.medianItlMs,
    outputThroughput: m.outputThroughput,
    acceptLength: result.acceptLength,
  };
}

