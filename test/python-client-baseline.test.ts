/**
 * bench/python-client-baseline.py, the Python client of the client-accuracy script's comparison
 * rows, read against a truth-mode sim: every request it reports read all its tokens, with the
 * sim's request id, and its window counts events. Skipped where no python3 has aiohttp
 * (apt-get install python3-aiohttp; CI installs it).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { findPython, PYTHON_CLIENT } from '../bench/python-interpreter.js';
import type { SimServerHandle } from '../src/sim/server/sim-server.js';
import { get, startTruthSim } from './sim-server-helpers.js';

const PYTHON = findPython();
const skip = PYTHON === null ? 'no python3 with aiohttp: apt-get install -y python3-aiohttp' : false;

interface Report {
  events: number;
  window_s: number;
  cpu_s: number;
  requests: number;
  errors: number;
  measured: Array<{ rid: string; start: number; ttft: number; itl: number[]; events: number }>;
}

const TOKENS = 6;

/** Runs the Python client for a window opening now and lasting `seconds`, on the shared clock. */
function runPython(url: string, api: 'generate' | 'completions', seconds: number): Promise<Report> {
  const nowMs = Number(process.hrtime.bigint()) / 1e6;
  const args = [PYTHON_CLIENT, `${url}/${api === 'generate' ? 'generate' : 'v1/completions'}`, api, '3', String(TOKENS), String(nowMs), String(nowMs + seconds * 1000), '0.05'];
  return new Promise((resolve, reject) => {
    execFile(PYTHON!, args, (error, stdout, stderr) => (error ? reject(new Error(stderr)) : resolve(JSON.parse(stdout) as Report)));
  });
}

describe('the Python client of the comparison rows', { skip }, () => {
  let sim: SimServerHandle;
  before(async () => {
    sim = await startTruthSim();
  });
  after(() => sim.close());

  for (const api of ['generate', 'completions'] as const) {
    test(`reads every token of the ${api} streams it reports, and counts its window's events`, async () => {
      const report = await runPython(sim.url, api, 0.5);
      assert.equal(report.errors, 0);
      assert.ok(report.measured.length > 0, 'no request was sent in the window');
      for (const request of report.measured) {
        assert.equal(request.events, TOKENS);
        assert.equal(request.itl.length, TOKENS - 1);
        // The sim writes the first chunk 5 ms after the request arrives: no client can see it sooner.
        assert.ok(request.ttft >= 0.005, `ttft ${request.ttft}`);
      }
      assert.ok(report.events > 0 && report.window_s > 0 && report.cpu_s > 0);
    });
  }

  test('sends the request id the sim keys its truth by, on the clock the truth uses', async () => {
    const report = await runPython(sim.url, 'generate', 0.3);
    const truth = (await get(sim.url, '/sim/truth')).json.requests;
    for (const request of report.measured) {
      const record = truth[request.rid];
      assert.ok(record !== undefined, `no truth for ${request.rid}`);
      assert.ok(record.arrivalMs >= request.start * 1000, 'the server saw the request before the client sent it');
      assert.ok(record.actualMs[0] <= (request.start + request.ttft) * 1000, 'the client saw the first chunk before the server wrote it');
    }
  });
});
