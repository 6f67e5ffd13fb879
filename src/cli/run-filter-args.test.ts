import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UsageError } from '../core/errors.js';
import { parseLabels, parseSince } from './run-filter-args.js';

test('labels and since', () => {
  assert.deepEqual(parseLabels(['hardware=ascend-910c', 'cards = 16', 'note=a=b']), { hardware: 'ascend-910c', cards: '16', note: 'a=b' });
  assert.throws(() => parseLabels(['cards']), UsageError);
  assert.equal(parseSince('2d', new Date('2026-01-10T00:00:00Z')), '2026-01-08T00:00:00.000Z');
  assert.equal(parseSince('2026-01-31'), '2026-01-31T00:00:00.000Z');
  assert.throws(() => parseSince('yesterday'), UsageError);
});
