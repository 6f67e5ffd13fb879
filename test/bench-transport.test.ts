/**
 * The request path against a loopback server, without the CLI: every backend's wire format, the
 * failure causes (HTTP status, refused connection, stall, malformed chunk, abort) and the pool.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { backendAdapter } from '../src/bench/backends/index.js';
import type { BackendName } from '../src/bench/args/types.js';
import { sendRequest, type SendContext } from '../src/bench/runner/send-request.js';
import { fetchRouterWorkersInfo, fetchServerInfo, getJson, postForStatus } from '../src/bench/transport/auxiliary.js';
import { HttpPool } from '../src/bench/transport/http-pool.js';
import type { RequestInput } from '../src/bench/types.js';
import { startStreamServer, type StreamServer } from './helpers/stream-server.js';

const PATHS: Record<string, string> = {
  sglang: '/generate',
  'sglang-oai': '/v1/completions',
  'sglang-oai-chat': '/v1/chat/completions',
  trt: '/v2/models/ensemble/generate_stream',
  truss: '/v1/models/model:predict',
};

function context(pool: HttpPool, backend: BackendName, disableStream = false): SendContext {
  return {
    pool,
    adapter: backendAdapter(backend),
    headers: { withAuth: { Authorization: 'Bearer secret' }, withoutAuth: {} },
    payloadOptions: { disableStream, disableIgnoreEos: false, returnLogprob: false, returnRoutedExperts: false },
    startAt: 'write',
  };
}

function input(url: string, outputLen = 6): RequestInput {
  return { prompt: 'hello', apiUrl: url, promptLen: 1, outputLen, model: 'test-model', loraName: null, imageData: null, extraRequestBody: {}, routingKey: 'rk' };
}

describe('requests against the loopback server', () => {
  let server: StreamServer;
  let pool: HttpPool;
  before(async () => {
    server = await startStreamServer({ firstTokenDelayMs: 15, intervalMs: 4, reasoningTokens: 2 });
    pool = new HttpPool({ streamIdleTimeout: 0 });
  });
  after(async () => {
    await pool.close();
    await server.close();
  });

  for (const backend of Object.keys(PATHS) as BackendName[]) {
    test(`${backend}: timing matches the server's writes`, async () => {
      // Like the CLI's warmup: the first requests pay one-time code compilation.
      for (let i = 0; i < 2; i++) await sendRequest(context(pool, backend), input(server.url + PATHS[backend], 2));
      const from = server.requests.length;
      const output = await sendRequest(context(pool, backend), input(server.url + PATHS[backend]));
      assert.equal(output.success, true, output.error);
      // Same process as the server: a wire-format check, not a precision one (the CLI tests are).
      const served = server.requests[from]!;
      const writes = served.tokenWrites.filter((t) => t >= served.firstContentWrite!);
      const truthTtft = served.firstContentWrite! - served.receivedAt;
      assert.ok(output.ttft * 1000 >= truthTtft - 0.1 && output.ttft * 1000 < truthTtft + 15, `ttft ${output.ttft * 1000} vs ${truthTtft}`);
      assert.equal(output.itl.length, writes.length - 1);
      const span = output.itl.reduce((a, b) => a + b, 0) * 1000;
      const truthSpan = writes.at(-1)! - writes[0]!;
      assert.ok(Math.abs(span - truthSpan) < 15, `token span ${span} vs ${truthSpan}`);
      if (backend === 'trt') assert.equal(served.headers.authorization, undefined);
      else {
        assert.equal(served.headers.authorization, 'Bearer secret');
        assert.equal(served.headers['x-smg-routing-key'], 'rk');
      }
      if (backend === 'sglang-oai-chat') {
        assert.ok(output.firstReasoningTtft! < output.ttft);
        assert.equal(output.outputLen, 6);
      }
    });
  }

  test('non-stream: one arrival at the end', async () => {
    const output = await sendRequest(context(pool, 'sglang', true), input(server.url + '/generate', 3));
    assert.equal(output.success, true, output.error);
    assert.equal(output.itl.length, 0);
    assert.equal(output.outputLen, 3);
    assert.ok(Math.abs(output.ttft - output.latency) < 1e-9);
  });

  test('auxiliary calls: models, server info, POST status, 404 and refused connection', async () => {
    const models = await getJson(pool, server.url + '/v1/models', {});
    assert.equal((models.body as { data: Array<{ id: string }> }).data[0]!.id, 'test-model');
    assert.deepEqual(await fetchServerInfo(pool, server.url, {}), { version: 'test', internal_states: [{}] });
    assert.equal(await fetchServerInfo(pool, 'http://127.0.0.1:1', {}), null);
    assert.equal((await postForStatus(pool, server.url + '/flush_cache', {})).ok, true);
    assert.match((await postForStatus(pool, server.url + '/nope', {})).error, /Not Found/);
  });

  test('refused connection fails with cause "connection"', async () => {
    const output = await sendRequest(context(pool, 'sglang'), input('http://127.0.0.1:1/generate'));
    assert.equal(output.success, false);
    assert.equal(output.failureCause, 'connection');
    assert.match(output.error, /refused/);
  });

  test('abortAll fails in-flight requests with cause "aborted"', async () => {
    const pending = sendRequest(context(pool, 'sglang-oai'), input(server.url + '/v1/completions', 200));
    setTimeout(() => pool.abortAll('aborted: test'), 30);
    const output = await pending;
    assert.equal(output.failureCause, 'aborted');
    assert.ok(output.ttft > 0, 'what was measured before the abort is kept');
  });
});

describe('failing servers', () => {
  test('HTTP status: the reference error text "<reason>: <body>"', async () => {
    const server = await startStreamServer({ failStatus: 500 });
    const pool = new HttpPool({ streamIdleTimeout: 0 });
    try {
      const output = await sendRequest(context(pool, 'sglang'), input(server.url + '/generate'));
      assert.equal(output.failureCause, 'http_5xx');
      assert.equal(output.error, 'Internal Server Error: simulated failure');
    } finally {
      await pool.close();
      await server.close();
    }
  });

  test('a stream without bytes for the idle timeout fails as stalled', async () => {
    const server = await startStreamServer({ stallAfterRequests: 0, firstTokenDelayMs: 5 });
    const pool = new HttpPool({ streamIdleTimeout: 0.1 });
    try {
      const output = await sendRequest(context(pool, 'sglang-oai-chat'), input(server.url + '/v1/chat/completions'));
      assert.equal(output.failureCause, 'stalled');
      assert.match(output.error, /stalled/);
    } finally {
      await pool.close();
      await server.close();
    }
  });

  test('a chunk that is not JSON fails the request as "malformed_chunk"; a dropped connection as "reset"', async () => {
    const server = createServer((req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      if (req.url === '/v1/completions') res.end('data: {"choices":[{"text":"a"}]}\n\ndata: {oops\n\n');
      else {
        res.write('data: {"choices":[{"text":"a"}]}\n\n');
        setTimeout(() => res.socket?.destroy(), 20);
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const pool = new HttpPool({ streamIdleTimeout: 0 });
    try {
      const malformed = await sendRequest(context(pool, 'sglang-oai'), input(`${url}/v1/completions`));
      assert.equal(malformed.failureCause, 'malformed_chunk');
      assert.match(malformed.error, /not JSON\): \{oops/);
      const reset = await sendRequest(context(pool, 'sglang-oai'), input(`${url}/x/completions`));
      assert.equal(reset.failureCause, 'reset');
    } finally {
      await pool.close();
      server.closeAllConnections();
      server.close();
    }
  });
});

describe("a router's workers", () => {
  const PREFILL = { version: '0.5.2', disaggregation_mode: 'prefill', tp_size: 16 };
  const DECODE = { version: '0.5.2', disaggregation_mode: 'decode', tp_size: 16 };

  /**
   * One loopback server playing a router and the workers it lists under `/p` and `/d`: `answer`
   * is its own `/get_server_info`; `workersListed` false answers `/workers` 404 (a plain server).
   */
  async function withRouter(answer: object, workersListed: boolean, check: (url: string, pool: HttpPool, asked: string[]) => Promise<void>): Promise<void> {
    const asked: string[] = [];
    let url = '';
    const bodies: Record<string, object> = { '/get_server_info': answer, '/p/get_server_info': PREFILL, '/d/get_server_info': DECODE };
    const server = createServer((req, res) => {
      asked.push(req.url!);
      const body = req.url === '/workers' && workersListed
        ? { workers: [{ url: `${url}/p`, worker_type: 'prefill' }, { url: `${url}/d/`, worker_type: 'decode' }] }
        : bodies[req.url!];
      res.writeHead(body ? 200 : 404, { 'Content-Type': 'application/json' }).end(body ? JSON.stringify(body) : 'Not Found');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const pool = new HttpPool({ streamIdleTimeout: 0 });
    try {
      await check(url, pool, asked);
    } finally {
      await pool.close();
      server.closeAllConnections();
      server.close();
    }
  }

  const workersOf = async (url: string, pool: HttpPool) => fetchRouterWorkersInfo(pool, url, {}, await fetchServerInfo(pool, url, {}), JSON.parse);

  test("sglang-router 0.3's own counters: each worker's body is read at the URL /workers lists, by role", async () => {
    await withRouter({ router_manager: true, routers_count: 1, workers_count: 2 }, true, async (url, pool) => {
      assert.deepEqual(await workersOf(url, pool), { prefill: [PREFILL], decode: [DECODE], regular: [] });
    });
  });

  test("an older PD router's answer, its first prefill worker's body, is no deployment's either: the workers are read the same way", async () => {
    await withRouter(PREFILL, true, async (url, pool) => {
      assert.deepEqual(await workersOf(url, pool), { prefill: [PREFILL], decode: [DECODE], regular: [] });
    });
  });

  test('a server answering with its own plain body is not asked for workers; a PD body from a server listing none gives none', async () => {
    await withRouter({ version: '0.5.2', disaggregation_mode: 'null' }, true, async (url, pool, asked) => {
      assert.equal(await workersOf(url, pool), null);
      assert.deepEqual(asked, ['/get_server_info']);
    });
    await withRouter(PREFILL, false, async (url, pool, asked) => {
      assert.equal(await workersOf(url, pool), null);
      assert.deepEqual(asked, ['/get_server_info', '/workers']);
    });
  });
});
