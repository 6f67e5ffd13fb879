import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createProgressBar, formatInterval, formatProgress, ProgressBar, stallTimeoutNotice } from './progress.js';

describe('formatProgress (tqdm default format)', () => {
  test('matches the bars in the Qwen2.5 log', () => {
    assert.equal(formatProgress(0, 200, 0), '  0%|          | 0/200 [00:00<?, ?it/s]');
    assert.equal(formatProgress(1, 200, 0.48668), '  0%|          | 1/200 [00:00<01:36,  2.05it/s]');
    assert.equal(formatProgress(200, 200, 200 / 345.04), '100%|██████████| 200/200 [00:00<00:00, 345.04it/s]');
  });
  test('partial blocks and slow rates', () => {
    assert.equal(formatProgress(100, 200, 100 / 99.5), ' 50%|█████     | 100/200 [00:01<00:01, 99.50it/s]');
    assert.equal(formatProgress(55, 100, 110), ' 55%|█████▌    | 55/100 [01:50<01:30,  2.00s/it]');
  });
  test('intervals switch to hours', () => {
    assert.equal(formatInterval(59.9), '00:59');
    assert.equal(formatInterval(3725), '1:02:05');
  });
});

function recorder(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, stream: { isTTY, write: (text: string) => writes.push(text) } };
}

describe('ProgressBar', () => {
  test('on a terminal: redraws in place at most every 0.1 s, newline on close', () => {
    let now = 100;
    const { writes, stream } = recorder(true);
    const bar = new ProgressBar(4, { stream, now: () => now });
    now += 0.05;
    bar.update();
    now += 0.1;
    bar.update();
    bar.close();
    assert.deepEqual(writes, [
      '\r  0%|          | 0/4 [00:00<?, ?it/s]',
      '\r 50%|█████     | 2/4 [00:00<00:00, 13.33it/s]',
      '\r 50%|█████     | 2/4 [00:00<00:00, 13.33it/s]',
      '\n',
    ]);
  });
  test('piped: plain lines at the start, every 10 s and at the end', () => {
    let now = 0;
    const { writes, stream } = recorder(false);
    const bar = new ProgressBar(3, { stream, now: () => now });
    now = 5;
    bar.update();
    now = 12;
    bar.update();
    now = 13;
    bar.update();
    bar.close();
    assert.deepEqual(writes, [
      '  0%|          | 0/3 [00:00<?, ?it/s]\n',
      ' 67%|██████▋   | 2/3 [00:12<00:06,  6.00s/it]\n',
      '100%|██████████| 3/3 [00:13<00:00,  4.33s/it]\n',
    ]);
  });
  test('piped: a silence prints a line when it begins, then every 10 s, not every second; the closing line has none', () => {
    let now = 0;
    let silent = { count: 0, longestSeconds: 0 };
    const { writes, stream } = recorder(false);
    const bar = new ProgressBar(4, { stream, now: () => now, silentTransfers: () => silent });
    now = 1;
    bar.update();
    bar.checkSilence();
    silent = { count: 2, longestSeconds: 10.7 };
    now = 11;
    bar.checkSilence();
    now = 15;
    bar.checkSilence();
    now = 21;
    silent = { count: 1, longestSeconds: 20.2 };
    bar.checkSilence();
    bar.close();
    assert.deepEqual(writes, [
      '  0%|          | 0/4 [00:00<?, ?it/s]\n',
      ' 25%|██▌       | 1/4 [00:11<00:33, 11.00s/it] no bytes for 10 s on 2 streams\n',
      ' 25%|██▌       | 1/4 [00:21<01:03, 21.00s/it] no bytes for 20 s on 1 stream\n',
      ' 25%|██▌       | 1/4 [00:21<01:03, 21.00s/it]\n',
    ]);
  });
  test('the start-up notice states the stall timeout and the silence shown', () => {
    assert.equal(
      stallTimeoutNotice(600),
      'A request that receives no byte for 600 s fails as stalled (--stream-idle-timeout); streams silent for 10 s show on the progress line.',
    );
    assert.match(stallTimeoutNotice(2), /for 2 s fails .* silent for 1 s show/);
  });
  test('--disable-tqdm gives no bar', () => {
    assert.equal(createProgressBar(10, true), null);
    const { writes, stream } = recorder(false);
    assert.ok(createProgressBar(10, false, { stream, now: () => 0 }) instanceof ProgressBar);
    assert.equal(writes.length, 1);
  });
});
