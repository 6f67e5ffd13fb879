import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { latencyHistogramOption, outputThroughputOption } from './options.js';
import { histogram } from './histogram.js';
import { renderSvg, svgToPng } from './render.js';

describe('rendering', () => {
  test('SVG is a standalone document of the requested size with the title and axis names', () => {
    const svg = renderSvg(outputThroughputOption({ outputTokens: [3, 7, 2], inFlight: [1, 2, 1], requestsUsed: 2 }), { width: 640, height: 320 });
    assert.ok(svg.startsWith('<svg width="640" height="320" xmlns="http://www.w3.org/2000/svg"'));
    assert.match(svg, />Output tokens per second</);
    assert.match(svg, />Time \(s\)</);
    assert.match(svg, /peak 7 tok\/s/);
  });

  test('text in titles is XML-escaped', () => {
    const samples = [1, 2, 3];
    const svg = renderSvg(latencyHistogramOption('TTFT', 'ms', histogram(samples), samples, '<script>x</script>'));
    assert.ok(!svg.includes('<script'));
    assert.ok(svg.includes('&lt;script&gt;x&lt;/script&gt;'));
  });

  test('the overflow bar of a histogram is labelled with its lower edge', () => {
    const samples = [...Array.from({ length: 200 }, (_, i) => 10 + (i % 10)), 900];
    const option = latencyHistogramOption('ITL', 'ITL (ms)', histogram(samples), samples);
    assert.equal((option.xAxis as { data: string[] }).data.at(-1), '≥19.50');
    assert.match(renderSvg(option), /last bar: ≥ 19\.50 ms/);
  });

  test('PNG has the PNG signature and twice the SVG size', () => {
    const png = svgToPng(renderSvg(outputThroughputOption({ outputTokens: [1], inFlight: [1], requestsUsed: 1 }), { width: 300, height: 200 }));
    assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    assert.equal(png.readUInt32BE(16), 600);
    assert.equal(png.readUInt32BE(20), 400);
  });
});
