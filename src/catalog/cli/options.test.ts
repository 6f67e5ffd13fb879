import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UsageError } from '../../core/errors.js';
import { catalogParser, parseLabels, parseOrHelp, parseSince } from './options.js';

test('labels and since', () => {
  assert.deepEqual(parseLabels(['hardware=ascend-910c', 'cards = 16', 'note=a=b']), { hardware: 'ascend-910c', cards: '16', note: 'a=b' });
  assert.throws(() => parseLabels(['cards']), UsageError);
  assert.equal(parseSince('2d', new Date('2026-01-10T00:00:00Z')), '2026-01-08T00:00:00.000Z');
  assert.equal(parseSince('2026-01-31'), '2026-01-31T00:00:00.000Z');
  assert.throws(() => parseSince('yesterday'), UsageError);
});

test('parser errors are usage errors, never an exit', () => {
  const parser = catalogParser('runs', 'list runs');
  parser.add_argument('--limit', { type: 'int' });
  assert.deepEqual(parseOrHelp(parser, ['--db', 'x.db', '--limit', '3']), { help: false, db: 'x.db', limit: 3 });
  assert.throws(() => parseOrHelp(parser, ['--limit', 'many']), UsageError);
  assert.throws(() => parseOrHelp(parser, ['--bogus']), /unrecognized arguments: --bogus/);
});
