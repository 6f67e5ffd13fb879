import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../../core/errors.js';
import { REDACTED } from '../../core/redact.js';
import { splitCommandLine } from '../../core/command-line.js';
import { parseLaunchArgs } from './launch-flags.js';

describe('parseLaunchArgs', () => {
  test('fills LaunchConfig from SGLang flags, aliases and = forms', () => {
    const { launch, truth } = parseLaunchArgs([
      '--model-path', 'deepseek-ai/DeepSeek-V3.2-Exp', '--tp', '8', '--dp-size=4', '--ep', '8', '--enable-dp-attention',
      '--max-running-requests', '80', '--chunked-prefill-size', '-1', '--context-length', '8192', '--disable-radix-cache',
      '--speculative-algorithm', 'EAGLE', '--speculative-num-steps', '3', '--speculative-eagle-topk', '1',
      '--speculative-num-draft-tokens', '4', '--disaggregation-mode', 'decode', '--nnodes', '2', '--mem-fraction-static', '0.85',
      '--reasoning-parser', 'deepseek-v3', '--tool-call-parser', 'deepseekv32', '--enable-metrics', '--hardware', 'b200', '--sim-seed', '7',
    ]);
    assert.equal(truth, null);
    assert.equal(launch.modelPath, 'deepseek-ai/DeepSeek-V3.2-Exp');
    assert.deepEqual([launch.tpSize, launch.dpSize, launch.epSize], [8, 4, 8]);
    assert.equal(launch.enableDpAttention, true);
    assert.equal(launch.maxRunningRequests, 80);
    assert.equal(launch.chunkedPrefillSize, -1);
    assert.equal(launch.contextLength, 8192);
    assert.equal(launch.disableRadixCache, true);
    assert.deepEqual([launch.speculativeAlgorithm, launch.speculativeNumSteps, launch.speculativeEagleTopk, launch.speculativeNumDraftTokens], ['EAGLE', 3, 1, 4]);
    assert.equal(launch.disaggregationMode, 'decode');
    assert.equal(launch.nnodes, 2);
    assert.equal(launch.memFractionStatic, 0.85);
    assert.equal(launch.reasoningParser, 'deepseek-v3');
    assert.equal(launch.toolCallParser, 'deepseekv32');
    assert.equal(launch.enableMetrics, true);
    assert.equal(launch.hardware, 'b200');
    assert.equal(launch.simSeed, 7);
    assert.deepEqual(launch.ignoredFlags, []);
  });

  test('--revision names the branch, tag or commit of a hub model; none of its parts may climb out of refs/', () => {
    assert.equal(parseLaunchArgs(['--model-path', 'Qwen/Qwen3-8B']).launch.revision, null);
    assert.equal(parseLaunchArgs(['--model-path', 'Qwen/Qwen3-8B', '--revision', 'refs/pr/3']).launch.revision, 'refs/pr/3');
    for (const bad of ['../../etc', 'a//b', '/main', 'a\\b']) {
      assert.throws(() => parseLaunchArgs(['--model-path', 'Qwen/Qwen3-8B', '--revision', bad]), (e: unknown) => e instanceof UsageError && /^argument --revision: '.*' is not a branch, tag or commit name/.test(e.message), bad);
    }
  });

  test('defaults match a bare sglang serve', () => {
    const { launch } = parseLaunchArgs(['--model-path', 'Qwen/Qwen2.5-0.5B-Instruct']);
    assert.equal(launch.host, '127.0.0.1');
    assert.equal(launch.port, 30000);
    assert.equal(launch.tpSize, 1);
    assert.equal(launch.hardware, 'h100');
    assert.equal(launch.hardwareProfile, null);
    assert.equal(launch.servedModelName, null);
  });

  test('--hardware takes any name of a catalogued device and stores its key', () => {
    assert.equal(parseLaunchArgs(['--model-path', 'x', '--hardware', 'A100-80GB']).launch.hardware, 'a100');
    assert.equal(parseLaunchArgs(['--model-path', 'x', '--hardware', '910c']).launch.hardware, 'ascend-910c');
    assert.throws(() => parseLaunchArgs(['--model-path', 'x', '--hardware', 'tpu']), /invalid choice: 'tpu' \(choose from 'a100', .*'ascend-910c', or describe the device with --hardware-spec FILE\.json\)/);
  });

  test('--hardware-spec reads the device from a file, whatever --hardware says', () => {
    const dir = mkdtempSync(join(tmpdir(), 'servebench-hw-'));
    try {
      const file = join(dir, 'hw.json');
      writeFileSync(file, JSON.stringify({ name: 'Acme X1', family: 'amd', bf16Tflops: 500, hbmGB: 96, hbmTBs: 4, scaleUpGBs: 400 }));
      const { launch } = parseLaunchArgs(['--model-path', 'x', '--hardware-spec', file, '--hardware', 'b200']);
      assert.deepEqual([launch.hardwareProfile?.key, launch.hardwareProfile?.family, launch.hardwareProfile?.hbmGB], ['acme-x1', 'amd', 96]);
      assert.throws(() => parseLaunchArgs(['--model-path', 'x', '--hardware-spec', join(dir, 'missing.json')]), (error: unknown) =>
        error instanceof UsageError && /^--hardware-spec .*missing\.json: cannot read the file \(ENOENT\): give the path of a JSON file describing the device$/.test(error.message));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('drops the leading words of a pasted command and lists flags without effect as ignored', () => {
    const pasted = splitCommandLine(
      'python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --trust-remote-code \\\n  --attention-backend fa3 --cuda-graph-bs 1 2 4 --log-requests --nccl-init 10.0.0.1:5000',
    );
    const { launch } = parseLaunchArgs(pasted);
    assert.deepEqual(launch.ignoredFlags, ['--trust-remote-code', '--attention-backend', '--cuda-graph-bs', '--nccl-init-addr']);
    assert.equal(launch.logRequests, true);
    const serve = parseLaunchArgs(['sglang', 'serve', '--model-path', 'm/qwen3-8b', '--tp', '2']).launch;
    assert.equal(serve.tpSize, 2);
  });

  test('the published recipes of the reference logs paste unchanged', () => {
    const recipes = [
      '--model-path Qwen3-Coder-480B-A35B-W8A8 --tp 16 --dp-size 4 --enable-dp-attention --enable-dp-lm-head --moe-a2a-backend deepep --max-running-requests 80 --chunked-prefill-size 28672 --context-length 8192 --disable-radix-cache --quantization modelslim',
      '--model-path DeepSeek-V3.2-Exp-W8A8 --tp 32 --max-running-requests 1 --disable-radix-cache --chunked-prefill-size -1 --max-prefill-tokens 68000 --enable-nsa-prefill-context-parallel --speculative-algorithm NEXTN --speculative-num-steps 1',
      '--model-path DeepSeek-V3.2-Exp-W8A8 --tp 32 --dp 8 --ep 32 --enable-dp-attention --max-running-requests 32 --moe-a2a-backend deepep --deepep-mode low_latency --speculative-algorithm NEXTN --speculative-num-steps 3 --speculative-num-draft-tokens 4',
      'serve --model-path /models/DeepSeek-V3.2 --nccl-init 10.0.0.1:5000 --nnodes 2 --node-rank 0 --tp 16 --dp 2 --enable-dp-attention --page-size 64 --trust-remote-code --host "0.0.0.0" --port 30000 --log-requests --context-length 65536 --max-running-requests 128 --speculative-algorithm EAGLE --speculative-num-steps 2 --speculative-eagle-topk 1 --speculative-num-draft-tokens 3 --allow-auto-truncate --enable-metrics --tool-call-parser deepseekv32 --reasoning-parser deepseek-v3 --served-model-name DeepSeek-V3.2-Opt-dp2-mtp',
    ];
    const launches = recipes.map((line) => parseLaunchArgs(splitCommandLine(line)).launch);
    assert.deepEqual(launches[0]!.ignoredFlags, ['--moe-a2a-backend']);
    assert.equal(launches[1]!.chunkedPrefillSize, -1);
    assert.equal(launches[2]!.epSize, 32);
    assert.equal(launches[3]!.host, '0.0.0.0');
    assert.equal(launches[3]!.servedModelName, 'DeepSeek-V3.2-Opt-dp2-mtp');
    assert.deepEqual(launches[3]!.ignoredFlags, ['--nccl-init-addr', '--node-rank', '--trust-remote-code', '--allow-auto-truncate']);
  });

  test("the server log's flags: --log-level (any case), --decode-log-interval, --log-requests and its level", () => {
    const bare = parseLaunchArgs(['--model-path', 'x']).launch;
    assert.deepEqual([bare.logLevel, bare.decodeLogInterval, bare.logRequests, bare.logRequestsLevel], ['info', 40, false, 2]);
    const given = parseLaunchArgs(['--model-path', 'x', '--log-level', 'WARNING', '--decode-log-interval', '5', '--log-requests', '--log-requests-level', '0']).launch;
    assert.deepEqual([given.logLevel, given.decodeLogInterval, given.logRequests, given.logRequestsLevel, given.ignoredFlags], ['warning', 5, true, 0, []]);
    assert.throws(() => parseLaunchArgs(['--model-path', 'x', '--log-level', 'verbose']), (e: unknown) =>
      e instanceof UsageError && e.message === "argument --log-level: invalid choice: 'verbose' (choose from 'critical', 'error', 'warning', 'info', 'debug')");
    assert.throws(() => parseLaunchArgs(['--model-path', 'x', '--log-requests-level', '4']), UsageError);
    assert.throws(() => parseLaunchArgs(['--model-path', 'x', '--decode-log-interval', '0']), UsageError);
  });

  test('accepts unique prefixes and rejects ambiguous ones', () => {
    assert.equal(parseLaunchArgs(['--model-path', 'x', '--max-running', '8']).launch.maxRunningRequests, 8);
    assert.throws(() => parseLaunchArgs(['--model-path', 'x', '--enable-dp', '1']), (e: unknown) => e instanceof UsageError && /ambiguous option: --enable-dp/.test(e.message));
  });

  test('a flag that is neither SGLang nor sim is a one-line usage error naming it', () => {
    assert.throws(() => parseLaunchArgs(['--model-path', 'x', '--frobnicate', '3']), (e: unknown) => e instanceof UsageError && /--frobnicate/.test(e.message));
  });

  test('bad values and a missing model path are usage errors', () => {
    assert.throws(() => parseLaunchArgs(['--model-path', 'x', '--tp', 'two']), /invalid int value: 'two'/);
    assert.throws(() => parseLaunchArgs(['--model-path', 'x', '--hardware', 'tpu']), /invalid choice: 'tpu'/);
    assert.throws(() => parseLaunchArgs(['--model-path', 'x', '--port']), /expected one argument/);
    assert.throws(() => parseLaunchArgs(['--tp', '2']), /--model-path/);
    assert.throws(() => parseLaunchArgs(['--model-path', 'x', 'stray']), /unexpected argument 'stray'/);
  });

  test('numbers outside their range are usage errors naming the flag, the value and the range', () => {
    const refused: Array<[string, string, RegExp]> = [
      ['--port', '70000', /expected an integer from 0 to 65535 \(0: any free port\)$/],
      ['--tp', '0', /expected an integer ≥ 1$/],
      ['--mem-fraction-static', '1.5', /expected a number > 0 and ≤ 1$/],
      ['--chunked-prefill-size', '-2', /expected an integer ≥ -1 \(-1: no chunking\)$/],
      ['--sim-seed', '-1', /expected an integer from 0 to 4294967295$/],
      ['--truth-itl-ms', 'inf', /expected a number from 0 to 2147483000$/],
    ];
    for (const [flag, value, range] of refused) {
      assert.throws(
        () => parseLaunchArgs(['--model-path', 'x', flag, value]),
        (e: unknown) => e instanceof UsageError && e.message.startsWith(`argument ${flag}: ${value} is out of range: `) && range.test(e.message),
        flag,
      );
    }
    assert.equal(parseLaunchArgs(['--model-path', 'x', '--chunked-prefill-size', '-1']).launch.chunkedPrefillSize, -1);
    assert.equal(parseLaunchArgs(['--model-path', 'x', '--port', '0']).launch.port, 0);
  });

  test('--sim-realtime is a sim flag, not an ignored one', () => {
    const { launch } = parseLaunchArgs(['--model-path', 'x', '--sim-realtime']);
    assert.equal(launch.simRealtime, true);
    assert.deepEqual(launch.ignoredFlags, []);
    assert.equal(parseLaunchArgs(['--model-path', 'x']).launch.simRealtime, false);
  });

  test('truth mode needs both timing flags', () => {
    const { truth } = parseLaunchArgs(['--model-path', 'x', '--truth-ttft-ms', '50', '--truth-itl-ms', '20', '--truth-tokens-per-chunk', '3']);
    assert.deepEqual(truth, { ttftMs: 50, itlMs: 20, tokensPerChunk: 3, sharedSteps: false });
    const shared = parseLaunchArgs(['--model-path', 'x', '--truth-ttft-ms', '50', '--truth-itl-ms', '20', '--truth-shared-steps']).truth;
    assert.equal(shared?.sharedSteps, true);
    assert.throws(() => parseLaunchArgs(['--model-path', 'x', '--truth-ttft-ms', '50', '--truth-itl-ms', '0', '--truth-shared-steps']), /--truth-shared-steps needs a step/);
    assert.throws(() => parseLaunchArgs(['--model-path', 'x', '--truth-shared-steps']), /needs both --truth-ttft-ms and --truth-itl-ms/);
    assert.throws(() => parseLaunchArgs(['--model-path', 'x', '--truth-ttft-ms', '50']), /--truth-itl-ms/);
  });

  test('secrets are redacted in rawArgs', () => {
    const { launch } = parseLaunchArgs(['--model-path', 'x', '--api-key', 'sk-secret', '--admin-api-key=adm']);
    assert.deepEqual(launch.rawArgs, ['--model-path', 'x', '--api-key', REDACTED, `--admin-api-key=${REDACTED}`]);
    assert.ok(!JSON.stringify(launch).includes('sk-secret'));
    const abbreviated = parseLaunchArgs(['--model-path', 'x', '--api-k', 'v']).launch;
    assert.deepEqual(abbreviated.rawArgs, ['--model-path', 'x', '--api-k', REDACTED]);
  });
});

