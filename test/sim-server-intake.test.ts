/**
 * The sim against oversized requests, as a real `servebench sim` process: prompts far over the
 * context length are refused fast (by their byte count, or after a few slices are counted) and an
 * oversize body with 413, in each API's error shape, and the process's memory stays near where
 * it started (a 30 MB prompt used to take 27 s and leave 2.5 GB behind).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { post } from './sim-server-helpers.js';
import { spawnSim, type SimProcess } from './helpers/sim-process.js';

const MODEL = 'Qwen/Qwen2.5-0.5B-Instruct'; // context length 32,768
/** 30 MB of short words: at least 58,594 tokens by its byte count alone. */
const HUGE = 'hello world '.repeat(2_500_000);
/** Generous: a refused request used to take 26.7 s. */
const FAST_MS = 10_000;
/** Generous: four refused 30 MB requests used to leave 6.8 GB behind. */
const RSS_GROWTH_MB = 400;

describe('sim: oversized requests are refused fast and leave memory as it was', () => {
  let sim: SimProcess;
  let baselineMb: number | null;
  const statusFile = (): string => `/proc/${sim.child.pid}/status`;
  /** The sim's resident set in MB, null where /proc does not tell. */
  const rssMb = (): number | null =>
    existsSync(statusFile()) ? Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(statusFile(), 'utf8'))![1]) / 1024 : null;

  before(async () => {
    sim = await spawnSim(['--model-path', MODEL, '--port', '0', '--host', '127.0.0.1']);
    const warm = await post(sim.url, '/generate', { text: 'hello', sampling_params: { max_new_tokens: 2 } });
    assert.equal(warm.status, 200);
    baselineMb = rssMb();
  });
  after(() => sim.child.kill('SIGKILL'));

  const huge: Array<[path: string, body: unknown, param: string | null]> = [
    ['/generate', { text: HUGE, sampling_params: { max_new_tokens: 4 } }, null],
    ['/v1/completions', { model: MODEL, prompt: HUGE, max_tokens: 4 }, 'prompt'],
    ['/v1/chat/completions', { model: MODEL, messages: [{ role: 'user', content: HUGE }], max_tokens: 4 }, 'messages'],
  ];
  for (const [path, body, param] of huge) {
    test(`a 30 MB prompt to ${path} is refused by its byte count, untokenized`, async () => {
      const started = performance.now();
      const reply = await post(sim.url, path, body);
      const ms = performance.now() - started;
      assert.equal(reply.status, 400, reply.text);
      assert.match(reply.json.error.message, /^The input \(at least \d+ tokens: \d+ bytes\) is longer than the model's context length \(32768 tokens\)\.$/);
      if (param === null) assert.deepEqual(Object.keys(reply.json.error), ['message']);
      else assert.deepEqual([reply.json.error.param, reply.json.error.code], [param, 'context_length_exceeded']);
      assert.ok(ms < FAST_MS, `${ms.toFixed(0)} ms`);
    });
  }

  test('a prompt short in bytes but long in tokens is refused after a few slices', async () => {
    const started = performance.now();
    const reply = await post(sim.url, '/generate', { text: 'hello world '.repeat(1_000_000), sampling_params: { max_new_tokens: 4 } });
    assert.equal(reply.status, 400, reply.text);
    assert.equal(reply.json.error.message, "The input (more than 32768 tokens) is longer than the model's context length (32768 tokens).");
    assert.ok(performance.now() - started < FAST_MS);
  });

  test('a body over 32 MiB is refused with 413 in the route\'s error shape', async () => {
    const native = await post(sim.url, '/generate', JSON.stringify({ text: 'x'.repeat(40_000_000) }));
    assert.equal(native.status, 413);
    assert.deepEqual(Object.keys(native.json.error), ['message']);
    assert.match(native.json.error.message, /request body exceeds the sim's limit of 33554432 bytes/);
    const openai = await post(sim.url, '/v1/completions', JSON.stringify({ model: MODEL, prompt: 'x'.repeat(40_000_000) }));
    assert.equal(openai.status, 413);
    assert.equal(openai.json.error.type, 'RequestTooLargeError');
  });

  test('memory stays near where it started, and the sim still answers', async (t) => {
    const rss = rssMb();
    if (baselineMb === null || rss === null) t.skip('no /proc here to read the sim process resident set');
    else assert.ok(rss - baselineMb < RSS_GROWTH_MB, `resident set grew from ${baselineMb.toFixed(0)} to ${rss.toFixed(0)} MB`);
    const reply = await post(sim.url, '/generate', { text: 'hello', sampling_params: { max_new_tokens: 2 } });
    assert.equal(reply.status, 200);
  });
});
