import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { realTimeCapacity } from './real-time-capacity.js';

const cacheHome = mkdtempSync(join(tmpdir(), 'servebench-capacity-'));
after(() => rmSync(cacheHome, { recursive: true, force: true }));
const env = { XDG_CACHE_HOME: cacheHome };
const file = join(cacheHome, 'servebench', 'real-time-capacity.json');

test('measured once, then read from the cache until it is a week old', async () => {
  const now = Date.parse('2026-11-26T00:00:00Z');
  const measured = await realTimeCapacity(env, now);
  assert.ok(measured.chunkCostUs > 0 && measured.chunkCostUs < 10_000, `chunk cost ${measured.chunkCostUs} µs`);
  assert.ok(measured.wakeP99Us > 0 && measured.wakeP99Us < 1_000_000, `wake p99 ${measured.wakeP99Us} µs`);
  // The cached figures are returned as they were stored, not measured again.
  const stored = JSON.parse(readFileSync(file, 'utf8'));
  writeFileSync(file, JSON.stringify({ ...stored, chunkCostUs: 123, wakeP99Us: 456 }));
  assert.deepEqual(await realTimeCapacity(env, now + 6 * 24 * 3600 * 1000), { chunkCostUs: 123, wakeP99Us: 456 });
  const later = await realTimeCapacity(env, now + 8 * 24 * 3600 * 1000);
  assert.notEqual(later.chunkCostUs, 123);
});

test('a damaged cache is measured over; an unwritable one only costs measuring again', async () => {
  writeFileSync(file, '{not json');
  const measured = await realTimeCapacity(env);
  assert.ok(measured.chunkCostUs > 0);
  assert.ok(JSON.parse(readFileSync(file, 'utf8')).chunkCostUs > 0);
  const blocked = join(cacheHome, 'blocked');
  writeFileSync(blocked, 'a file where the cache folder would be');
  const unwritable = await realTimeCapacity({ XDG_CACHE_HOME: blocked });
  assert.ok(unwritable.chunkCostUs > 0);
});
