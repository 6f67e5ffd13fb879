/**
 * Time to prepare the reference workloads (tokenizer load + dataset build), in one process:
 *   - DeepSeek-V3.2: random 64000 in / 3000 out, range ratio 1, 64 prompts (budget < 5 s);
 *   - Qwen2.5: random 64 / 16, range ratio 0, 200 prompts;
 *   - DeepSeek-V3.2 random-ids with the same 64k shape;
 *   - Qwen3 generated-shared-prefix with its defaults (64 groups × 16 prompts);
 *   - Qwen2.5-VL image, 1080p random JPEG, 8 prompts (pixels come from numpy `rand`);
 * and the raw speed of the numpy stream (`rand` doubles per second).
 * Run: npx tsx bench/prepare-workload.ts
 */
import { parseBenchArgs } from '../src/bench/args/parse.js';
import { resolveRunConfig } from '../src/bench/run-config.js';
import { buildDataset } from '../src/bench/datasets/index.js';
import { NumpyRandomState } from '../src/core/rng.js';
import { loadTokenizer } from '../src/tokenizer/index.js';

async function timeWorkload(label: string, model: string, argv: string[]): Promise<void> {
  const started = performance.now();
  const tokenizer = await loadTokenizer({ model });
  const loaded = performance.now();
  const lines: string[] = [];
  const dataset = await buildDataset(resolveRunConfig(parseBenchArgs([...argv, '--model', model])), tokenizer, (line) => lines.push(line));
  const done = performance.now();
  const totals = lines.filter((l) => /input tokens/i.test(l)).join('; ');
  console.log(
    `${label}: ${((done - started) / 1000).toFixed(2)} s total ` +
      `(tokenizer ${((loaded - started) / 1000).toFixed(2)} s, dataset ${((done - loaded) / 1000).toFixed(2)} s), ` +
      `${dataset.rows.length} rows, ${totals}`,
  );
}

await timeWorkload('DeepSeek-V3.2 random 64000/3000 r=1 x64', 'deepseek-ai/DeepSeek-V3.2', [
  '--dataset-name', 'random', '--random-input-len', '64000', '--random-output-len', '3000', '--random-range-ratio', '1', '--num-prompts', '64',
]);
await timeWorkload('Qwen2.5 random 64/16 r=0 x200', 'Qwen/Qwen2.5-0.5B', [
  '--dataset-name', 'random', '--random-input-len', '64', '--random-output-len', '16', '--num-prompts', '200',
]);
await timeWorkload('DeepSeek-V3.2 random-ids 64000/3000 r=1 x64', 'deepseek-ai/DeepSeek-V3.2', [
  '--dataset-name', 'random-ids', '--random-input-len', '64000', '--random-output-len', '3000', '--random-range-ratio', '1', '--num-prompts', '64',
]);
await timeWorkload('Qwen3 generated-shared-prefix defaults (64x16)', 'Qwen/Qwen3-8B', ['--dataset-name', 'generated-shared-prefix']);
await timeWorkload('Qwen2.5-VL image 1080p random jpeg x8', 'Qwen/Qwen2.5-VL-7B-Instruct', [
  '--dataset-name', 'image', '--image-resolution', '1080p', '--random-input-len', '128', '--random-output-len', '64', '--num-prompts', '8',
]);

const draws = 20_000_000;
const rngStarted = performance.now();
new NumpyRandomState(1).rand(draws);
const rngSeconds = (performance.now() - rngStarted) / 1000;
console.log(`numpy rand: ${(draws / rngSeconds / 1e6).toFixed(1)} M doubles/s (${((2 * draws) / rngSeconds / 1e6).toFixed(1)} M MT19937 words/s)`);
