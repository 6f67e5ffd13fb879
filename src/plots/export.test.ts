import { describe, test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../core/errors.js';
import { imageFormatOf, throughputPlotPaths, writeThroughputPlots } from './export.js';

const dir = mkdtempSync(join(tmpdir(), 'servebench-plots-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('export', () => {
  test('the format follows the extension', () => {
    assert.equal(imageFormatOf('a/b.SVG'), 'svg');
    assert.equal(imageFormatOf('b.png'), 'png');
    assert.throws(() => imageFormatOf('b.jpg'), UsageError);
  });

  test('--plot-throughput files sit next to the result file', () => {
    assert.deepEqual(throughputPlotPaths('/r/sglang_1121_10_sharegpt.jsonl'), {
      throughput: '/r/sglang_1121_10_sharegpt.throughput.png',
      concurrency: '/r/sglang_1121_10_sharegpt.concurrency.png',
    });
    assert.equal(throughputPlotPaths('out').throughput, 'out.throughput.png');
  });

  test('writes both time-series PNGs and prints their paths', () => {
    const lines: string[] = [];
    const outputs = [
      { success: true, startTime: 5, ttft: 0.2, latency: 1.5, itl: [0.1, 0.1, 0.1] },
      { success: true, startTime: 5.5, ttft: 0.2, latency: 2, itl: [0.2, 0.2] },
    ];
    const paths = writeThroughputPlots(join(dir, 'run.jsonl'), outputs, (line) => lines.push(line));
    assert.deepEqual(paths, [join(dir, 'run.throughput.png'), join(dir, 'run.concurrency.png')]);
    for (const path of paths) assert.equal(readFileSync(path).subarray(1, 4).toString(), 'PNG');
    assert.deepEqual(lines, [`Output tokens per second plot: ${paths[0]}`, `Concurrent requests per second plot: ${paths[1]}`]);
  });
});
