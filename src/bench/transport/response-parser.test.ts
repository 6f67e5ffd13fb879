import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MalformedResponseError } from './errors.js';
import { HttpResponseParser } from './response-parser.js';

interface Parsed {
  status: number;
  reason: string;
  body: string;
  complete: boolean;
  reusable: boolean;
  /** Bytes after the response's end, which belong to no request. */
  leftover: number;
}

/** Feeds `wire` in pieces of the given sizes (cycled), through one reused buffer like the socket's. */
function parse(wire: string, sizes: readonly number[], endOfStream = false): Parsed {
  const result: Parsed = { status: 0, reason: '', body: '', complete: false, reusable: false, leftover: 0 };
  const bodyParts: Buffer[] = [];
  const parser = new HttpResponseParser({
    onHead(status, reason) {
      result.status = status;
      result.reason = reason;
    },
    onBody: (bytes, start, end) => bodyParts.push(Buffer.from(bytes.subarray(start, end))),
    onComplete() {
      result.complete = true;
    },
  });
  const bytes = Buffer.from(wire, 'latin1');
  const readBuffer = Buffer.alloc(bytes.length + 8);
  for (let at = 0, piece = 0; at < bytes.length; piece++) {
    const size = Math.min(sizes[piece % sizes.length]!, bytes.length - at);
    readBuffer.fill(0x7e); // stale bytes of an earlier read must never leak into the result
    bytes.copy(readBuffer, 3, at, at + size);
    const consumed = parser.execute(readBuffer, 3, 3 + size);
    result.leftover += 3 + size - consumed;
    at += size;
  }
  if (endOfStream) parser.endOfStream();
  result.body = Buffer.concat(bodyParts).toString('latin1');
  result.reusable = parser.reusable;
  return result;
}

/** Whole, byte by byte, and in seeded random splits of 1–17 bytes. */
function splits(): number[][] {
  let seed = 11;
  const random = Array.from({ length: 64 }, () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return 1 + (seed % 17);
  });
  return [[1 << 20], [1], random];
}

const CHUNKED =
  'HTTP/1.1 100 Continue\r\n\r\n' +
  'HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n' +
  '6\r\ndata: \r\n' +
  'B;name=value;other="quoted"\r\n{"t":"\u00e9"}\n\n\r\n' +
  '0\r\nX-Trailer: 1\r\nX-Other: 2\r\n\r\n';

test('chunked with an interim 100, extensions and trailers, in any split', () => {
  for (const sizes of splits()) {
    const parsed = parse(CHUNKED, sizes);
    assert.equal(parsed.status, 200, `sizes ${sizes[0]}`);
    assert.equal(parsed.reason, 'OK');
    assert.equal(parsed.body, 'data: {"t":"\u00e9"}\n\n');
    assert.ok(parsed.complete && parsed.reusable);
    assert.equal(parsed.leftover, 0);
  }
});

test('upper-case hex sizes and bare LF line ends are accepted', () => {
  const parsed = parse('HTTP/1.1 200 OK\ntransfer-encoding: Chunked\n\n1A\n' + 'x'.repeat(26) + '\n0\n\n', [5]);
  assert.equal(parsed.body, 'x'.repeat(26));
  assert.ok(parsed.complete);
});

test('Content-Length body; bytes after it are left over and the connection is not reusable', () => {
  for (const sizes of splits()) {
    const parsed = parse('HTTP/1.1 404 Not Found\r\nContent-Length: 5\r\n\r\nhelloEXTRA', sizes);
    assert.equal(parsed.status, 404);
    assert.equal(parsed.reason, 'Not Found');
    assert.equal(parsed.body, 'hello');
    assert.ok(parsed.complete);
    assert.equal(parsed.leftover, 5);
  }
  const exact = parse('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi', [4]);
  assert.ok(exact.reusable);
});

test('a body delimited by the close ends at end of stream, and never keeps the connection', () => {
  for (const sizes of splits()) {
    const open = parse('HTTP/1.0 200 OK\r\n\r\nbody until close', sizes);
    assert.equal(open.body, 'body until close');
    assert.equal(open.complete, false, 'not complete before the close');
    const closed = parse('HTTP/1.0 200 OK\r\n\r\nbody until close', sizes, true);
    assert.ok(closed.complete);
    assert.equal(closed.reusable, false);
  }
});

test('Connection: close and HTTP/1.0 responses are not reusable; 204 has no body', () => {
  assert.equal(parse('HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 1\r\n\r\nx', [100]).reusable, false);
  assert.equal(parse('HTTP/1.0 200 OK\r\nContent-Length: 1\r\n\r\nx', [100]).reusable, false);
  const noContent = parse('HTTP/1.1 204 No Content\r\n\r\n', [100]);
  assert.ok(noContent.complete && noContent.reusable);
  assert.equal(noContent.reason, 'No Content');
});

test('a response cut short is not complete at end of stream', () => {
  const parsed = parse('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab', [100], true);
  assert.equal(parsed.complete, false);
  assert.equal(parsed.body, 'ab');
});

test('malformed framing raises MalformedResponseError with the reason', () => {
  const cases: Array<[string, RegExp]> = [
    ['SPDY/3 200 OK\r\n\r\n', /invalid status line/],
    ['HTTP/1.1 200 OK\r\nno colon here\r\n\r\n', /invalid header line/],
    ['HTTP/1.1 200 OK\r\nContent-Length: 12abc\r\n\r\n', /invalid Content-Length/],
    ['HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n', /conflicting Content-Length/],
    ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n', /invalid chunk size line/],
    ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabX\r\n', /chunk data not followed by CRLF/],
    ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\rX', /chunk size line not ended by CRLF/],
    ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffff\r\n', /chunk size too large/],
    ['HTTP/1.1 101 Switching Protocols\r\n\r\n', /unexpected 101/],
    [`HTTP/1.1 200 OK\r\nX: ${'a'.repeat(70_000)}`, /larger than 64 KiB/],
  ];
  for (const [wire, message] of cases) {
    for (const sizes of [[1 << 20], [7]]) {
      const matches = (error: unknown): boolean => error instanceof MalformedResponseError && message.test(error.message);
      assert.throws(() => parse(wire, sizes), matches, wire.slice(0, 60));
    }
  }
});
