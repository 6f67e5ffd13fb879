import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MAX_READING_BYTES, readingKeeper, startServerScrape, summarizeScrape, type ScrapeLog } from './scraper.js';

const page = (running: number, generated: number): string =>
  `sglang:num_running_reqs{model_name="m"} ${running}\nsglang:num_queue_reqs{model_name="m"} 0\nsglang:token_usage{model_name="m"} 0.1\n` +
  `sglang:generation_tokens_total{model_name="m"} ${generated}\nsglang:prompt_tokens_total{model_name="m"} 100\nsglang:cached_tokens_total{model_name="m"} 10\n`;

test('readings are kept as text within the budget, then all reduced to what the summary reads; the summary is the same', () => {
  const texts = [page(0, 0), page(4, 100), page(8, 300), page(0, 400)];
  const whole: ScrapeLog = { readings: [], failed: 0, firstFailure: null };
  const keepWhole = readingKeeper(whole);
  const reduced: ScrapeLog = { readings: [], failed: 0, firstFailure: null };
  const keepReduced = readingKeeper(reduced, texts[0]!.length * 2);
  texts.forEach((text, i) => {
    keepWhole(i, text);
    keepReduced(i, text);
  });
  assert.ok(whole.readings.every((r) => typeof r.reading === 'string'));
  assert.ok(reduced.readings.every((r) => typeof r.reading === 'object' && r.reading !== null));
  assert.deepEqual(summarizeScrape(reduced, 1), summarizeScrape(whole, 1));
});

test('a reading past the size a metrics page can have fails (counted, its reason kept) and the scrape goes on', async () => {
  let calls = 0;
  const server = createServer((_req, res) => {
    calls++;
    res.writeHead(200, { 'content-type': 'text/plain' });
    if (calls === 2) {
      // Far past the cap: the reader must stop, not buffer it all.
      const chunk = '#'.repeat(1024 * 1024) + '\n';
      for (let i = 0; i < MAX_READING_BYTES / chunk.length + 4; i++) res.write(chunk);
      res.end();
    } else res.end(page(calls, calls * 100));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const scrape = await startServerScrape({ baseUrl: `http://127.0.0.1:${port}`, headers: {}, intervalS: 0.05 });
    assert.ok(scrape !== null);
    await new Promise((resolve) => setTimeout(resolve, 400));
    const log = await scrape.stop();
    assert.ok(log.failed >= 1, `failed ${log.failed}`);
    assert.match(log.firstFailure ?? '', /passed 16777216 bytes/);
    assert.ok(log.readings.length >= 2);
    assert.ok(summarizeScrape(log, 1) !== null);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

test("a server trickling its page does not hold the run's end: the last reading fails after the wait", async () => {
  let calls = 0;
  const timers: NodeJS.Timeout[] = [];
  const server = createServer((_req, res) => {
    calls++;
    if (calls === 1) return void res.end(page(1, 100));
    res.writeHead(200, { 'content-type': 'text/plain' });
    timers.push(setInterval(() => res.write('#'), 50));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const scrape = await startServerScrape({ baseUrl: `http://127.0.0.1:${port}`, headers: {}, intervalS: 0.05, readingWaitS: 0.3 });
    assert.ok(scrape !== null);
    await new Promise((resolve) => setTimeout(resolve, 150));
    const started = performance.now();
    const log = await scrape.stop();
    assert.ok(performance.now() - started < 3000, 'stop returned soon after the wait');
    assert.ok(log.failed >= 1);
    assert.equal(log.readings.length, 1);
  } finally {
    for (const timer of timers) clearInterval(timer);
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

test('a server trickling its first page gets no scrape, soon', async () => {
  const timers: NodeJS.Timeout[] = [];
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    timers.push(setInterval(() => res.write('#'), 50));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const started = performance.now();
    assert.equal(await startServerScrape({ baseUrl: `http://127.0.0.1:${port}`, headers: {}, intervalS: 1, readingWaitS: 0.3 }), null);
    assert.ok(performance.now() - started < 3000);
  } finally {
    for (const timer of timers) clearInterval(timer);
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});
