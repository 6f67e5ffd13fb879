/**
 * Client-side parse cost per token event of each backend's stream: byte-level line splitting,
 * SSE line handling and JSON parsing, fed one event per chunk (the usual socket read) and in
 * random 1–512-byte chunks; then the same one-event reads wrapped in HTTP chunked framing and
 * de-chunked by the transport's response parser first, as the client reads them off a socket.
 * (End-to-end accuracy and CPU per event: bench/client-accuracy.ts.)
 * Run: npx tsx bench/stream-parse.ts
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { backendAdapter, feedLine } from '../src/bench/backends/index.js';
import type { BackendName } from '../src/bench/args/types.js';
import { LineSplitter } from '../src/bench/transport/line-splitter.js';
import { HttpResponseParser } from '../src/bench/transport/response-parser.js';
import type { RequestInput } from '../src/bench/types.js';
import { streamEpilogue, streamPreamble, tokenChunk, type WireFormat } from '../test/helpers/wire-formats.js';

const EVENTS = 100_000;

function input(apiUrl: string, outputLen: number): RequestInput {
  return { prompt: 'hello', apiUrl, promptLen: 1, outputLen, model: 'm', loraName: null, imageData: null, extraRequestBody: {} };
}

function recordedBody(format: WireFormat): Buffer {
  let text = streamPreamble(format, 'm');
  let cumulative = '';
  for (let i = 0; i < EVENTS; i++) {
    cumulative = format === 'native' ? (cumulative + ' hi').slice(-64) : ' hi';
    text += tokenChunk(format, 'm', { index: i, text: ' hi', cumulative, reasoning: false });
  }
  return Buffer.from(text + streamEpilogue(format, EVENTS));
}

type Feed = 'event' | 'random' | 'http';

/** Reads as the client would get them: one event each, random sizes, or one framed HTTP chunk each. */
function reads(body: Buffer, feed: Feed): Buffer[] {
  const chunks: Buffer[] = [];
  if (feed === 'http') chunks.push(Buffer.from('HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n'));
  let seed = 7;
  for (let at = 0; at < body.length; ) {
    let size: number;
    if (feed === 'random') {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      size = 1 + (seed % 512);
    } else {
      const end = body.indexOf('\n\n', at);
      size = (end === -1 ? body.length : end + 2) - at;
    }
    const piece = body.subarray(at, at + size);
    chunks.push(feed === 'http' ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]) : piece);
    at += size;
  }
  return chunks;
}

function parseCost(backend: BackendName, format: WireFormat, feed: Feed): number {
  const chunks = reads(recordedBody(format), feed);
  const parser = backendAdapter(backend).createParser(input('http://x', EVENTS), 0, true);
  const splitter = new LineSplitter();
  const onLine = (line: string): void => feedLine(parser, line, 1);
  const http = new HttpResponseParser({
    onHead: () => {},
    onBody: (bytes, start, end) => splitter.push(bytes, start, end, onLine),
    onComplete: () => {},
  });
  const start = performance.now();
  if (feed === 'http') for (const chunk of chunks) http.execute(chunk, 0, chunk.length);
  else for (const chunk of chunks) splitter.push(chunk, 0, chunk.length, onLine);
  return ((performance.now() - start) * 1e6) / EVENTS;
}

console.log(`load average (1 min): ${loadavg()[0]!.toFixed(2)}`);
const cases: Array<[BackendName, WireFormat]> = [['sglang', 'native'], ['sglang-oai', 'completions'], ['sglang-oai-chat', 'chat'], ['trt', 'trt']];
for (const [backend, format] of cases) {
  parseCost(backend, format, 'http'); // warm the JIT
  const perEvent = parseCost(backend, format, 'event');
  const random = parseCost(backend, format, 'random');
  const http = parseCost(backend, format, 'http');
  console.log(
    `parse ${backend.padEnd(16)} ${perEvent.toFixed(0)} ns/event (one event per chunk), ${random.toFixed(0)} ns/event (random 1-512 B chunks), ` +
      `${http.toFixed(0)} ns/event (one HTTP chunk per read, de-chunked first)`,
  );
}
