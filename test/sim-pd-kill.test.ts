/**
 * A prefill `servebench sim` process killed (SIGKILL) while a decode process waits for its rooms'
 * KV: the decode's requests fail with SGLang's lost-connection message once its heartbeats fail,
 * streamed or not, and none hangs.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { post } from './sim-server-helpers.js';
import { lostPrefillMessage, routerBody } from './helpers/pd-requests.js';
import { spawnSim, type SimProcess } from './helpers/sim-process.js';

const MODEL = ['--model-path', 'Qwen/Qwen3-8B', '--hardware', 'h100', '--host', '127.0.0.1', '--port', '0'];
const started: SimProcess[] = [];
after(() => started.forEach((sim) => sim.child.kill('SIGKILL')));

test("a killed prefill process fails the decode's waiting requests with SGLang's message within its heartbeat window", async () => {
  const prefill = await spawnSim([...MODEL, '--disaggregation-mode', 'prefill', '--disaggregation-bootstrap-port', '0']);
  started.push(prefill);
  const port = Number(/PD prefill: bootstrap server on 127\.0\.0\.1:(\d+)/.exec(prefill.output())?.[1]);
  assert.ok(port > 0, prefill.output());
  // Heartbeats every 2 s (SGLang's floor), the prefill declared lost after 2 failed ones.
  process.env['SGLANG_DISAGGREGATION_HEARTBEAT_INTERVAL'] = '2';
  const decode = await spawnSim([...MODEL, '--disaggregation-mode', 'decode']);
  delete process.env['SGLANG_DISAGGREGATION_HEARTBEAT_INTERVAL'];
  started.push(decode);

  const startMs = performance.now();
  const waiting = [
    post(decode.url, '/generate', routerBody('11', port, { rid: 'a', sampling_params: { max_new_tokens: 4 } })),
    post(decode.url, '/generate', routerBody('12', port, { rid: 'b', sampling_params: { max_new_tokens: 4 }, stream: true })),
  ];
  await new Promise((resolve) => setTimeout(resolve, 500));
  prefill.child.kill('SIGKILL');
  await once(prefill.child, 'exit');
  const [plain, streamed] = await Promise.all(waiting);
  assert.equal(plain.status, 500);
  assert.equal(plain.json.message, lostPrefillMessage('a', '11', port));
  assert.equal(streamed.status, 200);
  assert.equal(streamed.events[0].meta_info.finish_reason.message, lostPrefillMessage('b', '12', port));
  // Two missed 2-second heartbeats, not a hang: well within 30 s.
  assert.ok(performance.now() - startMs < 30_000);
});
