/**
 * A loopback server that streams every backend's wire format at KNOWN times, so tests can compare
 * what the client measured with what the server actually did. One shared 1 ms timer writes every
 * due token (the first after `firstTokenDelayMs`, then one every `intervalMs`); the server records
 * the time of each write on its own clock. Also serves /v1/models, /get_server_info,
 * /flush_cache and the profiler endpoints.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import {
  formatOfPath,
  nonStreamBody,
  requestedTokens,
  streamEpilogue,
  streamPreamble,
  tokenChunk,
} from './wire-formats.js';
import type { WireFormat } from './wire-formats.js';
import { readBody } from './read-body.js';

export interface StreamServerOptions {
  firstTokenDelayMs?: number;
  intervalMs?: number;
  /** Chat only: this many reasoning tokens precede the content (they count as output tokens). */
  reasoningTokens?: number;
  /** Answer every generation request with this HTTP status. */
  failStatus?: number;
  /** Generation requests after the first N stop writing after their first token and never end. */
  stallAfterRequests?: number;
  /** Reported by /get_server_info as internal_states[0].avg_spec_accept_length. */
  acceptLength?: number;
  modelId?: string;
  /** Native: each chunk's meta_info.completion_tokens counts this many tokens more than were sent. */
  extraReportedTokens?: number;
  /**
   * Answers `GET /metrics`: called with how many generation requests have finished and how many
   * output tokens were written so far, and the index of this scrape; absent: 404, as a server without metrics.
   */
  metrics?: (state: { finished: number; tokens: number; scrape: number }) => { status: number; body: string };
}

/** What the server did for one generation request (times in ms on the server's clock). */
export interface ServedRequest {
  path: string;
  format: WireFormat;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
  receivedAt: number;
  /** Write time of every output token, reasoning included. */
  tokenWrites: number[];
  /** Write time of the first content token (the reference's TTFT event). */
  firstContentWrite: number | null;
}

export interface StreamServer {
  url: string;
  /** Generation requests in arrival order. */
  requests: ServedRequest[];
  /** Auxiliary calls as "METHOD /path" (with the JSON body for POSTs that have one). */
  auxCalls: Array<{ call: string; body: unknown; headers: IncomingMessage['headers'] }>;
  /**
   * Mean TTFT and ITL (ms) the server actually produced for requests from index `from` on, and the
   * most of those streams it held open at one time.
   */
  truth(from: number): { meanTtftMs: number; meanItlMs: number; requests: number; maxOpenStreams: number };
  close(): Promise<void>;
}

interface ActiveStream {
  served: ServedRequest;
  res: ServerResponse;
  total: number;
  sent: number;
  dueAt: number;
  cumulative: string;
  stalls: boolean;
}

const TOKEN_TEXT = ' hi';


/** Starts the server on 127.0.0.1 with an ephemeral port. */
export async function startStreamServer(options: StreamServerOptions = {}): Promise<StreamServer> {
  const firstDelay = options.firstTokenDelayMs ?? 20;
  const interval = options.intervalMs ?? 5;
  const reasoning = options.reasoningTokens ?? 0;
  const model = options.modelId ?? 'test-model';
  const requests: ServedRequest[] = [];
  const auxCalls: StreamServer['auxCalls'] = [];
  const active = new Set<ActiveStream>();
  let tokensWritten = 0;
  let finished = 0;
  let scrapes = 0;

  const writeDue = (): void => {
    const now = performance.now();
    for (const stream of active) {
      if (stream.dueAt > now) continue;
      const format = stream.served.format;
      const isReasoning = format === 'chat' && stream.sent < Math.min(reasoning, stream.total - 1);
      stream.cumulative += TOKEN_TEXT;
      const writeAt = performance.now();
      stream.res.write(
        tokenChunk(format, model, { index: stream.sent, text: TOKEN_TEXT, cumulative: stream.cumulative, reasoning: isReasoning, extraReportedTokens: options.extraReportedTokens }),
      );
      tokensWritten++;
      stream.served.tokenWrites.push(writeAt);
      if (!isReasoning && stream.served.firstContentWrite === null) stream.served.firstContentWrite = writeAt;
      stream.sent++;
      stream.dueAt += interval;
      if (stream.stalls) {
        active.delete(stream);
      } else if (stream.sent === stream.total) {
        active.delete(stream);
        finished++;
        stream.res.end(streamEpilogue(format, stream.total));
      }
    }
  };
  const ticker = setInterval(writeDue, 1);

  const handleGeneration = async (req: IncomingMessage, res: ServerResponse, format: WireFormat, receivedAt: number) => {
    const body = JSON.parse(await readBody(req)) as Record<string, unknown>;
    const served: ServedRequest = { path: req.url ?? '', format, headers: req.headers, body, receivedAt, tokenWrites: [], firstContentWrite: null };
    requests.push(served);
    if (options.failStatus !== undefined) {
      res.writeHead(options.failStatus, { 'Content-Type': 'text/plain' });
      res.end('simulated failure');
      return;
    }
    const total = Math.max(1, requestedTokens(format, body));
    const stream = format === 'trt' || body.stream !== false;
    if (!stream) {
      setTimeout(() => {
        served.firstContentWrite = performance.now();
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(nonStreamBody(format, model, TOKEN_TEXT.repeat(total), total));
      }, firstDelay + interval * (total - 1));
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
    // Headers leave at once, as real streaming servers send them, so a token write is data only.
    res.flushHeaders();
    const preamble = streamPreamble(format, model);
    if (preamble) res.write(preamble);
    const stalls = options.stallAfterRequests !== undefined && requests.length > options.stallAfterRequests;
    active.add({ served, res, total, sent: 0, dueAt: receivedAt + firstDelay, cumulative: '', stalls });
  };

  const handleAux = async (req: IncomingMessage, res: ServerResponse, path: string) => {
    const text = await readBody(req);
    auxCalls.push({ call: `${req.method} ${path}`, body: text ? JSON.parse(text) : null, headers: req.headers });
    const json = (status: number, payload: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(payload));
    };
    if (req.method === 'GET' && path === '/v1/models') {
      json(200, { object: 'list', data: [{ id: model, object: 'model', owned_by: 'servebench-test' }] });
    } else if (req.method === 'GET' && path === '/get_server_info') {
      const state = options.acceptLength === undefined ? {} : { avg_spec_accept_length: options.acceptLength };
      json(200, { version: 'test', internal_states: [state] });
    } else if (req.method === 'GET' && path === '/metrics' && options.metrics !== undefined) {
      const { status, body } = options.metrics({ finished, tokens: tokensWritten, scrape: scrapes++ });
      res.writeHead(status, { 'Content-Type': 'text/plain; version=0.0.4' });
      res.end(body);
    } else if (req.method === 'POST' && ['/flush_cache', '/start_profile', '/stop_profile'].includes(path)) {
      json(200, { success: true });
    } else {
      json(404, { detail: 'Not Found' });
    }
  };

  const server = createServer((req, res) => {
    const receivedAt = performance.now();
    const path = (req.url ?? '/').split('?')[0]!;
    const format = req.method === 'POST' ? formatOfPath(path) : null;
    const work = format ? handleGeneration(req, res, format, receivedAt) : handleAux(req, res, path);
    work.catch((error: unknown) => {
      res.writeHead(400);
      res.end(String(error));
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    auxCalls,
    truth(from: number) {
      const ttfts: number[] = [];
      const gaps: number[] = [];
      for (const served of requests.slice(from)) {
        if (served.firstContentWrite === null) continue;
        ttfts.push(served.firstContentWrite - served.receivedAt);
        const contentWrites = served.tokenWrites.filter((t) => t >= served.firstContentWrite!);
        for (let i = 1; i < contentWrites.length; i++) gaps.push(contentWrites[i]! - contentWrites[i - 1]!);
      }
      const mean = (xs: number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
      // Opening (+1) and closing (−1) edges of every stream, swept in time order (closes first on ties).
      const edges = requests
        .slice(from)
        .flatMap((served) => [
          { at: served.receivedAt, step: 1 },
          { at: served.tokenWrites.at(-1) ?? served.receivedAt, step: -1 },
        ])
        .sort((a, b) => a.at - b.at || a.step - b.step);
      let open = 0;
      let maxOpenStreams = 0;
      for (const edge of edges) maxOpenStreams = Math.max(maxOpenStreams, (open += edge.step));
      return { meanTtftMs: mean(ttfts), meanItlMs: mean(gaps), requests: ttfts.length, maxOpenStreams };
    },
    async close() {
      clearInterval(ticker);
      active.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
