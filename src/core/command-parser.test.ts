import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UsageError } from './errors.js';
import { addOption, commandParser, helpWithDefault, parseOrHelp } from './command-parser.js';

test('parser errors are usage errors, never an exit', () => {
  const parser = commandParser({ name: 'runs', description: 'list runs' });
  parser.add_argument('--limit', { type: 'int' });
  assert.deepEqual(parseOrHelp(parser, ['--limit', '3']), { help: false, limit: 3 });
  assert.throws(() => parseOrHelp(parser, ['--limit', 'many']), UsageError);
  assert.throws(() => parseOrHelp(parser, ['--bogus']), /unrecognized arguments: --bogus/);
});

test('defaults are shown as Python writes them; unset ones are left out', () => {
  assert.equal(helpWithDefault('rate', Infinity, 'float'), 'rate (default: inf)');
  assert.equal(helpWithDefault('ratio', 0, 'float'), 'ratio (default: 0.0)');
  assert.equal(helpWithDefault('count', 50, 'int'), 'count (default: 50)');
  assert.equal(helpWithDefault('kinds', ['CPU', 'GPU']), "kinds (default: ['CPU', 'GPU'])");
  assert.equal(helpWithDefault('share', '5%'), 'share (default: 5%%)');
  for (const unset of [null, undefined, false, '']) assert.equal(helpWithDefault('x', unset), 'x');
});

test('addOption takes any number of names and shows the default', () => {
  const parser = commandParser({ name: 'sim', description: 'd' });
  addOption(parser, ['--tp-size', '--tp', '--tensor-parallel-size'], { metavar: 'N', default: 1, help: 'devices' });
  const help = parser.format_help();
  assert.match(help, /--tp-size N, --tp N, --tensor-parallel-size N/);
  assert.match(help, /devices \(default: 1\)/);
});
