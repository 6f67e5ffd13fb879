/**
 * `servebench sim` prints SGLang's server log where SGLang prints its own: scheduler lines in
 * SGLang's format with figures that agree with what was served, request lines with --log-requests,
 * rank prefixes under DP attention, accept figures under speculative decoding, nothing at
 * --log-level warning. Read from the real CLI's stdout.
 */
import assert from 'node:assert/strict';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { after, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { spawnSim, type SimProcess } from './helpers/sim-process.js';
import { get, post } from './sim-server-helpers.js';

const STAMP = String.raw`\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d((?: DP\d+)?(?: TP\d+)?(?: EP\d+)?)\]`;
const PREFILL = new RegExp(
  String.raw`^${STAMP} Prefill batch, #new-seq: (\d+), #new-token: (\d+), #cached-token: (\d+), token usage: (\d+\.\d\d), ` +
    String.raw`#running-req: (\d+), #queue-req: (\d+), input throughput \(token/s\): (\d+\.\d\d), cuda graph: (True|False)$`,
);
const DECODE = new RegExp(
  String.raw`^${STAMP} Decode batch, #running-req: (\d+), #token: (\d+), token usage: (\d+\.\d\d), ` +
    String.raw`(?:accept len: (\d+\.\d\d), accept rate: (\d+\.\d\d), )?cuda graph: (True|False), gen throughput \(token/s\): (\d+\.\d\d), #queue-req: (\d+)$`,
);
const RECEIVE = new RegExp(String.raw`^${STAMP} Receive: obj=GenerateReqInput\(rid='(\w+)', `);
const FINISH = new RegExp(String.raw`^${STAMP} Finish: obj=GenerateReqInput\(rid='(\w+)', .*'completion_tokens': (\d+),`);

/** The log lines the sim printed after its start-up block. */
function logLines(sim: SimProcess): string[] {
  const output = sim.output();
  return output.slice(output.indexOf('\nignored flags') + 1).split('\n').slice(1).filter((line) => line !== '');
}

/** Waits until the sim has printed `count` lines matching `pattern` (its stdout arrives a little after the replies). */
async function printed(sim: SimProcess, pattern: RegExp, count: number): Promise<string[]> {
  for (let waited = 0; waited < 5000; waited += 20) {
    const lines = logLines(sim).filter((line) => pattern.test(line));
    if (lines.length >= count) return lines;
    await sleep(20);
  }
  assert.fail(`fewer than ${count} lines match ${pattern} in:\n${sim.output()}`);
}

describe('servebench sim: the server log', () => {
  const children: ChildProcessWithoutNullStreams[] = [];
  after(() => children.forEach((child) => child.kill('SIGKILL')));
  const start = async (args: string[]): Promise<SimProcess> => {
    const sim = await spawnSim([...args, '--port', '0', '--host', '127.0.0.1']);
    children.push(sim.child);
    return sim;
  };

  test("scheduler lines in SGLang's format whose figures agree with the requests served; request lines with --log-requests", async () => {
    const sim = await start(['--model-path', 'Qwen/Qwen2.5-0.5B-Instruct', '--decode-log-interval', '4', '--log-requests', '--api-key', 'sk-hidden']);
    const prompts = ['The first prompt asks about rivers.', 'A second, different question on mountains and lakes?', 'Third: tell me a story.'];
    const replies = await Promise.all(
      prompts.map((text) => post(sim.url, '/generate', { text, sampling_params: { max_new_tokens: 24, ignore_eos: true }, stream: true })),
    );
    const promptTokens = replies.map((reply) => reply.events.at(-1).meta_info.prompt_tokens as number);
    const finishes = await printed(sim, FINISH, 3);
    assert.deepEqual(finishes.map((line) => Number(FINISH.exec(line)![3])), [24, 24, 24]);
    const lines = logLines(sim);
    assert.deepEqual(lines.filter((line) => ![PREFILL, DECODE, RECEIVE, FINISH].some((p) => p.test(line))), []);
    assert.equal(lines.filter((line) => RECEIVE.test(line)).length, 3);
    assert.ok(!sim.output().includes('sk-hidden'));

    const capacity = (await get(sim.url, '/get_server_info')).json.max_total_num_tokens as number;
    const prefills = lines.filter((line) => PREFILL.test(line)).map((line) => PREFILL.exec(line)!);
    // Every prompt token was either computed or found in the cache, once.
    const served = prefills.reduce((sum, m) => sum + Number(m[3]) + Number(m[4]), 0);
    assert.equal(served, promptTokens.reduce((a, b) => a + b, 0));
    assert.equal(prefills.reduce((sum, m) => sum + Number(m[2]), 0), 3);
    assert.ok(prefills.every((m) => m[1] === '' && m[9] === 'False'));
    assert.equal(Number(prefills[0]![8]), 0, 'the first prefill line has no previous batch to measure');
    const decodes = lines.filter((line) => DECODE.test(line)).map((line) => DECODE.exec(line)!);
    assert.ok(decodes.length >= 4, `${decodes.length} decode lines`);
    for (const m of decodes) {
      assert.ok(Number(m[2]) >= 1 && Number(m[2]) <= 3);
      assert.equal(m[4], (Number(m[3]) / capacity).toFixed(2));
      assert.equal(m[5], undefined);
      assert.equal(m[7], 'True');
      assert.ok(Number(m[8]) > 0);
    }
  });

  test('DP attention tags each rank as SGLang does; speculative decoding adds the accept length and rate', async () => {
    const sim = await start([
      '--model-path', 'deepseek-ai/DeepSeek-V3', '--hardware', 'h200', '--tp', '8', '--dp', '2', '--enable-dp-attention',
      '--speculative-algorithm', 'NEXTN', '--speculative-num-steps', '3', '--speculative-num-draft-tokens', '4', '--decode-log-interval', '2',
    ]);
    await Promise.all(
      [0, 1, 2, 3].map((i) => post(sim.url, '/generate', { text: `request ${i} of four`, sampling_params: { max_new_tokens: 40, ignore_eos: true } })),
    );
    const decodes = (await printed(sim, DECODE, 2)).map((line) => DECODE.exec(line)!);
    const prefills = logLines(sim).filter((line) => PREFILL.test(line)).map((line) => PREFILL.exec(line)!);
    assert.deepEqual([...new Set([...prefills, ...decodes].map((m) => m[1]))].sort(), [' DP0 TP0', ' DP1 TP4']);
    for (const m of decodes) {
      const [length, rate] = [Number(m[5]), Number(m[6])];
      assert.ok(length >= 1 && length <= 4, `accept len ${length}`);
      assert.ok(Math.abs(rate - length / 4) <= 0.01, `accept rate ${rate} for len ${length}`);
    }
  });

  test('--log-level warning prints none of them', async () => {
    const sim = await start(['--model-path', 'Qwen/Qwen2.5-0.5B-Instruct', '--log-level', 'warning', '--log-requests', '--decode-log-interval', '1']);
    await post(sim.url, '/generate', { text: 'quiet please', sampling_params: { max_new_tokens: 8, ignore_eos: true } });
    await sleep(200);
    assert.deepEqual(logLines(sim), []);
  });
});
