/**
 * The requests a loopback capture saw, as the wire timed them (pure): on each connection to the
 * server, a request begins with the segment that carries `POST `, is named by the `rid` in its
 * body (SGLang's request id, which the clients under test send), and its token events are the
 * `data:` lines of the server's answer that add text, each stamped when the segment completing
 * it passed the interface. Requests on one keep-alive connection follow each other, so the
 * server's bytes belong to the latest request sent on it.
 */
import type { TcpSegment } from './pcap.js';

/** One request as the wire saw it. */
export interface WireRequest {
  rid: string;
  /** When the segment carrying the request line passed the interface, ms since the epoch. */
  postMs: number;
  /** When each token event's segment passed it (a segment with two events stamps both). */
  eventMs: number[];
}

const REQUEST_LINE = /^[A-Z]+ \S+ HTTP\/1\.[01]\r\n/;
const REQUEST_ID = /"rid"\s*:\s*"([^"]+)"/;
/** How much of a request's bytes are searched for its `rid` before it is taken to have none. */
const REQUEST_ID_SEARCH_BYTES = 64 * 1024;

interface OpenRequest {
  postMs: number;
  head: string;
  rid: string | null;
  eventMs: number[];
  /** The answer's bytes after its last complete line. */
  partialLine: string;
  /** SGLang's native stream repeats the whole text so far: an event adds text when this grows. */
  cumulativeTextLength: number;
}

/** The text an event's JSON adds, by API: native (cumulative `text`), completions (`text`), chat (`delta`). */
function addsText(event: Record<string, unknown>, request: OpenRequest): boolean {
  if (typeof event.text === 'string') {
    const grew = event.text.length > request.cumulativeTextLength;
    request.cumulativeTextLength = Math.max(request.cumulativeTextLength, event.text.length);
    return grew;
  }
  const choice = (event.choices as Array<{ text?: unknown; delta?: { content?: unknown; reasoning_content?: unknown } }> | undefined)?.[0];
  if (!choice) return false;
  const added = choice.text ?? choice.delta?.content ?? choice.delta?.reasoning_content;
  return typeof added === 'string' && added.length > 0;
}

/** Stamps every token event the answer's bytes complete with the segment's time. */
function readAnswer(request: OpenRequest, text: string, timeMs: number): void {
  const lines = (request.partialLine + text).split('\n');
  request.partialLine = lines.pop()!;
  for (const line of lines) {
    if (!line.startsWith('data:')) continue;
    const data = line.slice(5).trim();
    if (data === '[DONE]') continue;
    try {
      if (addsText(JSON.parse(data) as Record<string, unknown>, request)) request.eventMs.push(timeMs);
    } catch {
      // A data line that is not JSON (an error's text) carries no token.
    }
  }
}

/** Sequence numbers are modulo 2^32: a segment wholly before the next expected byte is a retransmission. */
function isRetransmission(sequence: number, length: number, expected: number | undefined): boolean {
  if (expected === undefined) return false;
  const end = (sequence + length) >>> 0;
  const behind = (expected - end) >>> 0;
  return behind < 2 ** 31;
}

/**
 * The requests of a capture, by `rid`, for a server listening on `serverPort`. A request id sent
 * twice (a warmup copy of a measured request) keeps its last sending: the measured one.
 */
export function wireRequests(segments: readonly TcpSegment[], serverPort: number): Map<string, WireRequest> {
  const latest = new Map<number, OpenRequest>();
  const nextSequence = new Map<string, number>();
  const sent: OpenRequest[] = [];
  for (const segment of segments) {
    const fromClient = segment.destinationPort === serverPort;
    if (!fromClient && segment.sourcePort !== serverPort) continue;
    const flow = `${segment.sourcePort}>${segment.destinationPort}`;
    if (isRetransmission(segment.sequence, segment.payload.length, nextSequence.get(flow))) continue;
    nextSequence.set(flow, (segment.sequence + segment.payload.length) >>> 0);
    const clientPort = fromClient ? segment.sourcePort : segment.destinationPort;
    const text = segment.payload.toString('latin1');
    if (fromClient) {
      if (text.startsWith('POST ')) {
        const request: OpenRequest = { postMs: segment.timeMs, head: '', rid: null, eventMs: [], partialLine: '', cumulativeTextLength: 0 };
        latest.set(clientPort, request);
        sent.push(request);
      } else if (REQUEST_LINE.test(text)) {
        // Another method's request (a metrics scrape, a server-info read) on the same connection: its answer is no token's.
        latest.delete(clientPort);
      }
      const request = latest.get(clientPort);
      if (request && request.rid === null && request.head.length < REQUEST_ID_SEARCH_BYTES) {
        request.head += text;
        request.rid = REQUEST_ID.exec(request.head)?.[1] ?? null;
      }
      continue;
    }
    const request = latest.get(clientPort);
    if (request) readAnswer(request, text, segment.timeMs);
  }
  const byId = new Map<string, WireRequest>();
  for (const { rid, postMs, eventMs } of sent) if (rid !== null) byId.set(rid, { rid, postMs, eventMs });
  return byId;
}
