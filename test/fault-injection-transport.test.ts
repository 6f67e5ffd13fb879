/**
 * `servebench bench` (the built CLI) against small misbehaving loopback servers written on
 * node:net, so every byte and every close is the test's choice: credentials in the URL and in
 * `--header` (sent on every request, never shown or stored), a server that drops keep-alive
 * connections silently or announces `Connection: close`, empty 200s, 429s and 500s, a stream
 * that stops after three tokens, a server slow to accept, and one that refuses every connection.
 * Each test checks what the server saw against what the run reports.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { runCli, type CliResult } from './helpers/cli.js';
import { streamEpilogue, tokenChunk } from './helpers/wire-formats.js';

const MODEL = 'Qwen/Qwen2.5-0.5B-Instruct';
const OUTPUT_TOKENS = 4;

const workDir = mkdtempSync(join(tmpdir(), 'servebench-faults-'));
after(() => rmSync(workDir, { recursive: true, force: true }));
let fileCounter = 0;
function outputFile(): string {
  return join(workDir, `run-${++fileCounter}.jsonl`);
}

/** One request as the server read it; `onConnection` counts the requests its connection carried before it. */
interface ReceivedRequest {
  method: string;
  path: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: string;
  onConnection: number;
  /** Arrival order among the server's generation requests (POST /generate), from 0. */
  generationIndex: number;
}

/** What a fault server does with one request: write to the socket, close it, or nothing at all. */
type Responder = (request: ReceivedRequest, socket: Socket) => void;

interface FaultServer {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  generationRequests(): ReceivedRequest[];
  close(): Promise<void>;
}

const GENERATE_PATH = '/generate';

/**
 * A raw HTTP/1.1 server: it reads requests (Content-Length bodies) off each connection and hands
 * every `POST /generate` to `generate`; the auxiliary endpoints get a plain keep-alive 200 unless
 * `generate` is asked to answer everything (`allRequests`).
 */
async function startFaultServer(generate: Responder, options: { allRequests?: boolean; acceptDelayMs?: number } = {}): Promise<FaultServer> {
  const requests: ReceivedRequest[] = [];
  const sockets = new Set<Socket>();
  let generations = 0;
  // A slow accept: the kernel completes the handshake, the server reads nothing for a while.
  const acceptDelayMs = options.acceptDelayMs ?? 0;
  const server = createServer({ pauseOnConnect: acceptDelayMs > 0 }, (socket) => {
    if (acceptDelayMs > 0) setTimeout(() => socket.resume(), acceptDelayMs);
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let pending = Buffer.alloc(0);
    let onConnection = 0;
    socket.on('data', (bytes: Buffer) => {
      pending = Buffer.concat([pending, bytes]);
      for (;;) {
        const headEnd = pending.indexOf('\r\n\r\n');
        if (headEnd < 0) return;
        const [requestLine, ...headerLines] = pending.subarray(0, headEnd).toString('latin1').split('\r\n');
        const headers: Record<string, string> = {};
        for (const line of headerLines) {
          const colon = line.indexOf(':');
          headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
        }
        const bodyEnd = headEnd + 4 + Number(headers['content-length'] ?? 0);
        if (pending.length < bodyEnd) return;
        const [method, path] = requestLine!.split(' ') as [string, string];
        const isGeneration = method === 'POST' && path === GENERATE_PATH;
        const request: ReceivedRequest = {
          method,
          path,
          headers,
          body: pending.subarray(headEnd + 4, bodyEnd).toString('utf8'),
          onConnection: onConnection++,
          generationIndex: isGeneration ? generations++ : -1,
        };
        pending = pending.subarray(bodyEnd);
        requests.push(request);
        if (isGeneration || options.allRequests) generate(request, socket);
        else socket.write(httpResponse(200, auxiliaryBody(path)));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    generationRequests: () => requests.filter((request) => request.generationIndex >= 0),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function auxiliaryBody(path: string): string {
  if (path === '/v1/models') return JSON.stringify({ object: 'list', data: [{ id: MODEL, object: 'model' }] });
  return path === '/get_server_info' ? JSON.stringify({ internal_states: [{}] }) : '';
}

const REASONS: Record<number, string> = { 200: 'OK', 429: 'Too Many Requests', 500: 'Internal Server Error' };

/** A whole response with a Content-Length body; keep-alive unless `connectionClose`. */
function httpResponse(status: number, body: string, connectionClose = false): string {
  const close = connectionClose ? 'Connection: close\r\n' : '';
  return `HTTP/1.1 ${status} ${REASONS[status]}\r\nContent-Type: text/event-stream\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${close}\r\n${body}`;
}

/** The native /generate stream of `tokens` tokens and its `[DONE]`. */
function nativeStream(tokens: number): string {
  let cumulative = '';
  let body = '';
  for (let index = 0; index < tokens; index++) {
    cumulative += ' hi';
    body += tokenChunk('native', MODEL, { index, text: ' hi', cumulative, reasoning: false });
  }
  return body + streamEpilogue('native', tokens);
}

/** Bench flags of a small random run against `url` (a stream of OUTPUT_TOKENS per request). */
function benchArgs(url: string, file: string, numPrompts: number, extra: readonly string[] = []): string[] {
  return [
    'bench', '--backend', 'sglang', '--base-url', url, '--dataset-name', 'random', '--random-input-len', '8',
    '--random-output-len', String(OUTPUT_TOKENS), '--random-range-ratio', '1', '--num-prompts', String(numPrompts),
    '--output-file', file, '--output-details', '--workers', '1', ...extra,
  ];
}

interface ResultRecord {
  completed: number;
  ttfts: number[];
  total_output_tokens: number;
  errors: string[];
  servebench: { failures_by_cause: Record<string, number>; resent_requests?: number };
}

function readRecord(path: string): ResultRecord {
  const lines = readFileSync(path, 'utf8').trim().split('\n');
  // The record is Python json.dumps output; Infinity/NaN tokens are valid only for Python.
  return JSON.parse(lines.at(-1)!.replace(/\bInfinity\b/g, '1e999').replace(/\bNaN\b/g, 'null')) as ResultRecord;
}

/** Every file under `dir` as latin1 text (a SQLite catalog stores strings as they are). */
function filesText(dir: string): string {
  return readdirSync(dir).map((name) => readFileSync(join(dir, name), 'latin1')).join('\n');
}

function output(result: CliResult): string {
  return `${result.stdout}${result.stderr}`;
}

describe('credentials', () => {
  const PASSWORD = 'pw-SECRET-1';
  const HEADER_SECRET = 'hdr-SECRET-2';
  const ENV_KEY = 'sk-SECRET-3';
  // Both --header forms; the values hold ':' and '=' (they must reach the server whole).
  const HEADERS = [`X-Colon-Form: ${HEADER_SECRET}:a=b`, `X-Equals-Form=${HEADER_SECRET}=c:d`];

  function assertCustomHeaders(request: ReceivedRequest): void {
    const where = `${request.method} ${request.path}`;
    assert.equal(request.headers['x-colon-form'], `${HEADER_SECRET}:a=b`, where);
    assert.equal(request.headers['x-equals-form'], `${HEADER_SECRET}=c:d`, where);
  }

  test('URL userinfo goes out as Basic auth and --header on every request; neither is printed or stored', async () => {
    const server = await startFaultServer((_request, socket) => socket.write(httpResponse(200, nativeStream(OUTPUT_TOKENS))));
    const catalogDir = mkdtempSync(join(workDir, 'catalog-'));
    try {
      const file = outputFile();
      const url = `http://user:${PASSWORD}@127.0.0.1:${server.port}`;
      const profileDir = mkdtempSync(join(workDir, 'profile-'));
      const result = await runCli([
        ...benchArgs(url, file, 2, ['--header', ...HEADERS]),
        '--flush-cache', '--profile', '--profile-output-dir', profileDir, '--db', join(catalogDir, 'catalog.db'),
      ]);
      assert.equal(result.code, 0, result.stderr);
      // Without --model the run starts by asking /v1/models: the list of calls is the full set.
      const calls = new Set(server.requests.map((request) => `${request.method} ${request.path}`));
      assert.deepEqual([...calls].sort(), [
        'GET /get_server_info', 'GET /metrics', 'GET /v1/models', 'POST /flush_cache', 'POST /generate', 'POST /start_profile', 'POST /stop_profile',
      ]);
      const basic = `Basic ${Buffer.from(`user:${PASSWORD}`).toString('base64')}`;
      for (const request of server.requests) {
        assert.equal(request.headers.authorization, basic, `${request.method} ${request.path}`);
        assertCustomHeaders(request);
      }
      assert.match(result.stdout, /base_url='http:\/\/user:<redacted>@127\.0\.0\.1:\d+'/);
      assert.match(result.stdout, /header=\['X-Colon-Form: <redacted>', 'X-Equals-Form=<redacted>'\]/);
      const runId = /Run (\S+) recorded in /.exec(result.stderr)?.[1];
      assert.ok(runId, result.stderr);
      const shown = await runCli(['show', runId, '--db', join(catalogDir, 'catalog.db')]);
      assert.equal(shown.code, 0, shown.stderr);
      for (const text of [output(result), readFileSync(file, 'utf8'), filesText(catalogDir), output(shown)]) {
        assert.equal(text.includes(PASSWORD), false);
        assert.equal(text.includes(HEADER_SECRET), false);
      }
    } finally {
      await server.close();
    }
  });

  test("OPENAI_API_KEY goes where bench_serving sends it; --header goes everywhere, the profiler included", async () => {
    const server = await startFaultServer((_request, socket) => socket.write(httpResponse(200, nativeStream(OUTPUT_TOKENS))));
    try {
      const file = outputFile();
      const profileDir = mkdtempSync(join(workDir, 'profile-'));
      const result = await runCli(
        [
          ...benchArgs(server.url, file, 2, ['--header', ...HEADERS]),
          '--model', MODEL, '--flush-cache', '--profile', '--profile-output-dir', profileDir, '--no-catalog',
        ],
        { env: { OPENAI_API_KEY: ENV_KEY } },
      );
      assert.equal(result.code, 0, result.stderr);
      for (const request of server.requests) {
        const profiler = request.path.endsWith('_profile');
        assert.equal(request.headers.authorization, profiler ? undefined : `Bearer ${ENV_KEY}`, `${request.method} ${request.path}`);
        assertCustomHeaders(request);
      }
      assert.ok(server.requests.some((request) => request.path === '/stop_profile'));
      for (const text of [output(result), readFileSync(file, 'utf8')]) {
        assert.equal(text.includes(ENV_KEY), false);
        assert.equal(text.includes(HEADER_SECRET), false);
      }
    } finally {
      await server.close();
    }
  });
});

describe('keep-alive closes', () => {
  const REQUESTS = 6;
  /** One at a time, so each request finds the previous one's connection idle in the pool. */
  const SEQUENTIAL = ['--model', MODEL, '--max-concurrency', '1', '--warmup-requests', '1', '--disable-tqdm', '--no-catalog'];

  test('a server that drops each connection after one response, without saying so: every resend is counted', async () => {
    // The close meets the client's next request on that connection: the keep-alive race such a
    // server loses now and then, lost here every time. The server has read that request.
    const server = await startFaultServer((request, socket) => {
      if (request.onConnection === 0) socket.write(httpResponse(200, nativeStream(OUTPUT_TOKENS)));
      else socket.destroy();
    });
    try {
      const file = outputFile();
      const result = await runCli(benchArgs(server.url, file, REQUESTS, SEQUENTIAL));
      assert.equal(result.code, 0, result.stderr);
      const record = readRecord(file);
      assert.equal(record.completed, REQUESTS);
      // Warmup on a fresh connection, the first measured request on the warm pool's fresh one; each
      // later request first on the previous one's connection, then resent.
      assert.equal(server.generationRequests().length, 2 + 2 * (REQUESTS - 1));
      assert.equal(record.servebench.resent_requests, REQUESTS - 1);
      assert.match(result.stdout, new RegExp(`Resent requests \\(keep-alive closed\\): {5}${REQUESTS - 1} `));
    } finally {
      await server.close();
    }
  });

  test('the warmup sent twice (model discovery left the connection the server then dropped): said on stderr', async () => {
    const server = await startFaultServer((request, socket) => {
      if (request.onConnection === 0) socket.write(httpResponse(200, nativeStream(OUTPUT_TOKENS)));
      else socket.destroy();
    });
    try {
      // No --model: GET /v1/models opens the connection the warmup then reuses.
      const result = await runCli(benchArgs(server.url, outputFile(), 1, ['--max-concurrency', '1', '--warmup-requests', '1', '--disable-tqdm', '--no-catalog']));
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stderr, /^warmup: 1 of 1 requests went out twice: the server closed a reused keep-alive connection without answering/m);
    } finally {
      await server.close();
    }
  });

  test('a server that announces Connection: close: no request is sent twice', async () => {
    const server = await startFaultServer((_request, socket) => {
      socket.end(httpResponse(200, nativeStream(OUTPUT_TOKENS), true));
    });
    try {
      const file = outputFile();
      const result = await runCli(benchArgs(server.url, file, REQUESTS, SEQUENTIAL));
      assert.equal(result.code, 0, result.stderr);
      const record = readRecord(file);
      assert.equal(record.completed, REQUESTS);
      assert.equal(server.generationRequests().length, 1 + REQUESTS);
      assert.ok(server.generationRequests().every((request) => request.onConnection === 0));
      assert.equal(record.servebench.resent_requests, undefined);
      assert.doesNotMatch(result.stdout, /Resent requests/);
    } finally {
      await server.close();
    }
  });
});

describe('failures by cause', () => {
  const QUIET = ['--model', MODEL, '--warmup-requests', '0', '--disable-tqdm', '--no-catalog'];

  test('empty 200s (no body, or a stream without a token) fail as empty_response and credit no tokens', async () => {
    const server = await startFaultServer((request, socket) => {
      const kind = request.generationIndex % 3;
      if (kind === 0) socket.write(httpResponse(200, ''));
      else if (kind === 1) socket.write(httpResponse(200, streamEpilogue('native', 0)));
      else socket.write(httpResponse(200, nativeStream(OUTPUT_TOKENS)));
    });
    try {
      const file = outputFile();
      const result = await runCli(benchArgs(server.url, file, 6, QUIET));
      assert.equal(result.code, 0, result.stderr);
      const record = readRecord(file);
      assert.equal(record.completed, 2);
      assert.equal(record.total_output_tokens, 2 * OUTPUT_TOKENS);
      assert.deepEqual(record.servebench.failures_by_cause, { empty_response: 4 });
      assert.deepEqual(record.errors.filter((error) => error !== '').sort(), [
        'empty response: HTTP 200 with no body',
        'empty response: HTTP 200 with no body',
        'empty response: HTTP 200 without a token',
        'empty response: HTTP 200 without a token',
      ]);
      assert.match(result.stdout, /^ {2}empty_response: {24}4 /m);
    } finally {
      await server.close();
    }
  });

  test('half 429, half 500: counted apart', async () => {
    const server = await startFaultServer((request, socket) => {
      socket.write(request.generationIndex % 2 === 0 ? httpResponse(429, 'slow down') : httpResponse(500, 'boom'));
    });
    try {
      const file = outputFile();
      const result = await runCli(benchArgs(server.url, file, 6, QUIET));
      assert.equal(result.code, 1);
      assert.deepEqual(readRecord(file).servebench.failures_by_cause, { http_429: 3, http_5xx: 3 });
      assert.match(result.stdout, /^ {2}http_429: {30}3 +\n {2}http_5xx: {30}3 /m);
    } finally {
      await server.close();
    }
  });
});

describe('stalls', () => {
  // With one thread the bar asks the pool; with two, the workers report their silence to it.
  for (const workers of ['1', '2']) {
    test(`a stream that stops after 3 tokens shows on the progress line, then fails as stalled (--workers ${workers})`, async () => {
      const server = await startFaultServer((_request, socket) => {
        const head = 'HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n';
        const tokens = nativeStream(3).replace(streamEpilogue('native', 3), '');
        socket.write(`${head}${tokens.length.toString(16)}\r\n${tokens}\r\n`);
      });
      try {
        const file = outputFile();
        // Silence shows from half the timeout (3 s), a worker's report and the bar's check each at
        // most a second late; the stall fails at 6 s.
        const result = await runCli(
          benchArgs(server.url, file, 1, ['--model', MODEL, '--warmup-requests', '0', '--stream-idle-timeout', '6', '--no-catalog', '--workers', workers]),
        );
        assert.equal(result.code, 1);
        assert.match(result.stderr, /A request that receives no byte for 6 s fails as stalled \(--stream-idle-timeout\)/);
        assert.match(result.stderr, /\| 0\/1 \[[^\]]*\] no bytes for [345] s on 1 stream\n/);
        assert.match(result.stderr, /\| 1\/1 \[[^\]]*\]\n/, 'the closing line reports no silence');
        assert.deepEqual(readRecord(file).servebench.failures_by_cause, { stalled: 1 });
      } finally {
        await server.close();
      }
    });
  }
});

describe('connections', () => {
  test('a server that reads each new connection 400 ms late: every request completes; the wait is in TTFT only with --lazy-connect', async () => {
    const ACCEPT_DELAY_MS = 400;
    const REQUESTS = 3;
    const server = await startFaultServer((_request, socket) => socket.write(httpResponse(200, nativeStream(OUTPUT_TOKENS))), {
      acceptDelayMs: ACCEPT_DELAY_MS,
    });
    const waitedTtfts = async (extra: readonly string[]): Promise<number[]> => {
      const file = outputFile();
      const result = await runCli(benchArgs(server.url, file, REQUESTS, ['--model', MODEL, '--no-catalog', ...extra]));
      assert.equal(result.code, 0, result.stderr);
      const record = readRecord(file);
      assert.equal(record.completed, REQUESTS);
      assert.deepEqual(record.servebench.failures_by_cause, {});
      return record.ttfts.filter((ttft) => ttft >= ACCEPT_DELAY_MS / 1000);
    };
    try {
      // All three at once: the warm pool opened their connections before the measured phase.
      assert.deepEqual(await waitedTtfts([]), []);
      // Lazily: the warmup's connection serves one (maybe two, when the first is answered before the
      // last is sent); the others open connections of their own and wait.
      const waited = await waitedTtfts(['--lazy-connect']);
      assert.ok(waited.length >= 1, 'a request that opened its own connection waited in its TTFT');
    } finally {
      await server.close();
    }
  });

  test('a server that refuses every connection: one line naming the cause, exit 1, no stack trace', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    for (const extra of [['--model', MODEL], []]) {
      const result = await runCli(benchArgs(`http://127.0.0.1:${port}`, outputFile(), 2, ['--no-catalog', ...extra]));
      assert.equal(result.code, 1, output(result));
      assert.match(output(result), /ECONNREFUSED/);
      assert.doesNotMatch(output(result), /^\s+at /m);
    }
  });
});
