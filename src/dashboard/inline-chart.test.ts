import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { throughputVsTpotOption } from '../plots/options.js';
import { chartFigure, missingChart, scopeSvgIds } from './inline-chart.js';

describe('inline charts', () => {
  test('scopes element ids and their references', () => {
    const svg = '<clipPath id="zr0-c0"></clipPath><path clip-path="url(#zr0-c0)"/><use href="#zr0-c0"/>';
    assert.equal(
      scopeSvgIds(svg, 'ttft'),
      '<clipPath id="ttft-zr0-c0"></clipPath><path clip-path="url(#ttft-zr0-c0)"/><use href="#ttft-zr0-c0"/>',
    );
  });

  test('text from the data is escaped inside the inline SVG', () => {
    const option = throughputVsTpotOption(
      [
        { label: '<b>run</b>', group: '<script>alert(1)</script>', meanTpotMs: 10, throughput: 100 },
        { label: 'other', group: 'plain', meanTpotMs: 20, throughput: 50 },
      ],
      'Output tok/s',
    );
    const figure = chartFigure('cmp', 'compare <x>', option).text;
    assert.ok(figure.startsWith('<figure class="chart" data-chart="cmp" aria-label="compare &lt;x&gt;"><svg'));
    assert.ok(!figure.includes('<script'));
    assert.ok(!figure.includes('<b>'));
    assert.ok(figure.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
  });

  test('a missing chart says why', () => {
    assert.match(missingChart('itl', 'ITL', 'no <records>').text, /not available: no &lt;records&gt;/);
  });
});
