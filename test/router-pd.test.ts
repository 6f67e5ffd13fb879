/**
 * The PD router over HTTP against small fake prefill and decode servers that record what they
 * receive: the injected bootstrap fields, that both halves are sent at once, prefill first in the
 * answer, the error mapping, retries with fresh rooms, circuit breaking and the router's endpoints.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { parseRouterArgs, startRouter, type RouterHandle } from '../src/router/index.js';

interface Received {
  path: string;
  body: string;
  headers: IncomingMessage['headers'];
}

type Answer = (received: Received, res: ServerResponse) => void | Promise<void>;

interface FakeWorker {
  url: string;
  received: Received[];
  answer: Answer;
  server: Server;
}

async function fakeWorker(answer: Answer): Promise<FakeWorker> {
  const worker = { received: [] as Received[], answer } as FakeWorker;
  worker.server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const received = { path: req.url ?? '', body: Buffer.concat(chunks).toString(), headers: req.headers };
    if (received.path === '/health') return void res.end('OK');
    if (received.path === '/get_server_info') return void res.end(JSON.stringify({ served_model_name: 'fake-model' }));
    worker.received.push(received);
    await worker.answer(received, res);
  });
  await new Promise<void>((resolve) => worker.server.listen(0, '127.0.0.1', resolve));
  worker.url = `http://127.0.0.1:${(worker.server.address() as AddressInfo).port}`;
  return worker;
}

const json = (res: ServerResponse, status: number, value: unknown): void => void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
const roomOf = (body: string): string => /"bootstrap_room":(\d+)/.exec(body)![1]!;

async function router(args: string[]): Promise<RouterHandle> {
  const config = parseRouterArgs(['--host', '127.0.0.1', '--port', '0', '--retry-initial-backoff-ms', '1', ...args])!;
  const handle = await startRouter(config);
  for (let i = 0; i < 100; i++) {
    if ((await request(`${handle.url}/readiness`)).statusCode === 200) return handle;
    await sleep(20);
  }
  throw new Error('router never became ready');
}

async function post(url: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await request(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: response.statusCode, headers: response.headers, text: await response.body.text() };
}

describe('servebench router in PD mode', () => {
  const closers: (() => Promise<unknown>)[] = [];
  after(() => Promise.all(closers.map((close) => close())));
  const track = <T extends { close: () => Promise<unknown> } | FakeWorker>(thing: T): T => {
    closers.push('server' in thing ? () => new Promise((resolve) => (thing.server.close(resolve), thing.server.closeAllConnections())) : thing.close);
    return thing;
  };

  test('both halves get the same body with the bootstrap fields, at once; the decode answer is the client\'s', async () => {
    let decodeArrived!: () => void;
    const bothSent = new Promise<void>((resolve) => (decodeArrived = resolve));
    // The prefill answers only once the decode request has arrived: a router sending them one after the other would hang here.
    const prefill = track(await fakeWorker(async (_received, res) => (await bothSent, json(res, 200, { text: 'p' }))));
    const decode = track(await fakeWorker((_received, res) => (decodeArrived(), json(res, 200, { text: 'decoded', meta_info: { id: 'x' } }))));
    const routerHandle = track(await router(['--pd-disaggregation', '--prefill', prefill.url, '8998', '--decode', decode.url]));
    const reply = await post(routerHandle.url, '/generate', { text: 'hello', sampling_params: { seed: 18446744073709551615n.toString() } }, { authorization: 'Bearer k', 'x-request-id': 'r1', 'x-other': 'no' });
    assert.equal(reply.status, 200);
    assert.deepEqual(JSON.parse(reply.text), { text: 'decoded', meta_info: { id: 'x' } });
    const [sentPrefill, sentDecode] = [prefill.received[0]!, decode.received[0]!];
    assert.equal(sentPrefill.body, sentDecode.body);
    assert.match(sentPrefill.body, /"bootstrap_host":"127\.0\.0\.1","bootstrap_port":8998,"bootstrap_room":\d+\}$/);
    assert.ok(BigInt(roomOf(sentPrefill.body)) <= 2n ** 63n - 1n);
    assert.equal(sentDecode.headers.authorization, 'Bearer k');
    assert.equal(sentDecode.headers['x-request-id'], 'r1');
    assert.equal(sentDecode.headers['x-other'], undefined);
  });

  test('a stream reaches the client only after the prefill body has ended, as an event stream', async () => {
    let prefillEndedAt = 0;
    const prefill = track(await fakeWorker(async (_received, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' }).write('data: {"text":"p"}\n\n');
      await sleep(150);
      prefillEndedAt = Date.now();
      res.end('data: [DONE]\n\n');
    }));
    const decode = track(await fakeWorker((_received, res) => void res.writeHead(200, { 'content-type': 'application/octet-stream' }).end('data: {"text":"d"}\n\ndata: [DONE]\n\n')));
    const routerHandle = track(await router(['--pd-disaggregation', '--prefill', prefill.url, '--decode', decode.url]));
    const response = await request(`${routerHandle.url}/generate`, { method: 'POST', body: JSON.stringify({ text: 'x', stream: true }) });
    const firstByteAt = Date.now();
    assert.equal(response.headers['content-type'], 'text/event-stream');
    assert.equal(await response.body.text(), 'data: {"text":"d"}\n\ndata: [DONE]\n\n');
    assert.ok(firstByteAt >= prefillEndedAt, 'decode bytes arrived before the prefill body ended');
    assert.match(decode.received[0]!.body, /"bootstrap_port":null/);
  });

  test('a retryable prefill refusal is retried on a fresh room; exhausted retries return the mapped error', async () => {
    let refusals = 1;
    const prefill = track(await fakeWorker((_received, res) => (refusals-- > 0 ? json(res, 503, { error: 'busy' }) : json(res, 200, {}))));
    const decode = track(await fakeWorker((_received, res) => json(res, 200, { text: 'ok' })));
    const routerHandle = track(await router(['--pd-disaggregation', '--prefill', prefill.url, '--decode', decode.url, '--cb-failure-threshold', '100']));
    assert.equal((await post(routerHandle.url, '/generate', { text: 'a' })).status, 200);
    assert.equal(prefill.received.length, 2);
    assert.notEqual(roomOf(prefill.received[0]!.body), roomOf(prefill.received[1]!.body));

    refusals = 100;
    const failed = await post(routerHandle.url, '/generate', { text: 'a' });
    assert.equal(failed.status, 503);
    assert.equal(failed.headers['x-smg-error-code'], 'prefill_unavailable');
    assert.deepEqual(JSON.parse(failed.text), { error: { type: 'Service Unavailable', code: 'prefill_unavailable', message: 'Prefill server error (503): {"error":"busy"}' } });
    assert.equal(prefill.received.length, 2 + 5);
  });

  test('a decode refusal of a stream is the one SSE error chunk with its status', async () => {
    const prefill = track(await fakeWorker((_received, res) => json(res, 200, {})));
    const decode = track(await fakeWorker((_received, res) => json(res, 500, { object: 'error', message: 'boom' })));
    const routerHandle = track(await router(['--pd-disaggregation', '--prefill', prefill.url, '--decode', decode.url, '--disable-retries']));
    const reply = await post(routerHandle.url, '/v1/completions', { prompt: 'x', stream: true });
    assert.equal(reply.status, 500);
    assert.equal(reply.headers['content-type'], 'text/event-stream');
    assert.equal(reply.text, 'data: {\'error\': {"message":{"object":"error","message":"boom"},"status":500}}');
    const plain = await post(routerHandle.url, '/v1/completions', { prompt: 'x' });
    assert.deepEqual(JSON.parse(plain.text).error, { type: 'Internal Server Error', code: 'decode_internal_error', message: 'Decode server error (500): boom' });
  });

  test('a failing prefill\'s circuit opens and its requests go to the other prefill', async () => {
    const broken = track(await fakeWorker((_received, res) => json(res, 500, { error: 'down' })));
    const good = track(await fakeWorker((_received, res) => json(res, 200, {})));
    const decode = track(await fakeWorker((_received, res) => json(res, 200, { text: 'ok' })));
    const routerHandle = track(await router(['--pd-disaggregation', '--prefill', broken.url, '--prefill', good.url, '--decode', decode.url, '--prefill-policy', 'round_robin', '--cb-failure-threshold', '1']));
    for (let i = 0; i < 4; i++) assert.equal((await post(routerHandle.url, '/generate', { text: 'a' })).status, 200);
    assert.equal(broken.received.length, 1);
    assert.equal(good.received.length, 4);
    const workers = JSON.parse(await (await request(`${routerHandle.url}/workers`)).body.text());
    assert.equal(workers.workers.find((worker: { url: string }) => worker.url === broken.url).circuit_state, 'open');
  });

  test('the router\'s own endpoints', async () => {
    const prefill = track(await fakeWorker((_received, res) => json(res, 200, {})));
    const decode = track(await fakeWorker((_received, res) => json(res, 200, {})));
    const routerHandle = track(await router(['--pd-disaggregation', '--prefill', prefill.url, '9000', '--decode', decode.url]));
    const get = async (path: string) => {
      const response = await request(`${routerHandle.url}${path}`);
      return { status: response.statusCode, text: await response.body.text() };
    };
    assert.deepEqual(await get('/health'), { status: 200, text: 'OK' });
    assert.deepEqual(JSON.parse((await get('/readiness')).text), { status: 'ready', healthy_workers: 2, total_workers: 2 });
    assert.deepEqual(JSON.parse((await get('/v1/models')).text), { object: 'list', data: [{ id: 'fake-model', object: 'model', owned_by: 'local' }] });
    assert.deepEqual(JSON.parse((await get('/get_server_info')).text), { router_manager: true, routers_count: 1, workers_count: 2 });
    const workers = JSON.parse((await get('/workers')).text);
    assert.deepEqual(workers.stats, { prefill_count: 1, decode_count: 1, regular_count: 0 });
    assert.equal(workers.workers[0].bootstrap_port, 9000);
    assert.equal((await post(routerHandle.url, '/v1/embeddings', { input: 'x' })).headers['x-smg-error-code'], 'pd_unsupported_embeddings');
    await post(routerHandle.url, '/generate', { text: 'a' });
    const metrics = (await get('/metrics')).text;
    assert.match(metrics, /^smg_http_requests_total\{method="GET",path="\/health"\} 1$/m);
    assert.match(metrics, /^smg_router_requests_total\{router_type="http",backend_type="pd",endpoint="\/generate",streaming="false"\} 1$/m);
    assert.match(metrics, new RegExp(`^smg_worker_health\\{worker="${prefill.url}"\\} 1$`, 'm'));
  });
});
