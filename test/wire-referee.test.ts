/**
 * The wire referee's parts (bench/wire/): the pcap reader, the requests a capture saw, and a
 * client's timings against them — on captures built here byte by byte — and, where tcpdump may
 * capture on `lo` (root or CAP_NET_RAW; CI installs tcpdump), servebench's bench pipeline against a
 * truth-mode sim under a real capture: every request seen on the wire, none of its tokens stamped
 * before the kernel carried it, and every stamp within the bound the self-check states for it.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { burstRequestId, runBurst, statedBound } from '../bench/client-burst.js';
import { withTruthSim } from '../bench/truth-sim.js';
import { captureRefusal, startCapture } from '../bench/wire/capture.js';
import { compareWithWire, type ClientTiming } from '../bench/wire/compare.js';
import { tcpSegments } from '../bench/wire/pcap.js';
import { wireRequests } from '../bench/wire/requests.js';

const SERVER = 30000;

interface Frame {
  timeMs: number;
  from: number;
  to: number;
  sequence: number;
  payload: string;
}

/** An IPv4 TCP frame under `linkHeader`, padded past the IP packet as short Ethernet frames are. */
function ipv4Frame({ from, to, sequence, payload }: Frame, linkHeader: Buffer, padding = 0): Buffer {
  const data = Buffer.from(payload, 'latin1');
  const tcp = Buffer.alloc(20);
  tcp.writeUInt16BE(from, 0);
  tcp.writeUInt16BE(to, 2);
  tcp.writeUInt32BE(sequence, 4);
  tcp[12] = 5 << 4;
  const ip = Buffer.alloc(20);
  ip[0] = 0x45;
  ip.writeUInt16BE(20 + tcp.length + data.length, 2);
  ip[9] = 6;
  return Buffer.concat([linkHeader, ip, tcp, data, Buffer.alloc(padding)]);
}

function ethernetHeader(): Buffer {
  const header = Buffer.alloc(14);
  header.writeUInt16BE(0x0800, 12);
  return header;
}

function cookedHeader(): Buffer {
  const header = Buffer.alloc(16);
  header.writeUInt16BE(0x0800, 14);
  return header;
}

/** A classic pcap file: little-endian, ns or µs stamps, one link type. */
function pcap(frames: readonly Frame[], options: { nanoseconds: boolean; linkType: number; link: () => Buffer; padding?: number }): Buffer {
  const header = Buffer.alloc(24);
  header.writeUInt32LE(options.nanoseconds ? 0xa1b23c4d : 0xa1b2c3d4, 0);
  header.writeUInt16LE(2, 4);
  header.writeUInt16LE(4, 6);
  header.writeUInt32LE(262144, 16);
  header.writeUInt32LE(options.linkType, 20);
  const records = frames.map((frame) => {
    const bytes = ipv4Frame(frame, options.link(), options.padding);
    const record = Buffer.alloc(16);
    const seconds = Math.floor(frame.timeMs / 1000);
    const fractionMs = frame.timeMs - seconds * 1000;
    record.writeUInt32LE(seconds, 0);
    record.writeUInt32LE(Math.round(fractionMs * (options.nanoseconds ? 1e6 : 1e3)), 4);
    record.writeUInt32LE(bytes.length, 8);
    record.writeUInt32LE(bytes.length, 12);
    return Buffer.concat([record, bytes]);
  });
  return Buffer.concat([header, ...records]);
}

const BASE_MS = 1_764_000_000_000;

/** A stream of frames on one connection, each given its flow's next sequence number. */
function connection(clientPort: number): (atMs: number, fromClient: boolean, payload: string) => Frame {
  const next = { up: 1000, down: 5000 };
  return (atMs, fromClient, payload) => {
    const direction = fromClient ? 'up' : 'down';
    const frame = { timeMs: BASE_MS + atMs, from: fromClient ? clientPort : SERVER, to: fromClient ? SERVER : clientPort, sequence: next[direction], payload };
    next[direction] += payload.length;
    return frame;
  };
}

const event = (text: string): string => `data: ${JSON.stringify({ text, meta_info: {} })}\n\n`;

describe('the pcap reader', () => {
  const frames: Frame[] = [
    { timeMs: BASE_MS + 1.5, from: 40000, to: SERVER, sequence: 1, payload: 'POST /generate HTTP/1.1\r\n' },
    { timeMs: BASE_MS + 2.25, from: SERVER, to: 40000, sequence: 9, payload: '' },
  ];

  test('Ethernet frames with ns stamps: ports, sequence, payload; segments without bytes skipped; padding trimmed', () => {
    const segments = tcpSegments(pcap(frames, { nanoseconds: true, linkType: 1, link: ethernetHeader, padding: 6 }));
    assert.equal(segments.length, 1);
    assert.equal(segments[0]!.timeMs, BASE_MS + 1.5);
    assert.deepEqual([segments[0]!.sourcePort, segments[0]!.destinationPort, segments[0]!.sequence], [40000, SERVER, 1]);
    assert.equal(segments[0]!.payload.toString(), 'POST /generate HTTP/1.1\r\n');
  });

  test('Linux cooked frames with µs stamps', () => {
    const segments = tcpSegments(pcap(frames, { nanoseconds: false, linkType: 113, link: cookedHeader }));
    assert.equal(segments.length, 1);
    assert.equal(segments[0]!.timeMs, BASE_MS + 1.5);
  });

  test('a file that is not a classic pcap is refused with the fix', () => {
    assert.throws(() => tcpSegments(Buffer.from('0a0d0d0a00000000000000000000000000000000000000000000', 'hex')), /not a pcap file .*capture with tcpdump -w/);
    assert.throws(() => tcpSegments(pcap(frames, { nanoseconds: true, linkType: 105, link: ethernetHeader })), /link type 105 is not read/);
  });
});

describe('the requests a capture saw', () => {
  test('a request named by its rid across segments; token events where the text grows; the last copy of an id kept', () => {
    const a = connection(40001);
    const segments = tcpSegments(
      pcap(
        [
          // A warmup copy of the same request first, answered in full.
          a(0, true, 'POST /generate HTTP/1.1\r\n\r\n{"text":"hi","rid":"r-1"}'),
          a(5, false, event(' a')),
          a(10, true, 'POST /generate HTTP/1.1\r\nContent-Length: 40\r\n\r\n{"text":"hi",'),
          a(10.01, true, '"rid": "r-1"}'),
          a(12, false, 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n'),
          a(20, false, `3a\r\n${event(' a')}\r\n`),
          // The same text again adds no token; a line split over two segments counts when complete.
          a(30, false, event(' a')),
          a(40, false, 'data: {"text":" a b",'),
          a(41, false, '"meta_info":{}}\n\n'),
          a(50, false, `${event(' a b c')}data: [DONE]\n\n`),
          // A retransmission of bytes already seen.
          a(60, false, ''),
          { timeMs: BASE_MS + 61, from: SERVER, to: 40001, sequence: 5000, payload: event(' a b c d') },
          // A metrics read on the same connection: its answer belongs to no request.
          a(70, true, 'GET /metrics HTTP/1.1\r\n\r\n'),
          a(71, false, event(' a b c d e')),
        ],
        { nanoseconds: true, linkType: 1, link: ethernetHeader },
      ),
    );
    const requests = wireRequests(segments, SERVER);
    assert.deepEqual([...requests.keys()], ['r-1']);
    const request = requests.get('r-1')!;
    assert.equal(request.postMs, BASE_MS + 10);
    assert.deepEqual(
      request.eventMs.map((at) => Math.round((at - BASE_MS) * 100) / 100),
      [20, 41, 50],
    );
  });

  test('completions and chat chunks count when they add text', () => {
    const b = connection(40002);
    const chunk = (choice: object): string => `data: ${JSON.stringify({ choices: [choice] })}\n\n`;
    const requests = wireRequests(
      tcpSegments(
        pcap(
          [
            b(0, true, 'POST /v1/chat/completions HTTP/1.1\r\n\r\n{"rid":"c-1"}'),
            b(1, false, chunk({ delta: { role: 'assistant', content: '' } })),
            b(2, false, chunk({ delta: { reasoning_content: 'think' } })),
            b(3, false, chunk({ delta: { content: 'x' } })),
            b(4, false, chunk({ text: 'y' })),
            b(5, false, chunk({ delta: {}, finish_reason: 'stop' })),
          ],
          { nanoseconds: true, linkType: 1, link: ethernetHeader },
        ),
      ),
      SERVER,
    );
    assert.equal(requests.get('c-1')!.eventMs.length, 3);
  });
});

describe('a client against the wire', () => {
  const wire = new Map([
    ['r-1', { rid: 'r-1', postMs: 1000, eventMs: [1050, 1070, 1090] }],
    ['r-2', { rid: 'r-2', postMs: 2000, eventMs: [2050, 2070] }],
  ]);

  test('errors per event, client minus wire; a request with another count of events is not paired', () => {
    const timings: ClientTiming[] = [
      { rid: 'r-1', ttftMs: 51, itlMs: [20, 23], statedBoundMs: 3.5 },
      { rid: 'r-2', ttftMs: 50, itlMs: [20, 20] },
      { rid: 'r-3', ttftMs: 50, itlMs: [] },
    ];
    const comparison = compareWithWire(timings, wire);
    assert.equal(comparison.paired, 1);
    assert.equal(comparison.unpaired, 2);
    assert.deepEqual(comparison.meanTtft, { client: 51, wire: 50 });
    assert.equal(comparison.worstLateMs, 4);
    assert.equal(comparison.worstEarlyMs, 1);
    assert.equal(comparison.beyondBound, 1);
    assert.equal(comparison.worstExcessMs, 0.5);
    assert.deepEqual(comparison.requests, [{ rid: 'r-1', clientTtftMs: 51, wireTtftMs: 50, worstLateMs: 4, worstEarlyMs: 1, statedBoundMs: 3.5 }]);
  });

  test('a token reported before the wire carried it is an early error, and counts against the bound', () => {
    const comparison = compareWithWire([{ rid: 'r-2', ttftMs: 48, itlMs: [20], statedBoundMs: 1 }], wire);
    assert.equal(comparison.worstEarlyMs, -2);
    assert.equal(comparison.beyondBound, 1);
  });
});

const refusal = captureRefusal();

test('servebench against the kernel: every request on the wire, no token early, every stamp within its stated bound', { skip: refusal ?? false }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'servebench-wire-test-'));
  try {
    await withTruthSim({ ttftMs: 30, itlMs: 10, sharedSteps: false, realtime: false }, async (sim) => {
      const port = Number(new URL(sim.url).port);
      const file = join(dir, 'capture.pcap');
      const capture = await startCapture(port, file);
      const point = { streams: 16, waves: 2, api: 'generate' as const, itlMs: 10, tokens: 8, workers: 1, lazyConnect: false };
      const run = await runBurst(point, { ttftMs: 30, clientRealtime: false, simRealtime: false }, sim.url).finally(() => capture.stop());
      const timings = run.outputs.map((output, i) => ({
        rid: burstRequestId(i),
        ttftMs: output.ttft * 1000,
        itlMs: output.itl.map((gap) => gap * 1000),
        statedBoundMs: statedBound(run.verdict, (output.stampLatenessBound ?? 0) * 1000),
      }));
      const comparison = compareWithWire(timings, wireRequests(tcpSegments(readFileSync(file)), port));
      assert.equal(comparison.paired, 32, 'every request was seen on the wire with all its tokens');
      // The start is stamped right after the request's write returns, µs after its segment passed.
      assert.ok(comparison.worstEarlyMs > -0.5, `a token stamped ${-comparison.worstEarlyMs} ms before the wire carried it`);
      assert.equal(comparison.beyondBound, 0, `a stamp beyond its stated bound by ${comparison.worstExcessMs} ms (${run.verdict.line})`);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
