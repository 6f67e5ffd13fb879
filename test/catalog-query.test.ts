/**
 * `servebench runs | show | compare | table` on a catalog built from the reference logs and the
 * catalog fixtures. The best-practice table is checked against values worked out by hand:
 * output tok/s ÷ cards, e.g. 480B 1489.93 / 8 = 186.24 (16 A3 dies = 8 cards).
 */
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './fixtures/catalog/run-cli.js';
import { referenceLogPath } from './helpers/reference-logs.js';

const CODER = referenceLogPath('qwen3-coder-480b-w8a8_ascend_3500-1500_c80.log');
const DS64K = referenceLogPath('deepseek-v3.2-exp-w8a8_ascend-a3_64k-3k_c32.log');
const COOKBOOK = referenceLogPath('deepseek-v3.2_nvidia_cookbook-results.log');
const QWEN25 = referenceLogPath('qwen2.5-0.5b_cuda-graph_64-16_r0.log');

/** The deployments shared/reference/README.md states for the Ascend logs (the logs hold none). */
const CODER_LAUNCH =
  'python -m sglang.launch_server --model-path /m/Qwen3-Coder-480B --tp 16 --dp-size 4 --enable-dp-attention --enable-dp-lm-head ' +
  '--moe-a2a-backend deepep --max-running-requests 80 --chunked-prefill-size 28672 --context-length 8192 --disable-radix-cache --quantization modelslim';
const DS_PREFILL = 'python -m sglang.launch_server --disaggregation-mode prefill --nnodes 2 --tp 32 --max-running-requests 1 --chunked-prefill-size -1';
const DS_DECODE = 'python -m sglang.launch_server --disaggregation-mode decode --nnodes 2 --tp 32 --dp 8 --ep 32 --enable-dp-attention --max-running-requests 32';

const dir = mkdtempSync(join(tmpdir(), 'servebench-query-'));
const db = join(dir, 'catalog.db');
after(() => rmSync(dir, { recursive: true, force: true }));

function cli(...args: string[]): string {
  const result = runCli([...args, '--db', db]);
  assert.equal(result.status, 0, result.stderr);
  return result.stdout;
}

before(() => {
  cli('ingest', CODER, '--label', 'hardware=ascend-a3', '--launch', CODER_LAUNCH);
  cli('ingest', DS64K, '--launch', DS_PREFILL, '--launch', DS_DECODE);
  cli('ingest', QWEN25, COOKBOOK);
});

describe('servebench table', () => {
  test('CSV of the reference runs matches the hand-checked table', () => {
    const cookbook = referenceLogPath('deepseek-v3.2_nvidia_cookbook-results.log');
    const expected = [
      'latency_class,model,hardware,cards,deploy_mode,dataset,quantization,mean_tpot_ms,output_tok_s_per_card,recipe,source,run_id,cards_derivation,definition_notes,repeat_runs,confidence_level,mean_tpot_ms_ci_half_width,output_tok_s_per_card_ci_half_width',
      // 86.20 / 16 = 5.3875; 95.62 / 8 = 11.9525
      `low-latency,DeepSeek-V3.2,H800,16,PD mixed,1K-1K,,10.99,5.39,"H800 x16 (2 nodes), DeepSeek-V3.2, TP16 DP2 dp-attention + MTP, concurrency 1",${cookbook},9777447346e8,label cards=16,,,,,`,
      `low-latency,DeepSeek-V3.2-Exp,B200,8,PD mixed,1K-1K,,9.09,11.95,"B200 x8, DeepSeek-V3.2-Exp, TP8, EAGLE/MTP, concurrency 1",${cookbook},ca726b6370b1,label cards=8,,,,,`,
      `low-latency,qwen2.5-0.5b,,,,64-16,,3.00,,qwen2.5-0.5b_cuda-graph_64-16_r0.log,${QWEN25},62b1a1ae1b60,,,,,,`,
      // 3421.84 / 16 = 213.865; 2530.66 / 16 = 158.166; 462.22 / 32 = 14.444; 1489.93 / 8 = 186.241
      `balanced,DeepSeek-V3.2,H800,16,PD mixed,1K-1K,,36.31,213.87,"H800 x16, same deployment and benchmark plus --random-range-ratio 1",${cookbook},dbc9eeab1996,label cards=16,,,,,`,
      `balanced,DeepSeek-V3.2,H800,16,PD mixed,1K-1K,,49.18,158.17,"H800 x16, same deployment, concurrency 1024, 2048 prompts",${cookbook},4e022ca2de0d,label cards=16,,,,,`,
      `balanced,DeepSeek-V3.2-Exp-W8A8,ascend-a3,32,PD separation,64K-3K,W8A8,27.29,14.44,deepseek-v3.2-exp-w8a8_ascend-a3_64k-3k_c32.log,${DS64K},084bbcde76cb,recipe: prefill 32 + decode 32 dies = 32 ascend-a3 cards (2 dies per card),,,,,`,
      `balanced,Qwen3-Coder-480B-A35B-Instruct-w8a8-QuaRot,ascend-a3,8,PD mixed,3.5K-1.5K,W8A8,49.43,186.24,qwen3-coder-480b-w8a8_ascend_3500-1500_c80.log,${CODER},067751541dd3,recipe: mixed 16 dies = 8 ascend-a3 cards (2 dies per card),,,,,`,
      // 859.80 / 8 = 107.475
      `high-throughput,DeepSeek-V3.2-Exp,B200,8,PD mixed,1K-1K,,106.16,107.48,"B200 x8, DeepSeek-V3.2-Exp, TP8 EP8 DP8 dp-attention, concurrency 100",${cookbook},3718f513569f,label cards=8,,,,,`,
    ];
    assert.equal(cli('table', '--format', 'csv'), expected.join('\n') + '\n');
  });

  test('Markdown groups by custom classes; filters narrow the rows', () => {
    const md = cli('table', '--classes', 'fast:<=30,rest', '--hardware', 'ascend');
    assert.equal(
      md,
      [
        '### fast (mean TPOT <= 30 ms)',
        '',
        '| Model | Hardware | Cards | Deploy mode | Dataset | Quantization | Mean TPOT (ms) | Output tok/s per card | Recipe |',
        '|---|---|---|---|---|---|---|---|---|',
        `| DeepSeek-V3.2-Exp-W8A8 | ascend-a3 | 32 | PD separation | 64K-3K | W8A8 | 27.29 | 14.44 | [deepseek-v3.2-exp-w8a8_ascend-a3_64k-3k_c32.log](<${DS64K}>) (run 084bbcde76cb) |`,
        '',
        '### rest',
        '',
        '| Model | Hardware | Cards | Deploy mode | Dataset | Quantization | Mean TPOT (ms) | Output tok/s per card | Recipe |',
        '|---|---|---|---|---|---|---|---|---|',
        `| Qwen3-Coder-480B-A35B-Instruct-w8a8-QuaRot | ascend-a3 | 8 | PD mixed | 3.5K-1.5K | W8A8 | 49.43 | 186.24 | [qwen3-coder-480b-w8a8_ascend_3500-1500_c80.log](<${CODER}>) (run 067751541dd3) |`,
        '',
      ].join('\n'),
    );
  });

  test('HTML escapes everything that came from a log', () => {
    cli('ingest', 'test/fixtures/catalog/ascend-recipes.md');
    const out = join(dir, 'table.html');
    cli('table', '--format', 'html', '--model', 'Qwen3-235B', '-o', out);
    const html = readFileSync(out, 'utf8');
    assert.ok(html.includes('same deployment &lt;b&gt;new&lt;/b&gt; &amp; &quot;quoted&quot;'));
    assert.equal(html.includes('<b>new</b>'), false);
    assert.ok(html.includes('<td>W4A8</td><td>25.00</td><td>200.00</td>'), '3200 tok/s over 16 cards');
    assert.ok(html.includes('<td>W8A8</td><td>48.50</td><td>750.00</td>'), '6000 tok/s over 8 cards');
  });

  test('bad class specs and empty selections are one-line errors', () => {
    const bad = runCli(['table', '--db', db, '--classes', 'a:<=50,b:<=20']);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /bounds must increase/);
    const none = runCli(['table', '--db', db, '--model', 'no-such-model']);
    assert.equal(none.status, 1);
    assert.match(none.stderr, /no measured runs match/);
  });
});

describe('servebench runs / show / compare', () => {
  test('runs lists newest first and filters by model, hardware, label, since and limit', () => {
    const all = cli('runs').trim().split('\n');
    assert.match(all[0]!, /^ID\s+WHEN\s+MODE\s+MODEL/);
    assert.ok(all.length >= 10);
    const coder = cli('runs', '--model', 'coder').trim().split('\n').slice(2);
    assert.deepEqual(coder.map((l) => l.split(/\s+/)[0]), ['067751541dd3']);
    const h800 = cli('runs', '--hardware', 'h800', '--limit', '2').trim().split('\n').slice(2);
    assert.deepEqual(h800.map((l) => l.split(/\s+/)[0]), ['dbc9eeab1996', '4e022ca2de0d']);
    const b200 = cli('runs', '--label', 'cards=8', '--label', 'hardware=B200').trim().split('\n').slice(2);
    assert.deepEqual(b200.map((l) => l.split(/\s+/)[0]), ['3718f513569f', 'ca726b6370b1']);
    assert.match(cli('runs', '--since', '2999-01-01'), /^no runs match/);
    const bad = runCli(['runs', '--db', db, '--since', 'last tuesday']);
    assert.equal(bad.status, 2);
  });

  test('show prints metrics, recipe configuration, labels and warnings', () => {
    const text = cli('show', '9777');
    assert.match(text, /^run 9777447346e8/);
    assert.match(text, /cards:\s+16 \(label cards=16\)/);
    assert.match(text, /mean_tpot_ms\s+10\.99/);
    assert.match(text, /mixed \(sglang serve\): .*tpSize=16 dpSize=2 enableDpAttention=true/);
    assert.match(text, /export SGLANG_SET_CPU_AFFINITY=1/);
    assert.match(text, /warnings:\n {2}--model-path is the shell variable \$MAPPED_MODEL_PATH/);
    const missing = runCli(['show', '--db', db, 'ffffff']);
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /no run 'ffffff'/);
  });

  test('compare flags a TTFT shift beyond the spread between requests and a TPOT jitter within it; one run cannot tell run-to-run noise', () => {
    const ingest = cli('ingest', 'test/fixtures/catalog/bench-details.jsonl');
    const [base, slower] = [...ingest.matchAll(/^ {2}([0-9a-f]{12}) /gm)].map((m) => m[1]!);
    const text = cli('compare', base!, slower!);
    assert.match(text, /mean_ttft_ms\s+99\.94\s+129\.52 \(\+29\.6%\)/);
    assert.match(text, /mean TTFT [0-9a-f]+ vs [0-9a-f]+: \+29\.58 ms \(95% Welch interval over requests [\d.]+ \.\. [\d.]+ ms, n=40\/40\): CHANGED beyond the spread between requests/);
    assert.match(text, /mean TPOT .*: within the spread between requests/);
    assert.match(text, /^run-to-run noise: runs [0-9a-f]{12}, [0-9a-f]{12} were measured once, and one run cannot tell a difference from run-to-run noise; measure each side with --num-runs N/m);
    const noDetails = cli('compare', '0677', '084b');
    assert.match(noDetails, /^request spread: runs 0677[0-9a-f]{8}, 084b[0-9a-f]{8} have no per-request records/m);
    // One side with 40 records, the other with none: the line names the one that lacks them.
    const oneSided = cli('compare', base!, '0677');
    assert.match(oneSided, /^request spread: run 0677[0-9a-f]{8} has no per-request records \(its source kept none\)/m);
    assert.doesNotMatch(oneSided, new RegExp(`run ${base} has no`));
    assert.equal(runCli(['compare', '--db', db, '0677']).status, 2);
  });

  test('query commands on a missing catalog say how to create one', () => {
    const result = runCli(['runs', '--db', join(dir, 'none.db')]);
    assert.equal(result.status, 1);
    assert.match(result.stderr, /no catalog at .*none\.db; record runs with 'servebench bench' or 'servebench ingest'/);
  });
});

describe('run modes: measured, simulated, predicted', () => {
  const modesDb = join(dir, 'modes.db');
  const record = (tag: string, outputThroughput: number, servebench: Record<string, unknown>, hardware = 'h100') =>
    JSON.stringify({
      tag, backend: 'sglang', dataset_name: 'random', random_input_len: 1024, random_output_len: 1024, max_concurrency: 8, request_rate: 'inf',
      duration: 10, completed: 10, output_throughput: outputThroughput, mean_tpot_ms: 8, mean_ttft_ms: 50,
      servebench: { labels: { hardware, cards: '1' }, ...servebench },
    });
  const modesCli = (...args: string[]) => runCli([...args, '--db', modesDb]);

  before(() => {
    const file = join(dir, 'modes.jsonl');
    writeFileSync(file, [
      record('on-h200', 1000, {}, 'h200'),
      record('sim', 1100, { sim: '--model-path Qwen/Qwen3-8B --hardware h100', sim_self_check: 'WARNING simulated server fell behind its model (write lateness p99 3.10 ms)' }),
      record('plan', 1200, { prediction_error: { mean_tpot: 0.14, output_throughput: 0.11, mean_ttft: 0.37 } }),
    ].join('\n') + '\n');
    assert.equal(modesCli('ingest', file).status, 0);
  });

  test('runs and show say what each run is; --mode filters', () => {
    const listed = modesCli('runs').stdout.trim().split('\n').slice(2);
    assert.deepEqual(listed.map((line) => line.split(/\s+/)[3]).sort(), ['measured', 'predicted', 'simulated']);
    assert.equal(modesCli('runs', '--mode', 'predicted,simulated').stdout.trim().split('\n').length, 4);
    // The run whose sim fell behind is flagged where it is listed, and show says why.
    const simulated = listed.find((line) => line.split(/\s+/)[3] === 'simulated')!;
    assert.equal(simulated.split(/\s+/).at(-2), '1', simulated);
    const shown = modesCli('show', simulated.split(/\s+/)[0]!).stdout;
    assert.match(shown, /warnings:\n {2}simulated server fell behind its model/);
    assert.match(shown, /self-checks:\n {2}WARNING simulated server fell behind/);
    const bad = modesCli('runs', '--mode', 'guessed');
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--mode 'guessed' is not a run mode; give measured, simulated, predicted/);
  });

  test('table keeps to measured runs unless asked, and then marks each row', () => {
    const measured = modesCli('table', '--format', 'csv').stdout.trim().split('\n');
    assert.equal(measured.length, 2, measured.join('\n'));
    assert.doesNotMatch(measured[0]!, /,mode,/);
    const all = modesCli('table', '--format', 'csv', '--mode', 'all').stdout.trim().split('\n');
    assert.equal(all.length, 4);
    assert.match(all[0]!, /,mode,suspect,/);
    assert.match(all.find((line) => line.includes(',simulated,'))!, /,simulated,simulated server fell behind its model/);
    assert.deepEqual(all.slice(1).map((line) => /,(measured|simulated|predicted),/.exec(line)?.[1]).sort(), ['measured', 'predicted', 'simulated']);
    // Only plans on h100: the table says so and how to see them.
    const plansOnly = modesCli('table', '--hardware', 'h100');
    assert.equal(plansOnly.status, 1);
    assert.match(plansOnly.stderr, /no measured runs match in .*; 2 (simulated or predicted|predicted or simulated) runs do: add --mode all/);
  });
});
