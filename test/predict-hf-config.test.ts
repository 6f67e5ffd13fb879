/**
 * `servebench predict --model-path DIR` where DIR holds a Hugging Face config.json of a model the catalog
 * does not know: the built CLI predicts it from the config, and a config it cannot read ends in one line.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { runCli } from './helpers/cli.js';

const workDir = mkdtempSync(join(tmpdir(), 'servebench-hf-config-'));
after(() => rmSync(workDir, { recursive: true, force: true }));

/** A made-up 20-layer GQA decoder, named so that no catalog alias could match it. */
const madeUpConfig = {
  architectures: ['LlamaForCausalLM'], model_type: 'llama', num_hidden_layers: 20, hidden_size: 2048, num_attention_heads: 16,
  num_key_value_heads: 4, intermediate_size: 5632, vocab_size: 32000, max_position_embeddings: 8192, tie_word_embeddings: false,
  torch_dtype: 'bfloat16',
};

function modelDir(name: string, config: Record<string, unknown>): string {
  const dir = join(workDir, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
  return dir;
}

const workload = [
  '--dataset-name', 'random', '--random-input-len', '64', '--random-output-len', '16', '--num-prompts', '8', '--seed', '1',
  '--tokenizer', 'Qwen/Qwen3-8B',
];

function metric(stdout: string, label: string): number {
  const match = new RegExp(`^${label.replace(/[()/]/g, '\\$&')}:\\s+(\\S+)`, 'm').exec(stdout);
  assert.ok(match, `no '${label}' line in:\n${stdout}`);
  return Number(match[1]);
}

describe('servebench predict from a local config.json', () => {
  test('a model the catalog does not know is predicted from its config', async () => {
    const dir = modelDir('acme-tiny-20l', madeUpConfig);
    const result = await runCli(['predict', '--model-path', dir, '--hardware', 'h100', '--', ...workload]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^servebench predict: acme-tiny-20l on 1 x h100: .*virtual time, no server contacted$/m);
    assert.match(result.stdout, /^============ Serving Benchmark Result ============$/m);
    assert.equal(metric(result.stdout, 'Successful requests'), 8);
    for (const label of ['Output token throughput (tok/s)', 'Mean TTFT (ms)', 'Mean TPOT (ms)', 'Mean E2E Latency (ms)']) {
      const value = metric(result.stdout, label);
      assert.ok(Number.isFinite(value) && value > 0, `${label}: ${value}`);
    }
    // A TTFT above a second for 8 short prompts on one H100 would mean the config was misread.
    assert.ok(metric(result.stdout, 'Mean TTFT (ms)') < 1000);
  });

  test('on a device described by --hardware-spec: a faster made-up device predicts a faster run', async () => {
    const dir = modelDir('acme-tiny-20l-spec', madeUpConfig);
    const device = (name: string, hbmTBs: number, bf16Tflops: number): string => {
      const file = join(workDir, `${name}.json`);
      writeFileSync(file, JSON.stringify({ name, family: 'nvidia', bf16Tflops, hbmGB: 64, hbmTBs, scaleUpGBs: 100 }));
      return file;
    };
    const run = async (spec: string) => {
      const result = await runCli(['predict', '--model-path', dir, '--hardware-spec', spec, '--', ...workload, '--max-concurrency', '4']);
      assert.equal(result.code, 0, result.stderr);
      return result.stdout;
    };
    const slow = await run(device('Acme Slow', 0.5, 100));
    const fast = await run(device('Acme Fast', 4, 800));
    assert.match(slow, /^servebench predict: acme-tiny-20l-spec on 1 x acme-slow: /m);
    assert.equal(metric(slow, 'Successful requests'), 8);
    // The 20-layer model's 4.7 GB of BF16 weights are read every decode step: 8x the bandwidth, a much shorter step.
    assert.ok(metric(fast, 'Mean TPOT (ms)') < 0.5 * metric(slow, 'Mean TPOT (ms)'), `${metric(fast, 'Mean TPOT (ms)')} vs ${metric(slow, 'Mean TPOT (ms)')}`);
  });

  test('a config.json missing a required field exits non-zero with one line naming the field', async () => {
    const { num_attention_heads: _heads, ...headless } = madeUpConfig;
    const dir = modelDir('acme-broken', headless);
    const result = await runCli(['predict', '--model-path', dir, '--hardware', 'h100', '--', ...workload]);
    assert.equal(result.code, 1, result.stderr);
    const lines = result.stderr.trim().split('\n');
    assert.equal(lines.length, 1, result.stderr);
    assert.match(lines[0]!, /^servebench predict: error: .*config\.json: 'num_attention_heads' is missing; .*--sim-model NAME$/);
    assert.doesNotMatch(result.stderr, /\n\s+at /);
  });
});
