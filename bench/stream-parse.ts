/**
 * Client-side parse cost per token event of each backend's stream: byte-level line splitting,
 * SSE line handling and JSON parsing, fed one event per chunk (the usual socket read) and in
 * random 1–512-byte chunks. (End-to-end accuracy and CPU per event: bench/client-accuracy.ts.)
 * Run: npx tsx bench/stream-parse.ts
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { backendAdapter, feedLine } from '../src/bench/backends/index.js';
import type { BackendName } from '../src/bench/args/types.js';
import { LineSplitter } from '../src/bench/transport/lineSplitter.js';
import type { RequestInput } from '../src/bench/types.js';
import { streamEpilogue, streamPreamble, tokenChunk } from '../test/helpers/wireFormats.js';
import type { WireFormat } from '../test/helpers/wireFormats.js';

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

function parseCost(backend: BackendName, format: WireFormat, randomChunks: boolean): number {
  const body = recordedBody(format);
  const chunks: Buffer[] = [];
  let seed = 7;
  for (let at = 0; at < body.length; ) {
    let size: number;
    if (randomChunks) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      size = 1 + (seed % 512);
    } else {
      size = body.indexOf('\n\n', at) + 2 - at;
    }
    chunks.push(body.subarray(at, at + size));
    at += size;
  }
  const parser = backendAdapter(backend).createParser(input('http://x', EVENTS), 0, true);
  const splitter = new LineSplitter();
  const start = performance.now();
  for (const chunk of chunks) splitter.push(chunk, (line) => feedLine(parser, line, 1));
  return ((performance.now() - start) * 1e6) / EVENTS;
}

console.log(`load average (1 min): ${loadavg()[0]!.toFixed(2)}`);
const cases: Array<[BackendName, WireFormat]> = [['sglang', 'native'], ['sglang-oai', 'completions'], ['sglang-oai-chat', 'chat'], ['trt', 'trt']];
for (const [backend, format] of cases) {
  parseCost(backend, format, false); // warm the JIT
  const perEvent = parseCost(backend, format, false);
  const random = parseCost(backend, format, true);
  console.log(`parse ${backend.padEnd(16)} ${perEvent.toFixed(0)} ns/event (one event per chunk), ${random.toFixed(0)} ns/event (random 1-512 B chunks)`);
}
