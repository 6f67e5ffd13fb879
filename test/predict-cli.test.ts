/**
 * `servebench predict` end to end (the built CLI as a child process) on every training recipe:
 * each prints bench_serving's result block marked as a prediction, the largest workload in
 * seconds, and `--output-file` gets the JSONL record. Bad command lines end with one line.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { formatResultBlock } from '../src/bench/output/block.js';
import { NumpyRandomState } from '../src/core/rng.js';
import { storedCrossValidation } from '../src/sim/model/efficiency.js';
import type { PredictionCase } from '../src/calibration/cases.js';
import { trainingCases } from '../src/calibration/training-set.js';
import { parseBenchArgs } from '../src/bench/args/parse.js';
import { resolveRunConfig } from '../src/bench/run-config.js';
import { lengthOnlyWorkload, predictionWorkloads } from '../src/predict/bench-setup.js';
import { formatErrorPercent } from '../src/predict/expected-error.js';
import { parseDeployment } from '../src/sim/deployment/launch-deployment.js';
import { predictBench } from '../src/predict/prediction.js';
import { REPO_ROOT, runCli } from './helpers/cli.js';

const workDir = mkdtempSync(join(tmpdir(), 'servebench-predict-'));
after(() => rmSync(workDir, { recursive: true, force: true }));

/**
 * One case per recipe of the training set (model, hardware and launch flags), the largest workload
 * each ran: the ShareGPT runs are left out, their prompts are not available offline.
 */
function onePerRecipe(): PredictionCase[] {
  const byRecipe = new Map<string, PredictionCase>();
  const size = (c: PredictionCase): number => c.published.outputTps * (c.published.durationS ?? 1);
  for (const c of trainingCases(REPO_ROOT)) {
    if (c.workloadLengths !== null || c.prefillFlags !== null) continue;
    const key = [c.modelPath, c.hardware, ...c.launchFlags].join(' ');
    const known = byRecipe.get(key);
    if (known === undefined || size(c) > size(known)) byRecipe.set(key, c);
  }
  return [...byRecipe.values()];
}

function metric(stdout: string, label: string): number {
  const match = new RegExp(`^${label.replace(/[()/]/g, '\\$&')}:\\s+(\\S+)`, 'm').exec(stdout);
  assert.ok(match, `no '${label}' line in:\n${stdout}`);
  return Number(match[1]);
}

describe('servebench predict on the training recipes, each with its own flags', () => {
  for (const c of onePerRecipe()) {
    test(`${c.id} ${c.name}`, async () => {
      const started = Date.now();
      const result = await runCli(['predict', '--model-path', c.modelPath, '--hardware', c.hardware, ...c.launchFlags, '--', '--backend', c.backend, ...c.benchFlags]);
      const seconds = (Date.now() - started) / 1000;
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /^servebench predict: .+; virtual time, no server contacted$/m);
      assert.match(result.stdout, /^============ Serving Benchmark Result ============$/m);
      assert.match(result.stdout, /^Prediction \(servebench performance model, not a measurement\): [\d.]+ s of virtual time computed in [\d.]+ s$/m);
      assert.equal(metric(result.stdout, 'Successful requests'), Number(c.benchFlags[c.benchFlags.indexOf('--num-prompts') + 1]));
      assert.ok(metric(result.stdout, 'Output token throughput (tok/s)') > 0);
      // The largest training workloads (2048 prompts of 1K/1K on 16 H800s, 1088 of 3.5K/1.5K on 16 A3 dies): seconds, not minutes.
      assert.ok(seconds < 30, `${c.name} took ${seconds.toFixed(1)} s`);
    });
  }
});

describe('servebench predict on the PD-separated reference recipe', () => {
  test('DeepSeek-V3.2-Exp W8A8 on 32 A3 cards: one prefill and one decode instance, 64K/3K at concurrency 32', async () => {
    const prefill = '--tp 32 --nnodes 2 --max-running-requests 1 --disable-radix-cache --chunked-prefill-size -1 --max-prefill-tokens 68000 ' +
      '--enable-nsa-prefill-context-parallel --speculative-algorithm NEXTN --speculative-num-steps 1 --speculative-eagle-topk 1 --speculative-num-draft-tokens 2';
    const decode = '--tp 32 --nnodes 2 --dp 8 --ep 32 --enable-dp-attention --max-running-requests 32 --moe-a2a-backend deepep ' +
      '--deepep-mode low_latency --speculative-algorithm NEXTN --speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4';
    const result = await runCli([
      'predict', '--model-path', '/root/.cache/modelscope/hub/models/DeepSeek-V3.2-Exp-W8A8', '--hardware', 'ascend-910c', '--quantization', 'modelslim',
      '--prefill', prefill, '--decode', decode,
      '--', '--dataset-name', 'random', '--random-input-len', '64000', '--random-output-len', '3000', '--random-range-ratio', '1',
      '--num-prompts', '64', '--max-concurrency', '32', '--seed', '1',
    ]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^servebench predict: DeepSeek-V3\.2-Exp on 64 dies = 32 cards of ascend-910c: PD separated \(1 prefill, 1 decode\)/m);
    assert.equal(metric(result.stdout, 'Successful requests'), 64);
    // As the published log: bench_serving's random prompts leave room for the one special token.
    assert.equal(metric(result.stdout, 'Total input tokens'), 4095936);
    // The decode side runs MTP: the block reports an accept length.
    assert.ok(metric(result.stdout, 'Accept length') > 1);
  });
});

describe('servebench predict output and errors', () => {
  const launch = ['--model-path', 'Qwen/Qwen2.5-0.5B-Instruct', '--hardware', 'h100'];
  const workload = ['--dataset-name', 'random', '--random-input-len', '64', '--random-output-len', '16', '--num-prompts', '50', '--seed', '1'];

  test('--output-file appends the JSONL record, with the same figures as the block', async () => {
    const file = join(workDir, 'predict.jsonl');
    const result = await runCli(['predict', ...launch, '--', ...workload, '--output-file', file]);
    assert.equal(result.code, 0, result.stderr);
    const record = JSON.parse(readFileSync(file, 'utf8').trim().replace(/\bInfinity\b/g, '1e999')) as Record<string, unknown>;
    assert.equal(record.completed, 50);
    assert.equal(record.server_info, null);
    assert.equal((record.output_throughput as number).toFixed(2), metric(result.stdout, 'Output token throughput (tok/s)').toFixed(2));
    // The expected error the stored fit states (none before the model is cross-validated).
    const summary = storedCrossValidation();
    assert.deepEqual(
      (record.servebench as Record<string, unknown>).prediction_error,
      summary && { mean_tpot: summary.meanTpot, output_throughput: summary.outputThroughput, mean_ttft: summary.meanTtft },
    );
  });

  test("the reference block is bench_serving's, untouched; the extras end with the stored fit's expected error", async () => {
    const result = await runCli(['predict', ...launch, '--', ...workload]);
    assert.equal(result.code, 0, result.stderr);
    // The same prediction in-process (virtual time, same seed: the same figures), through bench_serving's block formatter.
    const config = resolveRunConfig(parseBenchArgs(workload), { defaultModel: 'Qwen/Qwen2.5-0.5B-Instruct' });
    const workloads = await predictionWorkloads(config, lengthOnlyWorkload(config), () => {});
    const prediction = await predictBench(parseDeployment(launch, [], []), config, workloads);
    const block = formatResultBlock(prediction.metrics, config);
    assert.ok(result.stdout.includes(`${block}----------------servebench extras-----------------\n`), result.stdout);

    const lines = result.stdout.split('\n');
    const start = lines.indexOf('---------Expected error of the prediction---------');
    assert.ok(start > 0, result.stdout);
    const section = lines.slice(start + 1, lines.indexOf('='.repeat(50), start));
    const summary = storedCrossValidation();
    if (summary === null) {
      assert.deepEqual(section, ['Expected error:                          not known yet: the performance model has no cross-validated error']);
      assert.ok(!result.stdout.includes('±'), result.stdout);
    } else {
      // Each figure as the block prints it, then its ±.
      const figure = (label: string): string => `${label.padEnd(40)} ${/^\S.*?:\s+(\S+)/.exec(lines.find((line) => line.startsWith(label))!)![1]}`;
      assert.deepEqual(section, [
        `${figure('Mean TPOT (ms):')} (${formatErrorPercent(summary.meanTpot)})`,
        `${figure('Output token throughput (tok/s):')} (${formatErrorPercent(summary.outputThroughput)})`,
        `${figure('Mean TTFT (ms):')} (${formatErrorPercent(summary.meanTtft)})`,
        `${'Expected error:'.padEnd(40)} median |error| of leave-one-group-out cross-validation over ${summary.cases} published runs (${summary.groups} model × hardware groups)`,
      ]);
    }
  });

  test('the same seed gives the same prediction', async () => {
    const [a, b] = await Promise.all([runCli(['predict', ...launch, '--', ...workload]), runCli(['predict', ...launch, '--', ...workload])]);
    const block = (text: string): string => text.slice(text.indexOf('====='), text.indexOf('Prediction ('));
    assert.equal(block(a.stdout), block(b.stdout));
  });

  for (const [args, pattern, code] of [
    [['--tp', '2', '--', ...workload], /--model-path/, 2],
    [[...launch, '--bogus-flag', '--', ...workload], /unrecognized argument --bogus-flag/, 2],
    [[...launch, '--', '--dataset-name', 'nope'], /invalid choice/, 2],
    [['--model-path', 'Qwen/Qwen2.5-72B-Instruct', '--hardware', 'h100', '--', ...workload], /needs [\d.]+ GB per GPU.*raise --tp-size/, 1],
    [['--model-path', 'Qwen/Qwen3-32B', '--prefill', '--tp 2', '--', ...workload], /both --prefill .* and --decode/, 2],
    [[...launch, '--', ...workload, '--use-trace-timestamps'], /does not replay trace timestamps/, 1],
  ] as const) {
    test(`fails with one line: ${args.join(' ').slice(0, 60)}`, async () => {
      const result = await runCli(['predict', ...args]);
      assert.equal(result.code, code, result.stderr);
      const lines = result.stderr.trim().split('\n');
      assert.equal(lines.length, 1, result.stderr);
      assert.match(lines[0] as string, /^servebench predict: error: /);
      assert.match(lines[0] as string, pattern);
    });
  }
});

describe('servebench predict without a tokenizer for the model', () => {
  const launch = ['--sim-model', 'qwen2.5-7b', '--hardware', 'h100'];
  const workload = ['--dataset-name', 'random', '--random-input-len', '64', '--random-output-len', '16', '--num-prompts', '8'];
  /** Seed 1's input lengths of `workload`: the first numpy draws, as bench_serving makes them. */
  const inputTotal = new NumpyRandomState(1).randint(1, 65, 8).reduce((a, b) => a + b, 0);
  const notes = (stdout: string): string[] => stdout.split('\n').filter((line) => line.startsWith('note: no tokenizer'));

  test('random runs on the sampled lengths, with one note saying so', async () => {
    const result = await runCli(['predict', '--model-path', 'some-org/UnknownModel-7B', ...launch, '--', ...workload]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(notes(result.stdout), [
      'note: no tokenizer for some-org/UnknownModel-7B was found, so the random workload was built from its sampled lengths alone, ' +
        'assuming its tokenizer adds 0 special tokens per prompt; pass --tokenizer PATH (a local HF folder or tokenizer.json) to build it from text',
    ]);
    assert.equal(metric(result.stdout, 'Successful requests'), 8);
    assert.equal(metric(result.stdout, 'Total input tokens'), inputTotal);
    assert.match(result.stdout, /^Prediction \(servebench performance model, not a measurement\)/m);
  });

  test("a local model folder's tokenizer_config.json gives the special tokens bench subtracts", async () => {
    const folder = join(workDir, 'UnknownModel-7B');
    mkdirSync(folder);
    writeFileSync(join(folder, 'tokenizer_config.json'), JSON.stringify({ add_bos_token: true, bos_token: '<s>' }));
    const result = await runCli(['predict', '--model-path', folder, ...launch, '--', ...workload]);
    assert.equal(result.code, 0, result.stderr);
    const [note, ...more] = notes(result.stdout);
    assert.equal(more.length, 0, result.stdout);
    assert.ok(note!.includes(`taking 1 special token per prompt from ${join(folder, 'tokenizer_config.json')}`), note);
    assert.equal(metric(result.stdout, 'Total input tokens'), inputTotal - 8);
  });

  test('a bundled vocabulary needs no note', async () => {
    const result = await runCli(['predict', '--model-path', 'meta-llama/Llama-3.1-8B-Instruct', ...launch, '--', ...workload]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(notes(result.stdout), []);
    // Llama 3 encodes a BOS, which bench_serving leaves room for.
    assert.equal(metric(result.stdout, 'Total input tokens'), inputTotal - 8);
  });

  test('sweep --predict prints the note once for the whole sweep', async () => {
    const result = await runCli([
      'sweep', '--no-catalog', '--concurrency', '1,2', '--predict', `--model-path some-org/UnknownModel-7B ${launch.join(' ')}`, '--', ...workload, '--seed', '1',
    ]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(notes(result.stdout).length, 1, result.stdout);
  });

  test('a dataset that needs text fails with one line naming --tokenizer', async () => {
    const result = await runCli(['predict', '--model-path', 'some-org/UnknownModel-7B', ...launch, '--', '--dataset-name', 'generated-shared-prefix', '--gsp-num-groups', '2']);
    assert.equal(result.code, 1, result.stderr);
    const lines = result.stderr.trim().split('\n');
    assert.equal(lines.length, 1, result.stderr);
    assert.match(lines[0] as string, /^servebench predict: error: no tokenizer for model 'some-org\/UnknownModel-7B': pass --tokenizer/);
  });
});

describe('servebench predict on sharegpt without its file', () => {
  const launch = ['--model-path', 'Qwen/Qwen2.5-0.5B-Instruct', '--hardware', 'h100'];
  const workload = ['--dataset-name', 'sharegpt', '--num-prompts', '50', '--seed', '1'];
  const notes = (stdout: string): string[] => stdout.split('\n').filter((line) => line.startsWith('note: without --dataset-path the sharegpt workload'));

  test('predict prints the result block on the bundled length model, with one note saying so', async () => {
    const result = await runCli(['predict', ...launch, '--', ...workload]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(notes(result.stdout).length, 1, result.stdout);
    assert.match(result.stdout, /^============ Serving Benchmark Result ============$/m);
    assert.equal(metric(result.stdout, 'Successful requests'), 50);
  });

  test('sweep --predict runs on it too, the note printed once', async () => {
    const result = await runCli(['sweep', '--no-catalog', '--concurrency', '1,4', '--predict', launch.join(' '), '--', ...workload]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(notes(result.stdout).length, 1, result.stdout);
  });
});
