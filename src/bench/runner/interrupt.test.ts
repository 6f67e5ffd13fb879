import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InterruptWatch, STOP_SIGNALS, signalExitCode, signalName } from './interrupt.js';

test('the exit status of a stopped run is 128 + the signal number, as a shell reports it', () => {
  assert.deepEqual(STOP_SIGNALS.map(signalExitCode), [130, 143, 129]);
  assert.deepEqual(STOP_SIGNALS.map(signalName), ['Ctrl-C', 'SIGTERM', 'SIGHUP']);
});

test('the first stop signal reaches every subscriber once, and one subscribing later at once', () => {
  const watch = new InterruptWatch();
  try {
    const seen: string[] = [];
    watch.onStop((signal) => seen.push(`early ${signal}`));
    const unsubscribed = watch.onStop(() => seen.push('unsubscribed'));
    unsubscribed();
    process.emit('SIGHUP');
    watch.onStop((signal) => seen.push(`late ${signal}`));
    assert.deepEqual(seen, ['early SIGHUP', 'late SIGHUP']);
    assert.equal(watch.signal, 'SIGHUP');
  } finally {
    watch.dispose();
  }
});

test('a second stop signal exits at once with its own status', (t) => {
  const exit = t.mock.method(process, 'exit', () => undefined as never);
  const watch = new InterruptWatch();
  try {
    process.emit('SIGINT');
    assert.equal(exit.mock.callCount(), 0);
    process.emit('SIGTERM');
    assert.deepEqual(exit.mock.calls.map((call) => call.arguments), [[143]]);
    assert.equal(watch.signal, 'SIGINT', 'the first signal still names the stop');
  } finally {
    watch.dispose();
  }
});

test('dispose removes the handlers, so the signals act as before again', () => {
  const before = STOP_SIGNALS.map((signal) => process.listenerCount(signal));
  const watch = new InterruptWatch();
  assert.deepEqual(STOP_SIGNALS.map((signal) => process.listenerCount(signal)), before.map((count) => count + 1));
  watch.dispose();
  assert.deepEqual(STOP_SIGNALS.map((signal) => process.listenerCount(signal)), before);
});

test('a pause between repeated runs ends early at a stop signal', async () => {
  const watch = new InterruptWatch();
  try {
    const started = Date.now();
    setTimeout(() => process.emit('SIGTERM'), 20);
    await watch.pause(30);
    assert.ok(Date.now() - started < 5000, 'the pause did not wait for its 30 s');
    assert.equal(watch.signal, 'SIGTERM');
    await watch.pause(30);
  } finally {
    watch.dispose();
  }
});
