import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DatasetRow, RequestOutput } from '../types.js';
import { dispatchSchedule } from './dispatch.js';
import { InterruptWatch } from './interrupt.js';
import type { ScheduledRequest } from './schedule.js';

const row = { prompt: 'p', promptLen: 1, outputLen: 1, textPromptLen: 1, visionPromptLen: 0, imageData: null, extraRequestBody: {} } as DatasetRow;
const schedule = (offsets: number[]): ScheduledRequest[] => offsets.map((sendAt, index) => ({ row, index, sendAt, loraName: null }));
const output = (index: number) => ({ success: true, promptLen: index }) as RequestOutput;

test('sends at absolute offsets, keeps schedule order, charges the slot wait as queue time', async () => {
  const interrupts = new InterruptWatch();
  const sentAt: number[] = [];
  const waits: number[] = [];
  const start = performance.now();
  const result = await dispatchSchedule({
    schedule: schedule([0, 0, 0.03, 0.06]),
    send: async (item, { queueTime }) => {
      sentAt.push(performance.now() - start);
      waits.push(queueTime);
      await new Promise((r) => setTimeout(r, 20));
      return [output(item.index)];
    },
    maxConcurrency: 1,
    transfers: { inFlight: 0, abortAll: () => assert.fail('no abort without a stop signal') },
    interrupts,
    graceSeconds: 1,
    onDone: () => {},
    notice: () => {},
  });
  interrupts.dispose();
  assert.deepEqual(result.sent.map((s) => s.outputs[0]!.promptLen), [0, 1, 2, 3]);
  assert.equal(interrupts.signal, null);
  // The slot frees 20 ms after the first send; how much of that the second request is charged depends
  // on when the loop reached it (a loaded machine reaches it late), so bound the charge by the send times.
  assert.ok(sentAt[1]! - sentAt[0]! >= 19, `the second request waited for the single slot: sent at ${sentAt.map((t) => t.toFixed(1)).join(', ')} ms`);
  assert.ok(waits[1]! > 0 && waits[1]! <= sentAt[1]! / 1000 + 1e-3, `the second request is charged its slot wait: ${waits[1]} s`);
  assert.ok(sentAt[2]! >= 30 && sentAt[3]! >= 60, `sent at ${sentAt.map((t) => t.toFixed(1)).join(', ')} ms`);
});

test('a stop signal: nothing new is sent, queued requests are dropped, in-flight ones are aborted after the grace period', async () => {
  const interrupts = new InterruptWatch();
  let aborted = '';
  let finishInFlight: () => void = () => {};
  const notices: string[] = [];
  const pending = dispatchSchedule({
    schedule: schedule([0, 0, 0.05, 5]),
    send: async (item) => {
      if (item.index === 0) {
        setTimeout(() => process.emit('SIGTERM'), 10);
        await new Promise<void>((resolve) => (finishInFlight = resolve));
      }
      return [output(item.index)];
    },
    maxConcurrency: 1,
    transfers: {
      inFlight: 1,
      abortAll: (message) => {
        aborted = message;
        finishInFlight();
      },
    },
    interrupts,
    graceSeconds: 0.05,
    onDone: () => {},
    notice: (line) => notices.push(line),
  });
  const result = await pending;
  interrupts.dispose();
  assert.equal(interrupts.signal, 'SIGTERM');
  assert.deepEqual(result.sent.map((s) => s.index), [0], 'request 1 was queued behind the slot and dropped; 2 and 3 never left');
  assert.equal(aborted, 'aborted: interrupted by SIGTERM');
  assert.equal(notices[0], 'Interrupted by SIGTERM: sending no new requests; waiting up to 0.05 s for 1 in-flight requests (SIGTERM again to exit now)');
});

test('a send time beyond the longest timer is waited for in steps, without a TimeoutOverflowWarning', async () => {
  const warnings: string[] = [];
  const onWarning = (warning: Error): void => void warnings.push(warning.name);
  process.on('warning', onWarning);
  const interrupts = new InterruptWatch();
  try {
    setTimeout(() => process.emit('SIGHUP'), 20);
    const result = await dispatchSchedule({
      // 100 days away: what a --request-rate of 1e-7 draws.
      schedule: schedule([8_640_000]),
      send: async () => assert.fail('nothing is due before the stop'),
      maxConcurrency: null,
      transfers: { inFlight: 0, abortAll: () => {} },
      interrupts,
      graceSeconds: 0.01,
      onDone: () => {},
      notice: () => {},
    });
    // Node emits the warning on a later tick.
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(result.sent, []);
    assert.deepEqual(warnings, []);
  } finally {
    interrupts.dispose();
    process.off('warning', onWarning);
  }
});
