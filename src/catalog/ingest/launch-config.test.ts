import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sglangFlagName } from '../../deployment/index.js';
import { DEPLOYMENT_FLAG_NAMES, parseDeploymentInstance, parseDeploymentInstances } from './launch-config.js';
import { findCommands } from './shell-script.js';

function parse(text: string) {
  const warnings: string[] = [];
  const [command] = findCommands(text.split('\n'));
  return { instance: parseDeploymentInstance(command!, warnings), warnings };
}

test('structured fields from the 480B PD-mixed launch flags', () => {
  const { instance, warnings } = parse(
    'python3 -m sglang.launch_server --model-path /m/Qwen3-Coder-480B --tp 16 --dp-size 4 --enable-dp-attention --enable-dp-lm-head ' +
      '--moe-a2a-backend deepep --max-running-requests 80 --chunked-prefill-size 28672 --context-length 8192 ' +
      '--disable-radix-cache --quantization modelslim --api-key sk-123',
  );
  assert.deepEqual(warnings, []);
  assert.equal(instance.role, 'mixed');
  assert.deepEqual(instance.config, {
    modelPath: '/m/Qwen3-Coder-480B',
    tpSize: 16,
    dpSize: 4,
    enableDpAttention: true,
    enableDpLmHead: true,
    maxRunningRequests: 80,
    chunkedPrefillSize: 28672,
    contextLength: 8192,
    disableRadixCache: true,
    quantization: 'modelslim',
    moeA2aBackend: 'deepep',
  });
  assert.equal(instance.flags['--api-key'], '<redacted>');
});

test('PD roles, shell variables and unreadable numbers', () => {
  const decode = parse('python -m sglang.launch_server --disaggregation-mode decode --tp 32 --dp 8 --chunked-prefill-size -1');
  assert.equal(decode.instance.role, 'decode');
  assert.equal(decode.instance.config.chunkedPrefillSize, -1);
  const variable = parse('sglang serve --model-path $MODEL --tp many');
  assert.deepEqual(variable.warnings, [
    '--model-path is the shell variable $MODEL; its value is unknown',
    "--tp has an unreadable value 'many'",
  ]);
  assert.equal(parse('python -m sglang_router.launch_router --pd-disaggregation').instance.role, 'router');
});

test('runs of one launch once per node: one instance per --nnodes runs, per-node values listed', () => {
  const launch = (runs: string[][]) => ({ kind: 'launch' as const, launcher: 'sglang serve', args: runs[0]!, runs, startLine: 0, endLine: 1 });
  const warnings: string[] = [];
  const twoNode = parseDeploymentInstances(launch([['--tp', '32', '--nnodes', '2', '--node-rank', '0'], ['--tp', '32', '--nnodes', '2', '--node-rank', '1']]), warnings);
  assert.deepEqual(twoNode.map((i) => [i.config.tpSize, i.config.nnodes, i.flags['--node-rank']]), [[32, 2, '0,1']]);
  const replicas = parseDeploymentInstances(launch([['--tp', '16', '--port', '8998'], ['--tp', '16', '--port', '8999']]), warnings);
  assert.deepEqual(replicas.map((i) => i.flags['--port']), ['8998', '8999'], 'single-node runs are instances of their own');
  assert.equal(parseDeploymentInstances(launch([['--tp', '8'], ['--tp', '8']]), warnings).length, 1, 'identical runs are one instance');
  assert.deepEqual(warnings, []);
});

test('every spelling SGLang accepts reads as the same field, abbreviations included', () => {
  const { instance, warnings } = parse(
    'python3 -m sglang.launch_server --model /m/DeepSeek-V3 --tensor-parallel-size 8 --pipeline-parallel-size 2 --ep 8 --speculative-algo EAGLE --speculative-num-draft 4',
  );
  assert.deepEqual(warnings, []);
  assert.deepEqual(instance.config, { modelPath: '/m/DeepSeek-V3', tpSize: 8, ppSize: 2, epSize: 8, speculativeAlgorithm: 'EAGLE', speculativeNumDraftTokens: 4 });
});

test("the structured fields are SGLang's flags, named as the sim names them", () => {
  for (const flag of DEPLOYMENT_FLAG_NAMES) assert.equal(sglangFlagName(flag), flag);
});
