import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { NumpyRandomState, createBenchRngs } from '../../core/rng.js';
import type { DatasetRow, RequestInput, RequestOutput } from '../types.js';
import { acceptLengthFromServerInfo } from './accept-length.js';
import { isMultiTurnPrompt, runConversation } from './conversation.js';
import { createLoraPicker } from './lora.js';
import { pdProfileTargets, startProfileBody } from './profiler.js';
import { poissonSchedule, timestampSchedule } from './schedule.js';
import { FifoSemaphore } from './semaphore.js';

const row = (extra: Partial<DatasetRow> = {}): DatasetRow => ({
  prompt: 'p', promptLen: 1, outputLen: 1, textPromptLen: 1, visionPromptLen: 0, imageData: null, extraRequestBody: {}, ...extra,
});

test('Poisson schedule: the reference draws at absolute offsets, trailing draw consumed', () => {
  const numpy = new NumpyRandomState(1);
  numpy.randint(1, 1025, 8);
  numpy.randint(512, 1025, 5);
  const schedule = poissonSchedule([row(), row(), row()], 4, () => null, numpy);
  const expected = [0, 0.19348994371518932, 0.19348994371518932 + 0.13583484265456128];
  schedule.forEach((item, i) => assert.ok(Math.abs(item.sendAt - expected[i]!) < 1e-15));
  // The third interval was drawn (after the last row) but is not part of any send time.
  const reference = new NumpyRandomState(1);
  reference.randint(1, 1025, 8);
  reference.randint(512, 1025, 5);
  for (let i = 0; i < 3; i++) reference.exponential(0.25);
  assert.equal(numpy.exponential(0.25), reference.exponential(0.25));
});

test('infinite rate sends everything at 0 and draws nothing; trace schedule uses row timestamps', () => {
  const numpy = new NumpyRandomState(7);
  assert.deepEqual(poissonSchedule([row(), row()], Infinity, () => null, numpy).map((s) => s.sendAt), [0, 0]);
  assert.equal(numpy.exponential(1), new NumpyRandomState(7).exponential(1));
  assert.deepEqual(timestampSchedule([row({ timestamp: 2.5 }), row()], () => 'x').map((s) => [s.sendAt, s.loraName]), [[2.5, 'x'], [0, 'x']]);
});

test('LoRA pickers: distinct round-robin, skewed by numpy choice, uniform by Python choice, none without names', () => {
  const rngs = createBenchRngs(1);
  const distinct = createLoraPicker(['a', 'b', 'c'], 'distinct', 1.5, rngs);
  assert.deepEqual([distinct(), distinct(), distinct(), distinct()], ['a', 'b', 'c', 'a']);
  const skewed = createLoraPicker(['a', 'b'], 'skewed', 1.5, createBenchRngs(1));
  const reference = new NumpyRandomState(1);
  const p = [1 / (1 + 1 / 1.5), 1 / 1.5 / (1 + 1 / 1.5)];
  for (let i = 0; i < 5; i++) assert.equal(skewed(), ['a', 'b'][reference.choice(2, p)]);
  const uniform = createLoraPicker(['a', 'b'], 'uniform', 1.5, createBenchRngs(3));
  const python = createBenchRngs(3).python;
  for (let i = 0; i < 5; i++) assert.equal(uniform(), python.choice(['a', 'b']));
  assert.equal(createLoraPicker([], 'uniform', 1.5, rngs)(), null);
});

test('FIFO semaphore hands slots out in arrival order', async () => {
  const semaphore = new FifoSemaphore(1);
  const order: number[] = [];
  await semaphore.acquire();
  const waiters = [1, 2, 3].map((n) => semaphore.acquire().then(() => order.push(n)));
  for (let i = 0; i < 3; i++) {
    semaphore.release();
    await new Promise((r) => setImmediate(r));
  }
  await Promise.all(waiters);
  assert.deepEqual(order, [1, 2, 3]);
  semaphore.release();
  await semaphore.acquire();
});

test('accept length: internal_states[0], through decode[0] for PD routers, null otherwise', () => {
  assert.equal(acceptLengthFromServerInfo({ internal_states: [{ avg_spec_accept_length: 2.5 }] }), 2.5);
  assert.equal(acceptLengthFromServerInfo({ decode: [{ internal_states: [{ avg_spec_accept_length: 3 }] }] }), 3);
  assert.equal(acceptLengthFromServerInfo({ internal_states: [] }), null);
  assert.equal(acceptLengthFromServerInfo(null), null);
});

test('multi-turn: detection and history growth with failed turns appending empty text', async () => {
  assert.equal(isMultiTurnPrompt(['a', 'b']), true);
  assert.equal(isMultiTurnPrompt([{ role: 'user', content: 'a' }]), false);
  const seen: unknown[] = [];
  const send = async (input: RequestInput): Promise<RequestOutput> => {
    seen.push(input.prompt);
    const failed = seen.length === 1;
    return { generatedText: failed ? '' : 'ans', success: !failed } as RequestOutput;
  };
  const outputs = await runConversation(send, { prompt: ['q0', 'q1'] } as RequestInput, ['q0', 'q1']);
  assert.equal(outputs.length, 2);
  assert.deepEqual(seen[1], [
    { role: 'user', content: 'q0' },
    { role: 'assistant', content: '' },
    { role: 'user', content: 'q1' },
  ]);
});

test('profiler: start body with num_steps forced by --profile-by-stage, PD worker targets in order', () => {
  const dir = mkdtempSync(join(tmpdir(), 'servebench-profile-'));
  try {
    const profile = {
      enabled: true, pdSeparated: true, byStage: true, numSteps: null, outputDir: dir, activities: ['CPU'],
      stages: null, prefix: 'p', prefillUrls: ['http://p0', 'http://p1'], decodeUrls: ['http://d0'],
    };
    const body = startProfileBody(profile, {}, 1700000000.25);
    assert.deepEqual(body, {
      activities: ['CPU'], num_steps: 5, profile_by_stage: true, profile_stages: null,
      output_dir: join(dir, '1700000000.25'), profile_prefix: 'p',
    });
    assert.ok(statSync(join(dir, '1700000000.25')).isDirectory(), 'the directory is created on the client');
    assert.deepEqual(pdProfileTargets(profile), [['Prefill-0', 'http://p0'], ['Prefill-1', 'http://p1'], ['Decode-0', 'http://d0']]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
