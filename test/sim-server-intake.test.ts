/**
 * The sim against oversized requests, as a real `servebench sim` process: prompts far over the
 * context length are refused fast (by their byte count, or after a few slices are counted) and a
 * body over the route's limit with 413 before it is read, in each API's error shape; once the
 * refusals stop, the process's memory returns near where it started (a 30 MB prompt used to take
 * 27 s and leave 2.5 GB behind; 60 refused ones left 140-180 MB of garbage until a full collection).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { post } from './sim-server-helpers.js';
import { spawnSim, type SimProcess } from './helpers/sim-process.js';

const MODEL = 'Qwen/Qwen2.5-0.5B-Instruct'; // context length 32,768
/** 30 MB of short words: at least 58,594 tokens by its byte count alone. */
const HUGE = 'hello world '.repeat(2_500_000);
/** Generous: a refused request used to take 26.7 s. */
const FAST_MS = 10_000;
/** Refused 30 MB prompts sent before the memory is read back. */
const HUGE_REQUESTS = 20;
/** Generous: measured 14-22 MB once collected (the allocator keeps some), 70-165 MB left for V8 to collect when it would. */
const RSS_GROWTH_MB = 64;
/** How long the memory may take to come back: the collection runs 1 s after the last refusal. */
const RSS_SETTLE_MS = 15_000;

/** POSTs `parts` as one body: chunked, or with `length` declared. */
function postBytes(url: string, path: string, parts: Array<string | Buffer>, length?: number): Promise<{ status: number; text: string }> {
  const headers = { 'content-type': 'application/json', ...(length === undefined ? {} : { 'content-length': length }) };
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { method: 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (part: string) => (text += part));
      res.on('end', () => resolve({ status: res.statusCode!, text }));
    });
    // A server that refuses a body mid-stream resets the connection while parts are still being
    // written: every error after the reply is expected, and one unheard would crash the test.
    req.on('error', reject);
    req.on('socket', (socket) => socket.on('error', reject));
    for (const part of parts) req.write(part);
    req.end();
  });
}

/** The sim's resident set in MB, null where /proc does not tell. */
function rssMb(sim: SimProcess): number | null {
  const statusFile = `/proc/${sim.child.pid}/status`;
  return existsSync(statusFile) ? Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(statusFile, 'utf8'))![1]) / 1024 : null;
}

describe('sim: oversized requests are refused fast', () => {
  let sim: SimProcess;

  before(async () => {
    sim = await spawnSim(['--model-path', MODEL, '--port', '0', '--host', '127.0.0.1']);
  });
  after(() => sim.child.kill('SIGKILL'));

  const huge: Array<[path: string, body: unknown, param: string | null]> = [
    ['/generate', { text: HUGE, sampling_params: { max_new_tokens: 4 } }, null],
    ['/v1/completions', { model: MODEL, prompt: HUGE, max_tokens: 4 }, 'prompt'],
    ['/v1/chat/completions', { model: MODEL, messages: [{ role: 'user', content: HUGE }], max_tokens: 4 }, 'messages'],
    ['/v2/models/ensemble/generate_stream', { text_input: HUGE, max_tokens: 4 }, null],
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

  test('a body over 32 MiB is refused with 413 in the route\'s error shape, naming the limit and the fix', async () => {
    const native = await post(sim.url, '/generate', JSON.stringify({ text: 'x'.repeat(40_000_000) }));
    assert.equal(native.status, 413);
    assert.deepEqual(Object.keys(native.json.error), ['message']);
    assert.match(native.json.error.message, /^The request body \(\d+ bytes\) exceeds the sim's limit of 33554432 bytes for this route: send smaller or fewer images, or a shorter prompt\.$/);
    const openai = await post(sim.url, '/v1/completions', JSON.stringify({ model: MODEL, prompt: 'x'.repeat(40_000_000) }));
    assert.equal(openai.status, 413);
    assert.equal(openai.json.error.type, 'RequestTooLargeError');
    assert.match(openai.json.error.message, /: shorten the prompt\.$/);
  });

  test('a declared length over the limit is answered before the body is sent', async () => {
    const { hostname, port } = new URL(sim.url);
    const socket = connect(Number(port), hostname);
    socket.write(`POST /generate HTTP/1.1\r\nHost: sim\r\nContent-Type: application/json\r\nContent-Length: 1000000000\r\n\r\n{"text": "`);
    let answer = '';
    await new Promise<void>((resolve, reject) => {
      socket.setEncoding('utf8').on('data', (text: string) => {
        answer += text;
        if (answer.includes('}}')) resolve();
      });
      socket.once('error', reject);
    });
    socket.destroy();
    assert.match(answer, /^HTTP\/1\.1 413 /);
    assert.match(answer, /The request body \(1000000000 bytes\) exceeds the sim's limit of 33554432 bytes/);
  });

  test('a chunked body is refused once it passes the limit', async () => {
    const chunk = Buffer.alloc(1 << 20, 'x');
    const reply = await postBytes(sim.url, '/generate', ['{"text": "', ...Array<Buffer>(40).fill(chunk), '"}']);
    assert.equal(reply.status, 413);
    assert.match(JSON.parse(reply.text).error.message, /^The request body \(more than 33554432 bytes\) exceeds/);
  });
});

describe('sim: memory after refused big prompts', () => {
  let sim: SimProcess;
  let baselineMb: number | null;
  before(async () => {
    // A sim of its own: what the other tests sent would decide when V8 collects on its own.
    sim = await spawnSim(['--model-path', MODEL, '--port', '0', '--host', '127.0.0.1']);
    assert.equal((await post(sim.url, '/generate', { text: 'hello', sampling_params: { max_new_tokens: 2 } })).status, 200);
    baselineMb = rssMb(sim);
  });
  after(() => sim.child.kill('SIGKILL'));

  test('returns near where it started once the refusals stop, and the sim still answers', async (t) => {
    const body = Buffer.from(JSON.stringify({ text: HUGE, sampling_params: { max_new_tokens: 4 } }));
    // Sent back to back, as a client does: the sim gets no pause in which V8 would collect by itself.
    for (let i = 0; i < HUGE_REQUESTS; i++) assert.equal((await postBytes(sim.url, '/generate', [body], body.length)).status, 400);
    if (baselineMb === null || rssMb(sim) === null) t.skip('no /proc here to read the sim process resident set');
    else {
      const deadline = performance.now() + RSS_SETTLE_MS;
      while (rssMb(sim)! - baselineMb >= RSS_GROWTH_MB && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
      const rss = rssMb(sim)!;
      assert.ok(rss - baselineMb < RSS_GROWTH_MB, `resident set ${baselineMb.toFixed(0)} MB before, ${rss.toFixed(0)} MB ${RSS_SETTLE_MS / 1000} s after`);
    }
    const reply = await post(sim.url, '/generate', { text: 'hello', sampling_params: { max_new_tokens: 2 } });
    assert.equal(reply.status, 200);
  });
});
