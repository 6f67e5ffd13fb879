import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { getModel } from '../deployment/model/bundled-models.js';
import type { ModelSpec } from '../deployment/model/catalog.js';
import { enumerateConfigs, parallelLayouts, speculativeFlags } from './config-space.js';
import { renderLaunchCommands, shellQuote } from './launch-render.js';

const qwen32b = getModel('qwen3-32b') as ModelSpec;
const deepseek = getModel('deepseek-v3.2') as ModelSpec;
const qwen05 = getModel('qwen2.5-0.5b') as ModelSpec;

describe('enumerateConfigs', () => {
  test('dense model: TP × DP layouts only, never dp-attention or EP', () => {
    const labels = parallelLayouts(qwen32b, 8).map((layout) => layout.label);
    assert.deepEqual(labels, ['TP1 DP8', 'TP2 DP4', 'TP4 DP2', 'TP8']);
    const all = enumerateConfigs({ model: qwen32b, devices: 8, includePd: true });
    assert.ok(all.every((c) => !c.instances.some((i) => i.flags.includes('--enable-dp-attention') || i.flags.includes('--ep'))));
  });

  test('heads must split over attention TP (Qwen2.5-0.5B has 14 heads)', () => {
    assert.deepEqual(parallelLayouts(qwen05, 8).map((layout) => layout.label), ['TP1 DP8', 'TP2 DP4']);
  });

  test('MoE model: EP variants and dp-attention with wide EP', () => {
    const labels = parallelLayouts(deepseek, 8).map((layout) => layout.label);
    for (const expected of ['TP8', 'TP8 EP8', 'TP8 DP2 dp-attn EP8', 'TP8 DP8 dp-attn EP8', 'TP4 DP2 EP4']) {
      assert.ok(labels.includes(expected), `${expected} in ${labels.join(', ')}`);
    }
  });

  test('speculative decoding on and off where the model has a draft', () => {
    assert.equal(speculativeFlags(qwen05), null);
    assert.deepEqual(speculativeFlags(deepseek)?.slice(0, 2), ['--speculative-algorithm', 'EAGLE']);
    assert.deepEqual(speculativeFlags(qwen32b)?.slice(0, 2), ['--speculative-algorithm', 'EAGLE3']);
    const mixed = enumerateConfigs({ model: qwen32b, devices: 8, includePd: false });
    assert.equal(mixed.filter((c) => c.label.endsWith('+spec')).length, mixed.length / 2);
    assert.ok(enumerateConfigs({ model: qwen05, devices: 2, includePd: false }).every((c) => !c.label.includes('spec')));
  });

  test('PD splits use every device, one to four prefill instances, and mark the roles', () => {
    const pd = enumerateConfigs({ model: qwen32b, devices: 8, includePd: true }).filter((c) => c.mode === 'pd-separated');
    assert.ok(pd.length > 0);
    for (const candidate of pd) {
      assert.equal(candidate.instances.reduce((n, i) => n + i.replicas * i.devices, 0), 8);
      const [prefill, decode] = candidate.instances;
      assert.ok(prefill?.flags.join(' ').includes('--disaggregation-mode prefill'));
      assert.ok(decode?.flags.join(' ').includes('--disaggregation-mode decode'));
      assert.ok((prefill?.replicas ?? 0) >= 1 && (prefill?.replicas ?? 0) <= 4);
    }
    assert.ok(pd.some((c) => c.label.startsWith('2x(P TP2) + 1x(D TP4)')));
    assert.ok(enumerateConfigs({ model: qwen32b, devices: 8, includePd: false }).every((c) => c.mode === 'pd-mixed'));
  });
});

describe('renderLaunchCommands', () => {
  test('one launch line per instance kind, nnodes past one node, and a PD router', () => {
    const pd = enumerateConfigs({ model: deepseek, devices: 32, includePd: true }).find((c) => c.label.startsWith('1x(P TP16 EP16) + 1x(D TP16'));
    assert.ok(pd);
    const lines = renderLaunchCommands(pd, { modelPath: 'deepseek-ai/DeepSeek-V3.2', devicesPerNode: 8, extraFlags: (i) => (i.role === 'decode' ? ['--max-running-requests', '64'] : []) });
    assert.equal(lines.length, 3);
    assert.match(lines[0] as string, /^python -m sglang\.launch_server --model-path deepseek-ai\/DeepSeek-V3\.2 --tp 16 --ep 16 --disaggregation-mode prefill --nnodes 2$/);
    assert.match(lines[1] as string, /--enable-dp-attention --ep 16 --disaggregation-mode decode --nnodes 2 --max-running-requests 64$/);
    assert.equal(lines[2], 'python -m sglang_router.launch_router --pd-disaggregation --prefill http://prefill-1:30000 --decode http://decode-1:30000');
  });

  test('quotes words a shell would split', () => {
    assert.equal(shellQuote('--tp'), '--tp');
    assert.equal(shellQuote('<draft>'), `'<draft>'`);
    assert.equal(shellQuote("it's"), `'it'\\''s'`);
  });
});
