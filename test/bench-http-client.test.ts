/**
 * The hand-written HTTP/1.1 client against loopback servers: keep-alive reuse, the retry of a
 * request that met a server-side close on a reused connection, pooled connections that went stale,
 * raw wire formats (chunk extensions, trailers, close-delimited bodies, malformed framing), and
 * https with a self-signed certificate made in the test (skipped without openssl).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createTcpServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { getJson } from '../src/bench/transport/auxiliary.js';
import { nowSeconds } from '../src/bench/transport/clock.js';
import { AbortedError, ConnectionClosedError, MalformedResponseError, StalledError } from '../src/bench/transport/errors.js';
import { exchange, type ExchangeOutcome } from '../src/bench/transport/exchange.js';
import { HttpPool, POOL_IDLE_SECONDS } from '../src/bench/transport/http-pool.js';
import { toWire, type SentRequest } from '../src/bench/transport/round-trip.js';

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * A raw TCP server: `respond` gets the connection's number (from 1) and the request's number on
 * it, and writes whatever it likes.
 */
async function rawServer(
  respond: (socket: Socket, requestOnConnection: number, connection: number) => void,
): Promise<{ url: string; connections: () => number; close(): void }> {
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    const connection = sockets.size;
    let requests = 0;
    let head = '';
    socket.on('data', (data) => {
      head += data.toString('latin1');
      // Requests here are small: one per `\r\n\r\n` plus its Content-Length body.
      for (let end = head.indexOf('\r\n\r\n'); end !== -1; end = head.indexOf('\r\n\r\n')) {
        const length = Number(/content-length: (\d+)/i.exec(head.slice(0, end))?.[1] ?? 0);
        if (head.length < end + 4 + length) return;
        head = head.slice(end + 4 + length);
        respond(socket, ++requests, connection);
      }
    });
    socket.on('error', () => {});
  });
  const address = await listen(server);
  return {
    url: `http://${address}`,
    connections: () => sockets.size,
    close() {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

const TIMING = { dueAt: 0, startAt: 'write' } as const;

function post(pool: HttpPool, url: string, lines?: string[]): Promise<ExchangeOutcome> {
  const wire = toWire(pool, { method: 'POST', url, headers: { 'Content-Type': 'application/json' }, body: '{}' });
  return exchange(
    pool,
    lines ? { wire, onSent: () => {}, onLine: (line) => lines.push(line) } : { wire, onSent: () => {}, onBody: () => {} },
    { ...TIMING, dueAt: nowSeconds() },
  );
}

const OK_RESPONSE = 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}';

test('keep-alive: sequential requests share one connection', async () => {
  const server = await rawServer((socket) => socket.write(OK_RESPONSE));
  const pool = new HttpPool({ streamIdleTimeout: 0 });
  try {
    for (let i = 0; i < 3; i++) assert.deepEqual(await post(pool, `${server.url}/x`), { ok: true, resent: false, stampLatenessBound: null });
    assert.equal(server.connections(), 1);
  } finally {
    await pool.close();
    server.close();
  }
});

test('warm pool: connections opened before they are needed carry the requests; a refusing server stops it with its error', async () => {
  const server = await rawServer((socket) => socket.write(OK_RESPONSE));
  const pool = new HttpPool({ streamIdleTimeout: 0 });
  try {
    assert.deepEqual(await pool.prewarm(`${server.url}/x`, 5), { opened: 5, error: null });
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => post(pool, `${server.url}/x`)));
    assert.ok(outcomes.every((outcome) => outcome.ok && !outcome.resent));
    assert.equal(server.connections(), 5, 'no request opened a connection of its own');
  } finally {
    await pool.close();
    server.close();
  }
  const closed = createTcpServer();
  const address = await listen(closed);
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  const refused = new HttpPool({ streamIdleTimeout: 0 });
  const outcome = await refused.prewarm(`http://${address}/x`, 3);
  assert.equal(outcome.opened, 0);
  assert.match(String(outcome.error?.message), /ECONNREFUSED/);
  await refused.close();
});

test("a request's start is its bytes out; with startAt 'connect' a request that opens its connection starts at the attempt", async () => {
  const server = await rawServer((socket) => socket.write(OK_RESPONSE));
  const pool = new HttpPool({ streamIdleTimeout: 0 });
  const sendOnce = async (startAt: 'write' | 'connect'): Promise<SentRequest> => {
    let sent: SentRequest | null = null;
    const wire = toWire(pool, { method: 'POST', url: `${server.url}/x`, headers: {}, body: '{}' });
    const dueAt = nowSeconds();
    const outcome = await exchange(pool, { wire, onSent: (s) => (sent = s), onBody: () => {} }, { dueAt, startAt });
    assert.ok(outcome.ok);
    assert.ok(sent!.start >= dueAt);
    return sent!;
  };
  try {
    const fresh = await sendOnce('connect');
    assert.ok(fresh.phases.connect > 0, 'it opened its own connection');
    assert.ok(fresh.phases.write >= 0);
    const pooled = await sendOnce('connect');
    assert.equal(pooled.phases.connect, 0, 'on an open connection nothing is connected');
    await pool.close();
    const writeStamped = await sendOnce('write');
    assert.ok(writeStamped.phases.connect > 0);
    assert.equal(server.connections(), 2);
  } finally {
    await pool.close();
    server.close();
  }
});

test('a reused connection the server closed as the request went out: retried once on a new one', async () => {
  // The second request on any connection finds it closed (the keep-alive race), unanswered.
  const server = await rawServer((socket, n) => (n === 1 ? socket.write(OK_RESPONSE) : socket.destroy()));
  const pool = new HttpPool({ streamIdleTimeout: 0 });
  try {
    assert.deepEqual(await post(pool, `${server.url}/x`), { ok: true, resent: false, stampLatenessBound: null });
    assert.deepEqual(await post(pool, `${server.url}/x`), { ok: true, resent: true, stampLatenessBound: null }, 'the resend is reported');
    assert.equal(server.connections(), 2);
  } finally {
    await pool.close();
    server.close();
  }
});

test('no retry on a new connection, nor once a response byte arrived', async () => {
  const refused = await rawServer((socket) => socket.destroy());
  const partial = await rawServer((socket, n) =>
    n === 1 ? socket.write(OK_RESPONSE) : socket.end('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\ndata:'),
  );
  const pool = new HttpPool({ streamIdleTimeout: 0 });
  try {
    const fresh = await post(pool, `${refused.url}/x`);
    assert.equal(fresh.ok, false);
    assert.ok(!fresh.ok && fresh.error instanceof ConnectionClosedError);
    assert.equal(refused.connections(), 1);

    assert.deepEqual(await post(pool, `${partial.url}/x`), { ok: true, resent: false, stampLatenessBound: null });
    const cut = await post(pool, `${partial.url}/x`, []);
    assert.ok(!cut.ok && cut.error instanceof ConnectionClosedError);
    assert.match(cut.error.message, /before the response ended/);
    assert.equal(partial.connections(), 1);
  } finally {
    await pool.close();
    refused.close();
    partial.close();
  }
});

test('an idle connection the server closed is dropped; one idle too long is not reused', async () => {
  const server = createServer((_req, res) => res.end('{}'));
  const url = `http://${await listen(server)}`;
  const pool = new HttpPool({ streamIdleTimeout: 0 });
  try {
    assert.deepEqual(await post(pool, `${url}/x`), { ok: true, resent: false, stampLatenessBound: null });
    server.closeIdleConnections(); // as its keep-alive timeout would
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(await post(pool, `${url}/x`), { ok: true, resent: false, stampLatenessBound: null });

    const target = pool.target(`${url}/x`);
    const reused = pool.acquire(target, nowSeconds());
    assert.equal(reused.responsesServed, 1, 'the fresh idle connection is reused');
    pool.release(reused, nowSeconds());
    const later = pool.acquire(target, nowSeconds() + POOL_IDLE_SECONDS + 1);
    assert.equal(later.responsesServed, 0, 'a connection idle for longer than the limit is replaced');
    later.destroy();
  } finally {
    await pool.close();
    server.closeAllConnections();
    server.close();
  }
});

test('a raw chunked stream with extensions and trailers, written a few bytes at a time', async () => {
  const wire =
    'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n' +
    '9;ext=1\r\ndata: {"a\r\n' +
    '7\r\n":1}\n\nd\r\n' +
    '0\r\nX-Done: yes\r\n\r\n';
  const server = await rawServer((socket) => {
    let at = 0;
    const step = (): void => {
      socket.write(wire.slice(at, at + 3));
      at += 3;
      if (at < wire.length) setTimeout(step, 1);
    };
    step();
  });
  const pool = new HttpPool({ streamIdleTimeout: 0 });
  try {
    const lines: string[] = [];
    assert.deepEqual(await post(pool, `${server.url}/x`, lines), { ok: true, resent: false, stampLatenessBound: null });
    assert.deepEqual(lines, ['data: {"a":1}', '', 'd']);
    assert.deepEqual(await post(pool, `${server.url}/x`, []), { ok: true, resent: false, stampLatenessBound: null });
    assert.equal(server.connections(), 1, 'reused after the trailers');
  } finally {
    await pool.close();
    server.close();
  }
});

test('HTTP/1.0 body until close; malformed framing fails as malformed_chunk and is not reused', async () => {
  const server = await rawServer((socket, _n, connection) => {
    if (connection === 1) socket.end('HTTP/1.0 200 OK\r\n\r\n{"whole":"body"}');
    else socket.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nnothex\r\n');
  });
  const pool = new HttpPool({ streamIdleTimeout: 0 });
  try {
    let body = '';
    const onBody = (text: string): void => {
      body = text;
    };
    const wire = toWire(pool, { method: 'POST', url: `${server.url}/x`, headers: {}, body: '{}' });
    const whole = await exchange(pool, { wire, onSent: () => {}, onBody }, { ...TIMING, dueAt: nowSeconds() });
    assert.deepEqual(whole, { ok: true, resent: false, stampLatenessBound: null });
    assert.equal(body, '{"whole":"body"}');
    const malformed = await post(pool, `${server.url}/x`, []);
    assert.ok(!malformed.ok && malformed.error instanceof MalformedResponseError);
    assert.match(malformed.error.message, /malformed HTTP response: invalid chunk size line/);
    await post(pool, `${server.url}/x`, []);
    assert.equal(server.connections(), 3, 'neither the closed nor the malformed connection was reused');
  } finally {
    await pool.close();
    server.close();
  }
});

test('a stall fails the transfer and frees its connection; after abortAll only auxiliary calls go out', async () => {
  // The first connection gets a head and one line, then nothing.
  const server = await rawServer((socket, _n, connection) =>
    connection === 1 ? socket.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n6\r\ndata:\n\r\n') : socket.write(OK_RESPONSE),
  );
  const pool = new HttpPool({ streamIdleTimeout: 0.05 });
  try {
    const lines: string[] = [];
    const stalled = await post(pool, `${server.url}/x`, lines);
    assert.ok(!stalled.ok && stalled.error instanceof StalledError);
    assert.deepEqual(lines, ['data:']);
    assert.equal(pool.inFlight, 0);

    pool.abortAll('aborted: test');
    const refused = await post(pool, `${server.url}/x`, []);
    assert.ok(!refused.ok && refused.error instanceof AbortedError);
    assert.equal(server.connections(), 1, 'an aborted request opens no connection');
    assert.equal((await getJson(pool, `${server.url}/get_server_info`, {})).status, 200);
  } finally {
    await pool.close();
    server.close();
  }
});

test('https: the same client over TLS (self-signed certificate made here)', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'servebench-tls-'));
  try {
    const made = spawnSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost']
        .concat(['-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')]),
      { stdio: 'ignore' },
    );
    if (made.status !== 0) {
      t.skip('openssl is not available to make a certificate');
      return;
    }
    const tlsFiles = { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
    const server = createHttpsServer(tlsFiles, (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.write('data: {"n":1}\n\n');
      setTimeout(() => res.end('data: [DONE]\n\n'), 5);
    });
    const url = `https://localhost:${(await listen(server)).split(':')[1]}`;
    const pool = new HttpPool({ streamIdleTimeout: 0 });
    // The certificate is nobody's: verification is what this process's trust store says.
    const previous = process.env.NODE_TLS_REJECT_UNAUTHORIZED;
    process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
    try {
      const lines: string[] = [];
      assert.deepEqual(await post(pool, `${url}/generate`, lines), { ok: true, resent: false, stampLatenessBound: null });
      assert.deepEqual(lines, ['data: {"n":1}', '', 'data: [DONE]', '']);
      const models = await getJson(pool, `${url}/v1/models`, {});
      assert.equal(models.status, 200);
    } finally {
      if (previous === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
      else process.env.NODE_TLS_REJECT_UNAUTHORIZED = previous;
      await pool.close();
      server.closeAllConnections();
      server.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
