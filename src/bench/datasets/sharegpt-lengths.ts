/**
 * A length model of the sharegpt dataset (ShareGPT_V3_unfiltered_cleaned_split.json as
 * bench_serving samples it: first human turn as the prompt, first reply as the output, in tokens),
 * for predictions made without the file: the performance model reads lengths only.
 *
 * Prompt and output lengths are independent log-normals. Their spreads are assumptions (first turns
 * are heavy-tailed: pasted code and documents); their medians are fitted so that, pruned as vLLM's
 * benchmark_serving prunes ShareGPT (both lengths at least 4, prompt at most 1024, prompt plus output
 * at most 2048), 1000 prompts average what published runs of that script report:
 *   - 215,201 input / 198,588 output tokens, Llama-3-8B tokenizer, seed 0 (OpenVINO model_server,
 *     demos/continuous_batching README);
 *   - 217,393 / 197,767, Qwen2.5-7B tokenizer (a Qwen2.5-7B-FP8 serving write-up).
 * That is a mean of about 216 prompt and 198 output tokens after pruning; bench_serving itself prunes
 * only below 2 tokens and above --sharegpt-context-len, so unpruned the model averages about 314 / 203
 * (medians 153 / 135). Tokenizers differ by a few percent; treat the model as ±15%.
 */
import type { NumpyRandomState } from '../../core/rng.js';
import type { DatasetOptions } from '../run-config.js';
import { checkShareGptOutputLen } from './conversations.js';

const PROMPT = { median: 152.6, sigma: 1.2 };
const OUTPUT = { median: 135, sigma: 0.9 };
/** Conversations in the file: a sample never keeps more rows than it has pairs. */
const SHAREGPT_CONVERSATIONS = 94_145;

/** One standard normal from two uniforms (Box–Muller), so the draws stay on the run's numpy stream. */
function standardNormal(numpy: NumpyRandomState): number {
  const radius = Math.sqrt(-2 * Math.log(1 - numpy.randomSample()));
  return radius * Math.cos(2 * Math.PI * numpy.randomSample());
}

function logNormalTokens(numpy: NumpyRandomState, shape: { median: number; sigma: number }): number {
  return Math.round(shape.median * Math.exp(shape.sigma * standardNormal(numpy)));
}

/**
 * `--num-prompts` (prompt, output) token-length pairs drawn from `numpy`, kept as bench_serving keeps
 * ShareGPT rows: `--sharegpt-output-len` replaces the output length, pairs with a length below 2 or a
 * sum above `--sharegpt-context-len` are skipped, and no more pairs are tried than the file holds.
 */
export function sampleShareGptLengths(options: DatasetOptions, numpy: NumpyRandomState): { inputLens: number[]; outputLens: number[] } {
  const { outputLen: fixedOutput, contextLen } = options.sharegpt;
  checkShareGptOutputLen(fixedOutput);
  const inputLens: number[] = [];
  const outputLens: number[] = [];
  for (let tried = 0; tried < SHAREGPT_CONVERSATIONS && inputLens.length < options.numPrompts; tried++) {
    const promptLen = logNormalTokens(numpy, PROMPT);
    const drawnOutput = logNormalTokens(numpy, OUTPUT);
    const outputLen = fixedOutput ?? drawnOutput;
    if (promptLen < 2 || outputLen < 2) continue;
    if (contextLen && promptLen + outputLen > contextLen) continue;
    inputLens.push(promptLen);
    outputLens.push(outputLen);
  }
  return { inputLens, outputLens };
}
