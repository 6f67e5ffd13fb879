/**
 * A prefill sim and a decode sim serving a PD router's requests (reference: SGLang's PD protocol):
 * the same body, with its bootstrap room, sent to both at once; the bootstrap server's routes; and
 * each failure SGLang reports (unreachable bootstrap, timeouts, a lost prefill) ending every request.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { request } from 'undici';
import { parseLaunchArgs } from '../src/deployment/flags/launch-flags.js';
import { kvSendSeconds, kvSendSide, kvTransferSeconds } from '../src/sim/model/kv-transfer.js';
import { resolveInstance } from '../src/sim/model/resolve-instance.js';
import { startSimServer, type SimServerHandle } from '../src/sim/server/sim-server.js';
import { get, post, type Reply } from './sim-server-helpers.js';
import { lostPrefillMessage, PD_PROMPT, routerBody } from './helpers/pd-requests.js';

const MODEL = ['--model-path', 'Qwen/Qwen3-8B', '--hardware', 'h100'];
const MAX_ROOM = '9223372036854775807';

function startInstance(mode: 'prefill' | 'decode', extra: string[] = []): Promise<SimServerHandle> {
  return startSimServer([...MODEL, '--disaggregation-mode', mode, ...extra], { port: 0, host: '127.0.0.1', quiet: true });
}

/** Sets environment variables for the sims started while a describe runs, and puts them back after. */
function withEnv(values: Record<string, string>): void {
  const saved = Object.fromEntries(Object.keys(values).map((key) => [key, process.env[key]]));
  before(() => Object.assign(process.env, values));
  after(() => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  });
}

/** POSTs and notes when it was sent and when the reply's first bytes came (ms on performance.now()). */
async function timedPost(url: string, body: string): Promise<Reply & { firstMs: number; startMs: number }> {
  const startMs = performance.now();
  const response = await request(`${url}/generate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  let firstMs = 0;
  let text = '';
  for await (const chunk of response.body) {
    if (firstMs === 0) firstMs = performance.now();
    text += chunk.toString();
  }
  const lines = text.split('\n').filter((l) => l.startsWith('data: ') && l !== 'data: [DONE]');
  const events = lines.map((l) => JSON.parse(l.slice(6)));
  return { status: response.statusCode, text, events, json: events.length === 0 ? JSON.parse(text) : null, firstMs, startMs };
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('PD: a prefill sim and a decode sim serve a router\'s requests', () => {
  let prefill: SimServerHandle;
  let decode: SimServerHandle;
  let bootstrap: string;
  before(async () => {
    prefill = await startInstance('prefill', ['--disaggregation-bootstrap-port', '0', '--enable-metrics']);
    // The decode's own bootstrap port is the prefill's, so a null bootstrap_port finds it.
    decode = await startInstance('decode', ['--disaggregation-bootstrap-port', String(prefill.bootstrapPort), '--dp-size', '2', '--enable-metrics']);
    bootstrap = `http://127.0.0.1:${prefill.bootstrapPort}`;
  });
  after(async () => {
    await decode.close();
    await prefill.close();
  });

  test("the bootstrap server answers SGLang's routes on --host and --disaggregation-bootstrap-port", async () => {
    assert.equal((await get(bootstrap, '/health')).text, 'OK');
    const layout = await get(bootstrap, '/route?prefill_dp_rank=-1&prefill_cp_rank=-1&target_tp_rank=-1&target_pp_rank=-1');
    assert.deepEqual(layout.json, { attn_tp_size: 1, attn_cp_size: 1, dp_size: 1, pp_size: 1, page_size: 1, kv_cache_dtype: 'auto', follow_bootstrap_room: true });
    const rank = await get(bootstrap, '/route?prefill_dp_rank=0&prefill_cp_rank=0&target_tp_rank=0&target_pp_rank=0');
    assert.deepEqual(rank.json, { rank_ip: '127.0.0.1', rank_port: prefill.bootstrapPort });
    assert.equal((await get(bootstrap, '/route?prefill_dp_rank=-1')).status, 400);
    assert.equal((await request(`${bootstrap}/route`, { method: 'DELETE' })).statusCode, 405);
    assert.equal((await post(bootstrap, '/register_dp_rank', `{"bootstrap_room":${MAX_ROOM},"dp_rank":0}`)).status, 200);
    const ranks = await post(bootstrap, '/query_dp_ranks', `{"bootstrap_rooms":[${MAX_ROOM},9223372036854775806]}`);
    assert.equal(ranks.text, `{"${MAX_ROOM}":0}`, 'the room comes back exactly, the one next to it (the same double) unknown');
  });

  test('sent to both at once, decode first: the prefill answers its one token, the decode streams the rest after the KV transfer', async () => {
    const body = routerBody('9007199254740993', prefill.bootstrapPort, { sampling_params: { max_new_tokens: 12, ignore_eos: true }, stream: true });
    const [decoded, prefilled] = await Promise.all([timedPost(decode.url, body), timedPost(prefill.url, body)]);
    assert.equal(prefilled.status, 200);
    assert.equal(prefilled.events.length, 1);
    assert.ok(prefilled.text.endsWith('data: [DONE]\n\n'));
    const first = prefilled.events[0].meta_info;
    assert.deepEqual([first.finish_reason, first.completion_tokens, first.prompt_tokens], [{ type: 'length', length: 0 }, 1, PD_PROMPT.length]);

    assert.equal(decoded.status, 200);
    const counts = decoded.events.map((e) => e.meta_info.completion_tokens);
    assert.deepEqual(counts, Array.from({ length: 12 }, (_, i) => i + 1), 'the decode streams from the first token on');
    const last = decoded.events.at(-1).meta_info;
    assert.deepEqual([last.finish_reason, last.prompt_tokens], [{ type: 'length', length: 12 }, PD_PROMPT.length]);
    // The prefill answers once its KV is sent; its prefill ended that long before. The decode's first
    // token comes once the whole transfer is done (ms of slack: the two requests left a moment apart).
    const resolved = (mode: string) => resolveInstance(parseLaunchArgs([...MODEL, '--disaggregation-mode', mode]).launch);
    const sendSec = kvSendSeconds(kvSendSide(resolved('prefill')), PD_PROMPT.length);
    const transferSec = kvTransferSeconds(resolved('prefill'), resolved('decode'), PD_PROMPT.length);
    const prefillDoneMs = prefilled.startMs + (first.e2e_latency - sendSec) * 1000;
    const kvArrivedMs = prefillDoneMs + transferSec * 1000;
    // Both are measured conservatively: the prefill's e2e starts after its request left the client, and
    // a chunk is read no earlier than it was due.
    assert.ok(decoded.firstMs >= kvArrivedMs - 3, `decode's first chunk ${(kvArrivedMs - decoded.firstMs).toFixed(1)} ms before its KV arrived`);
  });

  test('a room above 2^53 with one-entry lists and a null port (the decode\'s own) round-trips exactly, not streamed', async () => {
    const json = JSON.stringify({ input_ids: [PD_PROMPT.slice(0, 300)].flat(), bootstrap_host: ['127.0.0.1'], bootstrap_port: [null], sampling_params: { max_new_tokens: 5, ignore_eos: true } });
    const body = `${json.slice(0, -1)},"bootstrap_room":[${MAX_ROOM}]}`;
    const [decoded, prefilled] = await Promise.all([post(decode.url, '/generate', body), post(prefill.url, '/generate', body)]);
    assert.equal(prefilled.status, 200);
    assert.deepEqual(prefilled.json.meta_info.finish_reason, { type: 'length', length: 0 });
    assert.equal(decoded.status, 200);
    assert.deepEqual([decoded.json.meta_info.completion_tokens, decoded.json.output_ids.length, decoded.json.meta_info.prompt_tokens], [5, 5, 300]);
  });

  test('a batch carries one room per prompt: both sides answer every prompt, each event with its index', async () => {
    const rooms = ['9223372036854775800', '9007199254740993'];
    const json = JSON.stringify({
      input_ids: [PD_PROMPT.slice(0, 400), PD_PROMPT.slice(0, 700)],
      bootstrap_host: ['127.0.0.1', '127.0.0.1'],
      bootstrap_port: [prefill.bootstrapPort, null],
      sampling_params: { max_new_tokens: 6, ignore_eos: true },
      stream: true,
    });
    const body = `${json.slice(0, -1)},"bootstrap_room":[${rooms.join(',')}]}`;
    const [decoded, prefilled] = await Promise.all([post(decode.url, '/generate', body), post(prefill.url, '/generate', body)]);
    assert.equal(prefilled.status, 200);
    assert.deepEqual(prefilled.events.map((e) => [e.index, e.meta_info.completion_tokens]).sort(), [[0, 1], [1, 1]]);
    assert.equal(decoded.status, 200);
    assert.equal(decoded.text.match(/data: \[DONE\]/g)!.length, 1, 'one [DONE] after the last prompt');
    for (const [index, promptTokens] of [[0, 400], [1, 700]] as const) {
      const events = decoded.events.filter((e) => e.index === index);
      assert.deepEqual(events.map((e) => e.meta_info.completion_tokens), [1, 2, 3, 4, 5, 6]);
      assert.equal(events.at(-1).meta_info.prompt_tokens, promptTokens);
    }
  });

  test('a decode refuses what no router sent, in one line; mismatched lists are 400s', async () => {
    const alone = await post(decode.url, '/generate', { input_ids: [1, 2, 3], sampling_params: { max_new_tokens: 2 } });
    assert.equal(alone.status, 400);
    assert.match(alone.json.error.message, /^this is a decode instance \(--disaggregation-mode decode\)/);
    const mismatched = await post(decode.url, '/generate', '{"input_ids":[1,2,3],"bootstrap_host":"127.0.0.1","bootstrap_room":[1,2]}');
    assert.equal(mismatched.status, 400);
  });

  test("/server_info reports each side's mode and one internal state per DP rank; /metrics counts each side's own tokens", async () => {
    const prefillInfo = (await get(prefill.url, '/server_info')).json;
    const decodeInfo = (await get(decode.url, '/server_info')).json;
    assert.deepEqual([prefillInfo.disaggregation_mode, prefillInfo.internal_states.length], ['prefill', 1]);
    assert.deepEqual([decodeInfo.disaggregation_mode, decodeInfo.internal_states.length], ['decode', 2]);
    const counter = async (sim: SimServerHandle, name: string) => {
      const line = (await get(sim.url, '/metrics')).text.split('\n').find((l) => l.startsWith(`sglang:${name}{`));
      return Number(line!.split(' ').at(-1));
    };
    // The router's prompts above: the prefill made the first token of each, the decode every token it streamed.
    assert.equal(await counter(prefill, 'generation_tokens_total'), 4);
    assert.equal(await counter(decode, 'generation_tokens_total'), 12 + 5 + 6 + 6);
    assert.equal(await counter(decode, 'num_requests_total'), 4);
  });
});

describe("PD failures end each request with SGLang's message", () => {
  withEnv({ SERVEBENCH_SIM_BOOTSTRAP_RETRY_INTERVAL: '0.02', SGLANG_DISAGGREGATION_WAITING_TIMEOUT: '1.5', SGLANG_DISAGGREGATION_BOOTSTRAP_TIMEOUT: '1' });
  let prefill: SimServerHandle;
  let decode: SimServerHandle;
  before(async () => {
    prefill = await startInstance('prefill', ['--disaggregation-bootstrap-port', '0']);
    decode = await startInstance('decode');
  });
  after(async () => {
    await decode.close();
    await prefill.close();
  });

  test('an unreachable bootstrap server: 15 tries, then the handshake fails (500, or 200 with the abort when streamed)', async () => {
    const port = await closedPort();
    const body = (stream: boolean, rid: string) => routerBody('42', port, { rid, sampling_params: { max_new_tokens: 4 }, stream });
    const started = performance.now();
    const [plain, streamed] = await Promise.all([post(decode.url, '/generate', body(false, 'plain')), post(decode.url, '/generate', body(true, 'streamed'))]);
    assert.ok(performance.now() - started >= 14 * 20, 'every try was made, 0.02 s apart');
    const message = (rid: string) =>
      `Decode handshake failed for request rank=0 decode_req.req.rid='${rid}' decode_req.req.bootstrap_room=42 with exception KVTransferError(bootstrap_room=42): Aborted by AbortReq.`;
    assert.equal(plain.status, 500);
    assert.deepEqual(plain.json, { object: 'error', message: message('plain'), type: '500', param: null, code: 500 });
    assert.equal(streamed.status, 200);
    assert.deepEqual(streamed.events[0].meta_info.finish_reason, { type: 'abort', message: message('streamed'), status_code: 500, err_type: null });
    assert.ok(streamed.text.endsWith('data: [DONE]\n\n'));
  });

  test('rooms that differ past 2^53 do not meet: each side times out naming its own room exactly', async () => {
    const fields = { sampling_params: { max_new_tokens: 4 } };
    const [decoded, prefilled] = await Promise.all([
      post(decode.url, '/generate', routerBody('9223372036854775806', prefill.bootstrapPort, { rid: 'd', ...fields })),
      post(prefill.url, '/generate', routerBody(MAX_ROOM, prefill.bootstrapPort, { rid: 'p', ...fields })),
    ]);
    assert.equal(prefilled.status, 500);
    assert.equal(
      prefilled.json.message,
      `Prefill bootstrap failed for request rank=0 req.rid='p' req.bootstrap_room=${MAX_ROOM} with exception KVTransferError(bootstrap_room=${MAX_ROOM}): Request ${MAX_ROOM} timed out after 1.0s in KVPoll.Bootstrapping`,
    );
    assert.equal(decoded.status, 500);
    assert.equal(
      decoded.json.message,
      "Decode transfer failed for request rank=0 decode_req.req.rid='d' decode_req.req.bootstrap_room=9223372036854775806 with exception KVTransferError(bootstrap_room=9223372036854775806): Request 9223372036854775806 timed out after 1.5s in KVPoll.WaitingForInput",
    );
  });
});

describe('PD: a prefill instance lost mid-run', () => {
  withEnv({ SGLANG_DISAGGREGATION_HEARTBEAT_INTERVAL: '2' });
  let prefill: SimServerHandle;
  let decode: SimServerHandle;
  before(async () => {
    prefill = await startInstance('prefill', ['--disaggregation-bootstrap-port', '0']);
    decode = await startInstance('decode');
  });
  after(() => decode.close());

  test("fails the decode's waiting requests with SGLang's lost-connection message; none hangs", async () => {
    const port = prefill.bootstrapPort!;
    const waiting = [
      post(decode.url, '/generate', routerBody('7', port, { rid: 'a', sampling_params: { max_new_tokens: 4 } })),
      post(decode.url, '/generate', routerBody('8', port, { rid: 'b', sampling_params: { max_new_tokens: 4 }, stream: true })),
    ];
    await new Promise((resolve) => setTimeout(resolve, 300));
    await prefill.close();
    const [plain, streamed] = await Promise.all(waiting);
    const lost = (rid: string, room: string) => lostPrefillMessage(rid, room, port);
    assert.equal(plain.status, 500);
    assert.equal(plain.json.message, lost('a', '7'));
    assert.equal(streamed.status, 200);
    assert.equal(streamed.events[0].meta_info.finish_reason.message, lost('b', '8'));
  });
});
