/** `servebench plot` end to end: the built CLI exports charts of a seeded catalog as SVG and PNG. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './helpers/cli.js';
import { seedCatalog, type SeededCatalog } from './dashboard-fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'servebench-plot-cli-'));
const db = join(dir, 'catalog.db');
let seeded: SeededCatalog;

before(() => {
  seeded = seedCatalog(db);
});
after(() => rmSync(dir, { recursive: true, force: true }));

describe('servebench plot', () => {
  test('per-run kinds write SVG or PNG by extension', async () => {
    const svgPath = join(dir, 'tput.svg');
    const svg = await runCli(['plot', seeded.fast.slice(0, 6), '--kind', 'throughput', '--out', svgPath, '--db', db]);
    assert.equal(svg.code, 0, svg.stderr);
    assert.equal(svg.stdout, `${svgPath}\n`);
    const text = readFileSync(svgPath, 'utf8');
    assert.ok(text.startsWith('<svg width="900" height="420"'));
    assert.match(text, /Output tokens per second/);

    const pngPath = join(dir, 'itl.png');
    const png = await runCli(['plot', seeded.fast, '--kind', 'itl', '--out', pngPath, '--db', db, '--width', '600', '--height', '300']);
    assert.equal(png.code, 0, png.stderr);
    const bytes = readFileSync(pngPath);
    assert.equal(bytes.subarray(1, 4).toString(), 'PNG');
    assert.equal(bytes.readUInt32BE(16), 1200);
  });

  test('tput-vs-tpot places several runs and warns about those it cannot place', async () => {
    const out = join(dir, 'scatter.svg');
    // reference[0] is the Ascend A3 log: no card count is known for it.
    const result = await runCli(['plot', seeded.fast, seeded.slow, seeded.reference[0]!, '--kind', 'tput-vs-tpot', '--per-card', '--out', out, '--db', db]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, `servebench plot: warning: run ${seeded.reference[0]} has no card count (neither a cards label nor a launch command); left out\n`);
    const text = readFileSync(out, 'utf8');
    assert.match(text, /Output tok\/s per card/);
    assert.match(text, new RegExp(`>${seeded.fast.slice(0, 6)}<`));
    assert.match(text, new RegExp(`>${seeded.slow.slice(0, 6)}<`));
  });

  test('bad requests end with one line and the right exit code', async () => {
    const cases: [string[], number, RegExp][] = [
      [['plot', seeded.fast, '--kind', 'ttft', '--out', join(dir, 'x.jpg'), '--db', db], 2, /must end in \.svg or \.png/],
      [['plot', seeded.fast, seeded.slow, '--kind', 'ttft', '--out', join(dir, 'x.svg'), '--db', db], 2, /plots one run/],
      [['plot', seeded.reference[0]!, '--kind', 'concurrency', '--out', join(dir, 'x.svg'), '--db', db], 1, /no per-request records/],
      [['plot', 'ffffffff', '--kind', 'ttft', '--out', join(dir, 'x.svg'), '--db', db], 1, /no run 'ffffffff'/],
      [['plot', seeded.fast, '--kind', 'pie', '--out', join(dir, 'x.svg'), '--db', db], 2, /invalid choice/],
      [['plot', seeded.fast, '--kind', 'ttft', '--out', join(dir, 'x.svg'), '--db', join(dir, 'none.db')], 1, /no catalog at/],
    ];
    for (const [args, code, message] of cases) {
      const result = await runCli(args);
      assert.equal(result.code, code, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, message);
      assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
    }
  });
});
