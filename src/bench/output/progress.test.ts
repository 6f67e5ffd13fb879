import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createProgressBar, formatInterval, formatProgress, ProgressBar } from './progress.js';

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
  test('--disable-tqdm gives no bar', () => {
    assert.equal(createProgressBar(10, true), null);
    const { writes, stream } = recorder(false);
    assert.ok(createProgressBar(10, false, { stream, now: () => 0 }) instanceof ProgressBar);
    assert.equal(writes.length, 1);
  });
});
