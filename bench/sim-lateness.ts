/**
 * The sim's own timing fidelity: how late it writes chunks relative to their scheduled times.
 * Forks a truth-mode sim (its own process, as `servebench sim` runs), drives it with N concurrent
 * closed-loop streams over undici, then reads GET /sim/truth and prints lateness p50/p99/max.
 *
 *   npx tsx bench/sim-lateness.ts [--streams 2000] [--seconds 20] [--itl-ms 100] [--ttft-ms 200] [--tokens 64] [--api generate|chat] [--realtime on|off]
 *
 * The sim starts as `servebench sim` starts it (its own thread, serial scavenges) with
 * `--sim-realtime` unless `--realtime off`; the report says which scheduling its loop thread got.
 *
 * With `--sim "<SGLang flags>"` the sim runs the performance model instead (its writes recorded all
 * the same) and the driver sends one burst of `--burst` requests at once, as the README's
 * `bench --sim` run does (request i: 1 + i mod `--prompt-words` prompt words, 1 + i mod `--tokens` outputs):
 *
 *   npx tsx bench/sim-lateness.ts --sim "--model-path Qwen/Qwen2.5-0.5B-Instruct --hardware h100" [--burst 200] [--tokens 16] [--prompt-words 64]
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg, setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Agent } from 'undici';
import { max, percentile } from '../src/core/stats.js';
import { threadSchedulingPolicy } from '../src/core/thread-scheduling.js';

interface Options {
  streams: number;
  seconds: number;
  itlMs: number;
  ttftMs: number;
  tokens: number;
  api: 'generate' | 'chat';
  /** SGLang launch flags of a modelled sim (burst mode), or null for truth mode. */
  sim: string | null;
  burst: number;
  promptWords: number;
  /** Start the sim with `--sim-realtime` (its loop thread under SCHED_FIFO where permitted). */
  realtime: boolean;
}

function parseOptions(argv: string[]): Options {
  const get = (name: string, fallback: string): string => {
    const at = argv.indexOf(`--${name}`);
    return at === -1 ? fallback : argv[at + 1]!;
  };
  return {
    streams: Number(get('streams', '2000')),
    seconds: Number(get('seconds', '20')),
    itlMs: Number(get('itl-ms', '100')),
    ttftMs: Number(get('ttft-ms', '200')),
    tokens: Number(get('tokens', argv.includes('--sim') ? '16' : '64')),
    api: get('api', 'generate') === 'chat' ? 'chat' : 'generate',
    sim: argv.includes('--sim') ? get('sim', '') : null,
    burst: Number(get('burst', '200')),
    promptWords: Number(get('prompt-words', '64')),
    realtime: get('realtime', 'on') !== 'off',
  };
}

/** Busy and total CPU jiffies of the whole machine (/proc/stat), to tell how much foreign work ran. */
function machineJiffies(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const idle = fields[3]! + fields[4]!;
  const total = fields.reduce((sum, x) => sum + x, 0);
  return { busy: total - idle, total };
}

/** What the sim process reports about itself at the end of a run. */
interface ChildStats {
  cpuSeconds: number;
  cpuPct: number;
}

/** Child process: the sim, started as `servebench sim` starts it. Reports its URL, serves until disconnected. */
async function runChild(argv: string[]): Promise<void> {
  const { startDedicatedSim } = await import('../src/sim/server/sim-thread.js');
  const server = await startDedicatedSim(argv, { quiet: true, port: 0, recordWrites: 'requests' });
  const cpuStart = process.cpuUsage();
  const started = performance.now();
  process.on('message', () => {
    const cpu = process.cpuUsage(cpuStart);
    const stats: ChildStats = {
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      cpuPct: ((cpu.user + cpu.system) / 1000 / (performance.now() - started)) * 100,
    };
    process.send!(stats);
  });
  process.on('disconnect', () => void server.close().then(() => process.exit(0)));
  process.send!({ url: server.url, loopThreadId: server.loopThreadId });
}

function requestBody(options: Options): { path: string; body: string } {
  if (options.api === 'chat') {
    return {
      path: '/v1/chat/completions',
      body: JSON.stringify({ model: 'Qwen/Qwen3-8B', messages: [{ role: 'user', content: 'Tell me a story.' }], max_completion_tokens: options.tokens, ignore_eos: true, stream: true }),
    };
  }
  return { path: '/generate', body: JSON.stringify({ text: 'Tell me a story.', sampling_params: { max_new_tokens: options.tokens, ignore_eos: true }, stream: true }) };
}

/** One stream read to its end through undici's dispatch API (no body buffering). */
function streamOnce(agent: Agent, origin: string, request: { path: string; body: string }): Promise<number> {
  return new Promise((resolve, reject) => {
    let bytes = 0;
    agent.dispatch(
      { origin, path: request.path, method: 'POST', body: request.body, headers: { 'content-type': 'application/json' } },
      {
        onRequestStart() {},
        onResponseStart() {},
        onResponseData(_controller, chunk) {
          bytes += chunk.length;
        },
        onResponseEnd() {
          resolve(bytes);
        },
        onResponseError(_controller, error) {
          reject(error);
        },
      },
    );
  });
}

function childStats(child: ChildProcess): Promise<ChildStats> {
  child.send('stats');
  return new Promise((resolve) => child.once('message', (m: ChildStats) => resolve(m)));
}

/**
 * The box is shared: raise the sim and the driver above other work (nice −10, needs privileges) so
 * the figure is the sim's own lateness, not the neighbours' load. Linux nice is per thread, so every
 * thread is raised (the sim's tokenizer runs on libuv's pool). Returns what was achieved, for the report.
 */
function raisePriority(pids: number[]): string {
  try {
    for (const pid of pids) {
      const tasks = existsSync(`/proc/${pid}/task`) ? readdirSync(`/proc/${pid}/task`).map(Number) : [pid];
      for (const tid of tasks) setPriority(tid, -10);
    }
    return 'nice −10 (every thread of the sim and the driver)';
  } catch {
    return 'default (could not raise it)';
  }
}

type TruthRecords = Record<string, { arrivalMs: number; submittedMs: number; scheduledMs: number[]; actualMs: number[] }>;

/** The forked sim: its process, URL, and the Linux thread id of its event loop. */
interface SimChild {
  child: ChildProcess;
  url: string;
  loopThreadId: number | null;
  priority: string;
}

/** Forks the sim (truth mode, or the model under `--sim`) and returns it with its URL and priority. */
async function startChild(options: Options): Promise<SimChild> {
  const simArgs = options.sim !== null
    ? options.sim.split(/\s+/).filter(Boolean)
    : ['--model-path', 'Qwen/Qwen3-8B', '--truth-ttft-ms', String(options.ttftMs), '--truth-itl-ms', String(options.itlMs)];
  if (options.realtime) simArgs.push('--sim-realtime');
  const child = fork(fileURLToPath(import.meta.url), ['--child', ...simArgs], {
    execArgv: ['--import', 'tsx', ...(process.env.SIM_CHILD_NODE_ARGS ?? '').split(' ').filter(Boolean)],
  });
  const hello = await new Promise<{ url: string; loopThreadId: number | null }>((resolve) => child.once('message', resolve));
  return { child, ...hello, priority: raisePriority([child.pid!, process.pid]) };
}

/** Scheduling of the sim's loop thread: its policy, and the time it has spent runnable but waiting for a core. */
function loopThreadScheduling(sim: SimChild): { policy: string; waitedMs: number } | null {
  if (sim.loopThreadId === null) return null;
  const policy = threadSchedulingPolicy(sim.child.pid!, sim.loopThreadId);
  if (policy === null) return null;
  try {
    // schedstat: time on a core, time runnable but waiting for one (ns), timeslices.
    const waitedMs = Number(readFileSync(`/proc/${sim.child.pid}/task/${sim.loopThreadId}/schedstat`, 'utf8').split(' ')[1]) / 1e6;
    return { policy, waitedMs };
  } catch {
    return null;
  }
}

/** One line on the loop thread's scheduling over the measured phase. */
function schedulingLine(start: ReturnType<typeof loopThreadScheduling>, end: ReturnType<typeof loopThreadScheduling>): string {
  if (start === null || end === null) return 'sim loop thread: scheduling not readable';
  return `sim loop thread: ${end.policy}, waited for a core ${(end.waitedMs - start.waitedMs).toFixed(0)} ms in total during the run`;
}

async function readTruth(url: string): Promise<TruthRecords> {
  return ((await (await fetch(`${url}/sim/truth`)).json()) as { requests: TruthRecords }).requests;
}

/** Opens a measured phase: the counters every report compares against at the end. */
async function startMeasurement(sim: SimChild): Promise<{ cpuStart: NodeJS.CpuUsage; machineStart: ReturnType<typeof machineJiffies>; serverCpuStart: number; scheduling: ReturnType<typeof loopThreadScheduling> }> {
  return { cpuStart: process.cpuUsage(), machineStart: machineJiffies(), serverCpuStart: (await childStats(sim.child)).cpuSeconds, scheduling: loopThreadScheduling(sim) };
}

/** Ends a measured phase: machine CPU counters, the sim's own stats, scheduling and write record, then teardown. */
async function endMeasurement(
  sim: SimChild,
  agent: Agent,
): Promise<{ machineEnd: ReturnType<typeof machineJiffies>; serverStats: ChildStats; truth: TruthRecords; scheduling: ReturnType<typeof loopThreadScheduling> }> {
  const machineEnd = machineJiffies();
  const scheduling = loopThreadScheduling(sim);
  const serverStats = await childStats(sim.child);
  const truth = await readTruth(sim.url);
  sim.child.disconnect();
  await agent.close();
  return { machineEnd, serverStats, truth, scheduling };
}

const summary = (values: number[]): string =>
  `p50 ${percentile(values, 50).toFixed(3)} ms, p99 ${percentile(values, 99).toFixed(3)} ms, max ${max(values).toFixed(3)} ms`;

/** Foreign CPU: what the machine ran beyond the sim and the driver (jiffies are 1/100 s). */
function foreignCpu(start: { busy: number; total: number }, end: { busy: number; total: number }, oursSeconds: number): string {
  const elapsedCores = (end.total - start.total) / 100;
  const foreign = Math.max(0, (end.busy - start.busy) / 100 - oursSeconds);
  return `${((foreign / elapsedCores) * 100).toFixed(0)} % of the machine`;
}

async function runParent(options: Options): Promise<void> {
  const sim = await startChild(options);
  const agent = new Agent({ connections: null, pipelining: 1, bodyTimeout: 0, headersTimeout: 0, keepAliveTimeout: 60_000 });
  const request = requestBody(options);
  const streamMs = options.ttftMs + (options.tokens - 1) * options.itlMs;
  const deadline = performance.now() + options.seconds * 1000;
  let completed = 0;
  let failed = 0;
  const start = await startMeasurement(sim);
  const worker = async (index: number): Promise<void> => {
    // Stagger first requests over one stream's duration so reconnects do not come in waves.
    await new Promise((r) => setTimeout(r, (index / options.streams) * streamMs));
    while (performance.now() < deadline) {
      try {
        await streamOnce(agent, sim.url, request);
        completed += 1;
      } catch {
        // A kept-alive socket the server closed while this driver waited: counted, then retried.
        failed += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: options.streams }, (_, i) => worker(i)));
  const end = await endMeasurement(sim, agent);
  const lateness: number[] = [];
  const firstChunk: number[] = [];
  const intake: number[] = [];
  for (const record of Object.values(end.truth)) {
    intake.push(record.submittedMs - record.arrivalMs);
    for (let i = 0; i < record.actualMs.length; i++) lateness.push(record.actualMs[i]! - record.scheduledMs[i]!);
    if (record.actualMs.length > 0) firstChunk.push(record.actualMs[0]! - record.scheduledMs[0]!);
  }
  const clientCpu = process.cpuUsage(start.cpuStart);
  console.log(
    `sim lateness, ${options.streams} concurrent ${options.api} streams, truth TTFT ${options.ttftMs} ms / ITL ${options.itlMs} ms, ` +
      `${options.tokens} tokens each, ${options.seconds} s`,
  );
  console.log(`  requests completed: ${completed} (${failed} failed); chunks written: ${lateness.length} (${Math.round(lateness.length / options.seconds)}/s)`);
  console.log(`  lateness (actual − scheduled write time), all chunks: ${summary(lateness)}`);
  console.log(`  lateness of first chunks (includes reading and tokenizing the request): ${summary(firstChunk)}`);
  console.log(`  request intake (arrival → engine: body read, prompt tokenized): ${summary(intake)}`);
  console.log(
    `  sim CPU ${end.serverStats.cpuPct.toFixed(0)} % of one core (since start); driver CPU ${((clientCpu.user + clientCpu.system) / 1e4 / options.seconds).toFixed(0)} %; ` +
      `machine load average (1 min) ${loadavg()[0]!.toFixed(2)} on ${cpus().length} cores; process priority ${sim.priority}`,
  );
  console.log(`  ${schedulingLine(start.scheduling, end.scheduling)}`);
  const ours = end.serverStats.cpuSeconds - start.serverCpuStart + (clientCpu.user + clientCpu.system) / 1e6;
  console.log(`  foreign CPU during the run (other processes and the kernel): ${foreignCpu(start.machineStart, end.machineEnd, ours)}`);
}

/**
 * Burst mode: one warm-up request, then `burst` requests at once (the README's `bench --sim` shape),
 * against the modelled sim. Compares each request's actual inter-chunk gaps with the scheduled ones:
 * a late server shows as lateness, and as chunks written together (a gap under a tenth of its schedule).
 */
async function runBurst(options: Options): Promise<void> {
  const sim = await startChild(options);
  const agent = new Agent({ connections: null, pipelining: 1, bodyTimeout: 0, headersTimeout: 0 });
  // As the random dataset: request i has 1 + i mod N prompt words and output tokens. Each prompt
  // starts with its own number, so no two share a prefix (no radix-cache hits).
  const body = (i: number): string =>
    JSON.stringify({
      text: `${i}${' world'.repeat(i % options.promptWords)}`,
      sampling_params: { max_new_tokens: 1 + (i % options.tokens), ignore_eos: true },
      stream: true,
    });
  await streamOnce(agent, sim.url, { path: '/generate', body: body(options.burst) });
  await fetch(`${sim.url}/sim/truth`, { method: 'DELETE' });
  const start = await startMeasurement(sim);
  const started = performance.now();
  await Promise.all(Array.from({ length: options.burst }, (_, i) => streamOnce(agent, sim.url, { path: '/generate', body: body(i) })));
  const seconds = (performance.now() - started) / 1000;
  const end = await endMeasurement(sim, agent);
  const lateness: number[] = [];
  const scheduledGaps: number[] = [];
  const actualGaps: number[] = [];
  let together = 0;
  for (const record of Object.values(end.truth)) {
    for (let i = 0; i < record.actualMs.length; i++) {
      lateness.push(record.actualMs[i]! - record.scheduledMs[i]!);
      if (i === 0) continue;
      const scheduled = record.scheduledMs[i]! - record.scheduledMs[i - 1]!;
      const actual = record.actualMs[i]! - record.actualMs[i - 1]!;
      scheduledGaps.push(scheduled);
      actualGaps.push(actual);
      if (actual < scheduled / 10) together += 1;
    }
  }
  const gaps = (values: number[]): string =>
    `p50 ${percentile(values, 50).toFixed(3)}, p95 ${percentile(values, 95).toFixed(3)}, p99 ${percentile(values, 99).toFixed(3)} ms`;
  const clientCpu = process.cpuUsage(start.cpuStart);
  console.log(`sim lateness, burst of ${options.burst} /generate requests (1..${options.promptWords}-word prompts, 1..${options.tokens} output tokens), sim ${options.sim}`);
  console.log(`  chunks written: ${lateness.length} in ${seconds.toFixed(2)} s`);
  console.log(`  lateness (actual − scheduled write time), all chunks: ${summary(lateness)}`);
  console.log(`  gaps between a request's chunks, scheduled: ${gaps(scheduledGaps)}`);
  console.log(`  gaps between a request's chunks, written:   ${gaps(actualGaps)}`);
  console.log(`  chunks written together with the previous one (gap < 1/10 of schedule): ${((together / Math.max(1, actualGaps.length)) * 100).toFixed(1)} %`);
  console.log(`  sim CPU ${end.serverStats.cpuPct.toFixed(0)} % of one core (since start); process priority ${sim.priority}`);
  console.log(`  ${schedulingLine(start.scheduling, end.scheduling)}`);
  const ours = end.serverStats.cpuSeconds - start.serverCpuStart + (clientCpu.user + clientCpu.system) / 1e6;
  console.log(`  foreign CPU during the burst (other processes and the kernel): ${foreignCpu(start.machineStart, end.machineEnd, ours)}`);
}

const argv = process.argv.slice(2);
if (argv[0] === '--child') await runChild(argv.slice(1));
else {
  const options = parseOptions(argv);
  await (options.sim !== null ? runBurst(options) : runParent(options));
}
