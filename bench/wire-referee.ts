/**
 * The wire referee: servebench's and bench_serving's Python client timed against the kernel. A
 * loopback capture (tcpdump on `lo`) stamps each segment as the sender's write passes the
 * interface, so a request's wire TTFT is its first token event's segment minus its POST segment,
 * and its wire ITLs the gaps between its token events' segments — independent of the client's
 * and the server's event loops. For each size, S streams open at once against a truth-mode sim
 * (its own process, under SCHED_FIFO where permitted) writing T tokens per request at a fixed
 * event rate; servebench runs its bench pipeline (bench/client-burst.ts), then the Python client
 * (bench/python-client-baseline.py, as bench_serving reads streams) the same streams, each under
 * its own capture. Every request is compared with the wire, and servebench's self-check bound
 * for each request is checked against its wire error.
 *
 *   npx tsx bench/wire-referee.ts                                   # 512 and 2,048 streams
 *   npx tsx bench/wire-referee.ts --streams 8192 --python off
 *
 * Options: --streams S[,S...] (default 512,2048), --events-per-s (all streams together; the
 * sim's ITL is S / this; default 12800), --tokens per request (200), --ttft-ms (50), --workers
 * (servebench's --workers, 1), --realtime sim|client|both|off (which loops run under SCHED_FIFO;
 * default sim), --python auto|PATH|off, --per-request FILE (one JSON line per request and client:
 * its TTFT by the client and by the wire, its token events' largest and smallest error, the bound
 * the self-check stated for it). Needs tcpdump with the right to capture (root or
 * CAP_NET_RAW); prints one line and exits 0 where it cannot.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { burstRequestId, runBurst, statedBound, type BurstPoint } from './client-burst.js';
import { findPython, PYTHON_CANDIDATES, PYTHON_CLIENT } from './python-interpreter.js';
import { withTruthSim } from './truth-sim.js';
import { captureRefusal, startCapture } from './wire/capture.js';
import { compareWithWire, type ClientTiming, type WireComparison } from './wire/compare.js';
import { tcpSegments } from './wire/pcap.js';
import { wireRequests } from './wire/requests.js';

interface Options {
  streams: number[];
  eventsPerS: number;
  tokens: number;
  ttftMs: number;
  workers: number;
  realtime: 'sim' | 'client' | 'both' | 'off';
  python: string | null;
  perRequestFile: string | null;
}

interface Row {
  streams: number;
  client: string;
  comparison: WireComparison;
  dropped: number;
  /** Client CPU per token event, µs; null where not measured. */
  cpuPerEventUs: number | null;
  verdict: string | null;
}

function options(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      streams: { type: 'string', default: '512,2048' },
      'events-per-s': { type: 'string', default: '12800' },
      tokens: { type: 'string', default: '200' },
      'ttft-ms': { type: 'string', default: '50' },
      workers: { type: 'string', default: '1' },
      realtime: { type: 'string', default: 'sim' },
      python: { type: 'string', default: 'auto' },
      'per-request': { type: 'string' },
    },
  });
  const realtime = values.realtime;
  if (realtime !== 'sim' && realtime !== 'client' && realtime !== 'both' && realtime !== 'off') throw new Error(`--realtime: sim, client, both or off, not ${realtime}`);
  const python = values.python === 'off' ? null : findPython(values.python === 'auto' ? PYTHON_CANDIDATES : [values.python]);
  return {
    streams: values.streams.split(',').map(Number),
    eventsPerS: Number(values['events-per-s']),
    tokens: Number(values.tokens),
    ttftMs: Number(values['ttft-ms']),
    workers: Number(values.workers),
    realtime,
    python,
    perRequestFile: values['per-request'] ?? null,
  };
}

/** Runs `client` under a capture of the sim's port; returns the wire's requests and the capture's drops. */
async function captured<T>(port: number, client: () => Promise<T>): Promise<{ result: T; wire: ReturnType<typeof wireRequests>; dropped: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'servebench-wire-'));
  try {
    const file = join(dir, 'capture.pcap');
    const capture = await startCapture(port, file);
    let result: T;
    try {
      result = await client();
    } catch (error) {
      await capture.stop();
      throw error;
    }
    const { dropped } = await capture.stop();
    return { result, wire: wireRequests(tcpSegments(readFileSync(file)), port), dropped };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function servebenchRow(streams: number, itlMs: number, url: string, port: number, options: Options): Promise<Row> {
  const point: BurstPoint = { streams, waves: 1, api: 'generate', itlMs, tokens: options.tokens, workers: options.workers, lazyConnect: false };
  const clientRealtime = options.realtime === 'client' || options.realtime === 'both';
  const simRealtime = options.realtime === 'sim' || options.realtime === 'both';
  const cpuBefore = process.cpuUsage();
  const { result, wire, dropped } = await captured(port, () => runBurst(point, { ttftMs: options.ttftMs, clientRealtime, simRealtime }, url));
  const cpu = process.cpuUsage(cpuBefore);
  const timings: ClientTiming[] = [];
  let events = 0;
  result.outputs.forEach((output, i) => {
    if (!output.success) return;
    events += output.itl.length + 1;
    timings.push({
      rid: burstRequestId(i),
      ttftMs: output.ttft * 1000,
      itlMs: output.itl.map((gap) => gap * 1000),
      statedBoundMs: statedBound(result.verdict, (output.stampLatenessBound ?? 0) * 1000),
    });
  });
  return {
    streams,
    client: `servebench (--workers ${options.workers})`,
    comparison: compareWithWire(timings, wire),
    dropped,
    cpuPerEventUs: events > 0 ? (cpu.user + cpu.system) / events : null,
    verdict: result.verdict.line,
  };
}

interface PythonReport {
  errors: number;
  measured: Array<{ rid: string; ttft: number; itl: number[] }>;
}

async function pythonRow(python: string, streams: number, url: string, port: number, options: Options): Promise<Row> {
  // The window opens now and closes once every stream has sent its one request: each lasts longer.
  const nowMs = Number(process.hrtime.bigint()) / 1e6;
  const args = [PYTHON_CLIENT, `${url}/generate`, 'generate', String(streams), String(options.tokens), String(nowMs), String(nowMs + PYTHON_START_MS), '0'];
  const { result, wire, dropped } = await captured(
    port,
    () =>
      new Promise<PythonReport>((resolve, reject) => {
        execFile(python, args, { maxBuffer: 1 << 30 }, (error, stdout, stderr) => (error ? reject(new Error(stderr)) : resolve(JSON.parse(stdout) as PythonReport)));
      }),
  );
  const timings = result.measured.map((request) => ({ rid: request.rid, ttftMs: request.ttft * 1000, itlMs: request.itl.map((gap) => gap * 1000) }));
  return { streams, client: 'Python (bench_serving)', comparison: compareWithWire(timings, wire), dropped, cpuPerEventUs: null, verdict: null };
}

/** Time the Python client is given to start and open its streams before its window closes, ms. */
const PYTHON_START_MS = 5000;

const f = (value: number, digits = 2): string => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
const signed = (value: number): string => (value >= 0 ? `+${f(value)}` : f(value));

function printRows(rows: readonly Row[], options: Options): void {
  console.log(`\nWire referee: ${options.tokens} tokens per request, ${options.eventsPerS} events/s over all streams, TTFT ${options.ttftMs} ms, SCHED_FIFO: ${options.realtime}\n`);
  console.log('| streams | client | paired (unpaired) | mean TTFT client / wire (diff) | p99 ITL client / wire (diff) | median ITL client / wire (diff) | error largest / smallest | beyond own bound (worst excess) | CPU per event | capture drops |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const { streams, client, comparison: c, dropped, cpuPerEventUs } of rows) {
    const medianDiff = ((c.medianItl.client - c.medianItl.wire) / c.medianItl.wire) * 100;
    console.log(
      `| ${streams} | ${client} | ${c.paired} (${c.unpaired}) | ${f(c.meanTtft.client)} / ${f(c.meanTtft.wire)} (${signed(c.meanTtft.client - c.meanTtft.wire)}) | ` +
        `${f(c.p99Itl.client)} / ${f(c.p99Itl.wire)} (${signed(c.p99Itl.client - c.p99Itl.wire)}) | ${f(c.medianItl.client, 3)} / ${f(c.medianItl.wire, 3)} (${signed(medianDiff)}%) | ` +
        `${f(c.worstLateMs)} / ${f(c.worstEarlyMs)} | ${client.startsWith('servebench') ? `${c.beyondBound} (${signed(c.worstExcessMs)})` : '-'} | ` +
        `${cpuPerEventUs === null ? '-' : `${f(cpuPerEventUs, 1)} µs`} | ${dropped} |`,
    );
  }
  console.log('');
  for (const { streams, verdict } of rows) if (verdict !== null) console.log(`${streams} streams: ${verdict}`);
}

async function main(): Promise<void> {
  const refusal = captureRefusal();
  if (refusal !== null) {
    console.log(`wire referee skipped: ${refusal}`);
    return;
  }
  const opts = options(process.argv.slice(2));
  if (opts.python === null) console.log('Python client: off (none given, or no python3 with aiohttp: apt-get install -y python3-aiohttp)');
  const rows: Row[] = [];
  for (const streams of opts.streams) {
    const itlMs = (streams / opts.eventsPerS) * 1000;
    const simRealtime = opts.realtime === 'sim' || opts.realtime === 'both';
    await withTruthSim({ ttftMs: opts.ttftMs, itlMs, sharedSteps: false, realtime: simRealtime }, async (sim) => {
      const port = Number(new URL(sim.url).port);
      rows.push(await servebenchRow(streams, itlMs, sim.url, port, opts));
      if (opts.python !== null) rows.push(await pythonRow(opts.python, streams, sim.url, port, opts));
    });
  }
  printRows(rows, opts);
  if (opts.perRequestFile !== null) {
    const lines = rows.flatMap(({ streams, client, comparison }) => comparison.requests.map((request) => JSON.stringify({ streams, client, ...request })));
    writeFileSync(opts.perRequestFile, `${lines.join('\n')}\n`);
    console.log(`\nPer-request figures: ${opts.perRequestFile} (${lines.length} lines)`);
  }
}

await main();
