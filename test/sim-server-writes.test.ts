import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { startSimServer, type SimServerHandle } from '../src/sim/server/sim-server.js';
import { MODEL } from './sim-server-helpers.js';

/** Every read of a raw HTTP/1.1 exchange up to the last chunk of its body, with its arrival time (ms). */
function readsOf(url: string, path: string, body: string): Promise<Array<{ at: number; text: string }>> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const reads: Array<{ at: number; text: string }> = [];
    const socket = connect(Number(port), hostname, () => {
      socket.write(`POST ${path} HTTP/1.1\r\nhost: ${hostname}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    });
    socket.on('data', (chunk: Buffer) => {
      reads.push({ at: performance.now(), text: chunk.toString('utf8') });
      if (!chunk.toString('latin1').endsWith('\r\n0\r\n\r\n')) return;
      socket.destroy();
      resolve(reads);
    });
    socket.on('error', reject);
  });
}

/** The body of a chunked HTTP/1.1 response. */
function dechunk(raw: string): string {
  let rest = raw;
  let body = '';
  for (;;) {
    const eol = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, eol), 16);
    if (size === 0) return body;
    const start = eol + 2;
    body += Buffer.from(rest.slice(start)).subarray(0, size).toString('utf8');
    rest = Buffer.from(rest.slice(start)).subarray(size + 2).toString('utf8');
  }
}

describe('sim: how streamed chunks are written', () => {
  let sim: SimServerHandle;
  before(async () => {
    // Every chunk of a request falls due at once, 200 ms after it arrives.
    sim = await startSimServer(['--model-path', MODEL, '--truth-ttft-ms', '200', '--truth-itl-ms', '0'], { port: 0, host: '127.0.0.1', quiet: true });
  });
  after(() => sim.close());

  test('headers leave when the stream opens; chunks due together leave in one write, framed as HTTP/1.1 chunks', async () => {
    const sent = performance.now();
    const body = JSON.stringify({ text: 'hi', sampling_params: { max_new_tokens: 5, ignore_eos: true }, stream: true });
    const reads = await readsOf(sim.url, '/generate', body);
    assert.equal(reads.length, 2, `reads: ${JSON.stringify(reads.map((r) => r.text))}`);
    const [head, rest] = reads as [{ at: number; text: string }, { at: number; text: string }];
    assert.match(head.text, /^HTTP\/1\.1 200 OK\r\n[\s\S]*transfer-encoding: chunked\r\n/i);
    assert.ok(head.text.endsWith('\r\n\r\n'), 'the first read is the headers alone');
    assert.ok(head.at - sent < 150, `headers after ${head.at - sent} ms`);
    assert.ok(rest.at - sent >= 199, `chunks after ${rest.at - sent} ms`);
    const events = dechunk(rest.text).split('\n\n').filter((e) => e !== '');
    assert.equal(events.length, 6);
    assert.equal(events[5], 'data: [DONE]');
    const completions = events.slice(0, 5).map((e) => JSON.parse(e.slice('data: '.length)).meta_info.completion_tokens);
    assert.deepEqual(completions, [1, 2, 3, 4, 5]);
  });
});
