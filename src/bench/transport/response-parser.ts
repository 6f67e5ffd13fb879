/**
 * An incremental HTTP/1.1 response parser: pure, no I/O. It is fed the bytes of one connection
 * as they arrive, in any split, and reports the final response's status, its de-chunked body as
 * views into the bytes it was given (no copies on the body path), and its end. Interim 1xx
 * responses are skipped. Body framing: `Transfer-Encoding: chunked` (extensions and trailers
 * accepted and ignored), `Content-Length`, or until the connection closes. Anything it cannot
 * frame raises `MalformedResponseError`.
 */
import { MalformedResponseError } from './errors.js';

/** What the parser reports, in order: one head, body slices, one completion. */
export interface ResponseEvents {
  onHead(status: number, reason: string): void;
  /** `bytes[start, end)` is body; the view is only valid during the call. */
  onBody(bytes: Buffer, start: number, end: number): void;
  onComplete(): void;
}

const MAX_HEAD_BYTES = 64 * 1024;
/** Larger chunk sizes are not a real response; the bound keeps `size * 16` exact. */
const MAX_CHUNK_SIZE = 2 ** 40;

const CR = 13;
const LF = 10;

// Parser states (plain numbers: the hot loop compares small integers).
const HEAD = 0;
const CHUNK_SIZE = 1;
const CHUNK_EXTENSION = 2;
const CHUNK_SIZE_LF = 3;
const CHUNK_DATA = 4;
const CHUNK_DATA_CR = 5;
const CHUNK_DATA_LF = 6;
const TRAILER_LINE_START = 7;
const TRAILER_LINE = 8;
const TRAILER_END_LF = 9;
const FIXED_BODY = 10;
const UNTIL_CLOSE = 11;
const DONE = 12;

/** Framing read from a response head. */
interface Head {
  status: number;
  reason: string;
  keepAlive: boolean;
  framing: 'chunked' | 'length' | 'close' | 'none';
  contentLength: number;
}

export class HttpResponseParser {
  private state = HEAD;
  /** Bytes of a head split across reads (copied: the caller may reuse its buffer). */
  private headParts: Buffer[] = [];
  private headBytes = 0;
  /** Body bytes still due in the current chunk or Content-Length body. */
  private remaining = 0;
  private chunkSize = 0;
  private chunkSizeDigits = 0;
  private keepAliveHeader = false;

  constructor(private readonly events: ResponseEvents) {}

  /** True once the response ended and the connection may carry another request. */
  get reusable(): boolean {
    return this.state === DONE && this.keepAliveHeader;
  }

  get complete(): boolean {
    return this.state === DONE;
  }

  /**
   * Parses `bytes[start, end)`; returns the offset after the last byte that belonged to the
   * response (less than `end` only once the response is complete). Throws MalformedResponseError.
   */
  execute(bytes: Buffer, start: number, end: number): number {
    let at = start;
    while (at < end) {
      switch (this.state) {
        case HEAD:
          at = this.readHead(bytes, at, end);
          break;
        case CHUNK_SIZE: {
          const byte = bytes[at++]!;
          const digit = hexValue(byte);
          if (digit >= 0) {
            this.chunkSize = this.chunkSize * 16 + digit;
            this.chunkSizeDigits++;
            if (this.chunkSize > MAX_CHUNK_SIZE) throw new MalformedResponseError('chunk size too large');
          } else if (this.chunkSizeDigits === 0) {
            throw new MalformedResponseError(`invalid chunk size line (byte 0x${byte.toString(16)})`);
          } else if (byte === CR) this.state = CHUNK_SIZE_LF;
          else if (byte === LF) this.endChunkSizeLine();
          else if (byte === 0x3b || byte === 0x20 || byte === 0x09) this.state = CHUNK_EXTENSION; // ';', SP, HTAB
          else throw new MalformedResponseError(`invalid chunk size line (byte 0x${byte.toString(16)})`);
          break;
        }
        case CHUNK_EXTENSION: {
          const lf = bytes.indexOf(LF, at);
          if (lf === -1 || lf >= end) at = end;
          else {
            at = lf + 1;
            this.endChunkSizeLine();
          }
          break;
        }
        case CHUNK_SIZE_LF:
          if (bytes[at++] !== LF) throw new MalformedResponseError('chunk size line not ended by CRLF');
          this.endChunkSizeLine();
          break;
        case CHUNK_DATA: {
          const stop = Math.min(end, at + this.remaining);
          this.remaining -= stop - at;
          this.events.onBody(bytes, at, stop);
          at = stop;
          if (this.remaining === 0) this.state = CHUNK_DATA_CR;
          break;
        }
        case CHUNK_DATA_CR: {
          const byte = bytes[at++];
          if (byte === CR) this.state = CHUNK_DATA_LF;
          else if (byte === LF) this.beginChunk();
          else throw new MalformedResponseError('chunk data not followed by CRLF');
          break;
        }
        case CHUNK_DATA_LF:
          if (bytes[at++] !== LF) throw new MalformedResponseError('chunk data not followed by CRLF');
          this.beginChunk();
          break;
        case TRAILER_LINE_START: {
          const byte = bytes[at++];
          if (byte === CR) this.state = TRAILER_END_LF;
          else if (byte === LF) this.finish();
          else this.state = TRAILER_LINE;
          break;
        }
        case TRAILER_LINE: {
          const lf = bytes.indexOf(LF, at);
          if (lf === -1 || lf >= end) at = end;
          else {
            at = lf + 1;
            this.state = TRAILER_LINE_START;
          }
          break;
        }
        case TRAILER_END_LF:
          if (bytes[at++] !== LF) throw new MalformedResponseError('trailer section not ended by CRLF');
          this.finish();
          break;
        case FIXED_BODY: {
          const stop = Math.min(end, at + this.remaining);
          this.remaining -= stop - at;
          this.events.onBody(bytes, at, stop);
          at = stop;
          if (this.remaining === 0) this.finish();
          break;
        }
        case UNTIL_CLOSE:
          this.events.onBody(bytes, at, end);
          at = end;
          break;
        default: // DONE: the rest is not this response's
          return at;
      }
    }
    return at;
  }

  /**
   * The connection ended. Returns true when that completed the response (a body delimited by
   * the close); false when the response was cut short or never began.
   */
  endOfStream(): boolean {
    if (this.state === UNTIL_CLOSE) this.finish();
    return this.state === DONE;
  }

  private endChunkSizeLine(): void {
    if (this.chunkSize === 0) {
      this.state = TRAILER_LINE_START;
      return;
    }
    this.remaining = this.chunkSize;
    this.state = CHUNK_DATA;
  }

  private beginChunk(): void {
    this.chunkSize = 0;
    this.chunkSizeDigits = 0;
    this.state = CHUNK_SIZE;
  }

  private finish(): void {
    this.state = DONE;
    this.events.onComplete();
  }

  /** Consumes head bytes from `at`; returns where the body starts, or `end` when the head is unfinished. */
  private readHead(bytes: Buffer, at: number, end: number): number {
    // A head split across reads is joined once its end is in sight; the usual head comes whole.
    const joined = this.headParts.length > 0;
    const head = joined ? Buffer.concat([...this.headParts, bytes.subarray(at, end)]) : bytes;
    const headStart = joined ? 0 : at;
    const offset = joined ? this.headBytes : at; // where bytes[at] sits in `head`
    const headEnd = findHeadEnd(head, headStart, joined ? head.length : end);
    if (headEnd === -1) {
      if (this.headBytes + (end - at) > MAX_HEAD_BYTES) throw new MalformedResponseError('response head larger than 64 KiB');
      this.headParts.push(Buffer.from(bytes.subarray(at, end)));
      this.headBytes += end - at;
      return end;
    }
    const parsed = parseHead(head.toString('latin1', headStart, headEnd));
    this.headParts = [];
    this.headBytes = 0;
    const bodyStart = headEnd - offset + at;
    if (parsed.status < 200) return bodyStart; // interim response: the final one follows
    this.keepAliveHeader = parsed.keepAlive;
    this.events.onHead(parsed.status, parsed.reason);
    switch (parsed.framing) {
      case 'none':
        this.finish();
        break;
      case 'chunked':
        this.beginChunk();
        break;
      case 'length':
        this.remaining = parsed.contentLength;
        if (this.remaining === 0) this.finish();
        else this.state = FIXED_BODY;
        break;
      case 'close':
        this.keepAliveHeader = false;
        this.state = UNTIL_CLOSE;
        break;
    }
    return bodyStart;
  }
}

function hexValue(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  const lower = byte | 0x20;
  if (lower >= 0x61 && lower <= 0x66) return lower - 0x61 + 10;
  return -1;
}

/** Offset after the empty line ending a head in `bytes[from, end)`, or -1 when not there yet. */
function findHeadEnd(bytes: Buffer, from: number, end: number): number {
  let lf = bytes.indexOf(LF, from);
  while (lf !== -1 && lf < end) {
    if (lf + 1 < end && bytes[lf + 1] === LF) return lf + 2;
    if (lf + 2 < end && bytes[lf + 1] === CR && bytes[lf + 2] === LF) return lf + 3;
    lf = bytes.indexOf(LF, lf + 1);
  }
  return -1;
}

const STATUS_LINE = /^HTTP\/1\.([01]) (\d{3})(?: (.*))?$/;

/** Status line and the headers that frame the body. */
function parseHead(text: string): Head {
  const lines = text.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  const match = STATUS_LINE.exec(lines[0]!);
  if (!match) throw new MalformedResponseError(`invalid status line: ${JSON.stringify(lines[0]!.slice(0, 80))}`);
  const status = Number(match[2]);
  if (status === 101) throw new MalformedResponseError('unexpected 101 Switching Protocols');
  let transferEncoding: string | null = null;
  let contentLength: string | null = null;
  let connection = '';
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === '') continue;
    const colon = line.indexOf(':');
    if (colon <= 0) throw new MalformedResponseError(`invalid header line: ${JSON.stringify(line.slice(0, 80))}`);
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'transfer-encoding') transferEncoding = transferEncoding === null ? value : `${transferEncoding}, ${value}`;
    else if (name === 'content-length') {
      if (contentLength !== null && contentLength !== value) throw new MalformedResponseError('conflicting Content-Length headers');
      contentLength = value;
    } else if (name === 'connection') connection += `,${value.toLowerCase()}`;
  }
  const keepAlive = match[1] === '1' && !connection.split(',').some((token) => token.trim() === 'close');
  const head: Head = { status, reason: match[3] ?? '', keepAlive, framing: 'close', contentLength: 0 };
  if (status < 200 || status === 204 || status === 304) head.framing = 'none';
  else if (transferEncoding !== null) {
    // Only a final `chunked` frames the body; any other coding runs until the close (RFC 9112 §6.3).
    head.framing = transferEncoding.toLowerCase().split(',').at(-1)!.trim() === 'chunked' ? 'chunked' : 'close';
  } else if (contentLength !== null) {
    if (!/^\d{1,15}$/.test(contentLength)) {
      throw new MalformedResponseError(`invalid Content-Length: ${JSON.stringify(contentLength.slice(0, 40))}`);
    }
    head.framing = 'length';
    head.contentLength = Number(contentLength);
  }
  return head;
}
