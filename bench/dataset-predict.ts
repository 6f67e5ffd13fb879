/**
 * Wall time of `servebench predict` on every dataset at the sizes of published runs (1000-2048
 * prompts; 1000 1080p images for the image dataset), workload building included: a prediction
 * should take seconds on a small machine, whatever the dataset. Files the datasets read (custom,
 * openai, mooncake) are written to a temp folder. Prints the figures, asserts nothing.
 * Run: npx tsx bench/dataset-predict.ts
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseBenchArgs } from '../src/bench/args/parse.js';
import { resolveRunConfig } from '../src/bench/run-config.js';
import { lengthOnlyWorkload, predictBench, predictionWorkloads } from '../src/predict/index.js';
import { parseDeployment } from '../src/sim/index.js';

const TEXT_MODEL = 'Qwen/Qwen3-8B';
const VL_MODEL = 'Qwen/Qwen3-VL-8B-Instruct';
const ROWS = 1000;
const dir = mkdtempSync(join(tmpdir(), 'servebench-dataset-predict-'));

/** A sentence of `words` words, so files hold prompts of a few hundred tokens. */
const sentence = (i: number, words: number) => Array.from({ length: words }, (_, k) => `word${(i * 7 + k) % 97}`).join(' ');
const jsonl = (name: string, lines: unknown[]) => {
  const path = join(dir, name);
  writeFileSync(path, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
  return path;
};
const indices = Array.from({ length: ROWS }, (_, i) => i);
const customPath = jsonl('custom.jsonl', indices.map((i) => ({ conversations: [{ content: sentence(i, 200) }, { content: sentence(i + 1, 150) }] })));
const openaiPath = jsonl('openai.jsonl', indices.map((i) => ({ messages: [{ role: 'user', content: sentence(i, 200) }], max_tokens: 256 })));
const mooncakePath = jsonl('mooncake.jsonl', indices.map((i) => ({ timestamp: i * 50, input_length: 2048, output_length: 256, hash_ids: [i % 13, 100 + i, 2000 + i, 3000 + i] })));

const CASES: Array<{ name: string; model: string; flags: string[] }> = [
  { name: 'random 1K/1K x 2048', model: TEXT_MODEL, flags: ['--dataset-name', 'random', '--random-input-len', '1024', '--random-output-len', '1024', '--random-range-ratio', '1', '--num-prompts', '2048'] },
  { name: 'random-ids 1K/1K x 1000', model: TEXT_MODEL, flags: ['--dataset-name', 'random-ids', '--random-input-len', '1024', '--random-output-len', '1024', '--random-range-ratio', '1', '--num-prompts', `${ROWS}`] },
  { name: 'sharegpt (length model) x 1000', model: TEXT_MODEL, flags: ['--dataset-name', 'sharegpt', '--num-prompts', `${ROWS}`] },
  { name: 'generated-shared-prefix 64 x 16', model: TEXT_MODEL, flags: ['--dataset-name', 'generated-shared-prefix'] },
  { name: 'custom x 1000', model: TEXT_MODEL, flags: ['--dataset-name', 'custom', '--dataset-path', customPath, '--num-prompts', `${ROWS}`] },
  { name: 'openai x 1000', model: TEXT_MODEL, flags: ['--dataset-name', 'openai', '--dataset-path', openaiPath, '--num-prompts', `${ROWS}`, '--backend', 'sglang-oai-chat'] },
  { name: 'mooncake x 1000', model: TEXT_MODEL, flags: ['--dataset-name', 'mooncake', '--dataset-path', mooncakePath, '--num-prompts', `${ROWS}`] },
  { name: 'image 1080p, 1K/256 x 1000', model: VL_MODEL, flags: ['--dataset-name', 'image', '--image-resolution', '1080p', '--random-input-len', '1024', '--random-output-len', '256', '--num-prompts', `${ROWS}`] },
];

console.log(`${'dataset'.padEnd(36)}${'wall s'.padStart(10)}${'simulated s'.padStart(14)}  (max concurrency 64, one H100, ${process.platform} ${process.arch})`);
for (const c of CASES) {
  const started = performance.now();
  let result: string;
  try {
    const config = resolveRunConfig(parseBenchArgs([...c.flags, '--max-concurrency', '64']), { defaultModel: c.model });
    const workloads = await predictionWorkloads(config, lengthOnlyWorkload(config), () => {});
    const prediction = await predictBench(parseDeployment(['--model-path', c.model, '--hardware', 'h100'], [], []), config, workloads);
    result = prediction.durationS.toFixed(1).padStart(14);
  } catch (error) {
    result = `  refused: ${error instanceof Error ? error.message : String(error)}`;
  }
  console.log(`${c.name.padEnd(36)}${((performance.now() - started) / 1000).toFixed(2).padStart(10)}${result}`);
}
rmSync(dir, { recursive: true, force: true });
