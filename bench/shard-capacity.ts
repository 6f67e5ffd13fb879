/**
 * What `bench --shards K` buys: the most concurrent streams, and token events a second, the client
 * holds within its 3 ms self-check bound, sent from one process and from K shard processes. Drives
 * a truth-mode sim (its own process) with S streams at once through the built CLI, exactly as a
 * user runs it, and reads each run's record: the self-check's bound for the calm requests, how many
 * requests a stall put over it and their worst bound, and the token events per second. A load is
 * held when every request's bound is within 3 ms.
 *
 *   npm run build && npx tsx bench/shard-capacity.ts
 *   npx tsx bench/shard-capacity.ts --streams 256,512,1024 --shards 2,4 --itl-ms 20 --tokens 100 --realtime
 *
 * Options: --streams S[,S...] (concurrent streams, one request each), --shards K[,K...] (beside the
 * one-process run), --itl-ms the sim's inter-token gap, --ttft-ms its first-token delay, --tokens output
 * tokens per request, --realtime (the client's loops and the sim's under SCHED_FIFO where permitted),
 * --shared-steps (every stream's tokens written on one step clock, as a continuous-batching engine
 * writes them; default: each stream on its own phase, the client's hardest case).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MODEL, withTruthSim } from './truth-sim.js';

const BIN = fileURLToPath(new URL('../bin/servebench.js', import.meta.url));
/** The bound a load must hold for every request (ms). */
const BOUND_MS = 3;

interface Options {
  streams: number[];
  shards: number[];
  itlMs: number;
  ttftMs: number;
  tokens: number;
  realtime: boolean;
  sharedSteps: boolean;
}

function parseOptions(argv: readonly string[]): Options {
  const options: Options = { streams: [128, 256, 512, 1024], shards: [2], itlMs: 20, ttftMs: 50, tokens: 100, realtime: false, sharedSteps: false };
  const list = (text: string) => text.split(',').map((part) => {
    const value = Number(part);
    if (!Number.isInteger(value) || value < 1) throw new Error(`expected whole numbers, got '${text}'`);
    return value;
  });
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const value = argv[i + 1] ?? '';
    if (flag === '--streams') options.streams = list(value);
    else if (flag === '--shards') options.shards = list(value);
    else if (flag === '--itl-ms') options.itlMs = Number(value);
    else if (flag === '--ttft-ms') options.ttftMs = Number(value);
    else if (flag === '--tokens') options.tokens = list(value)[0]!;
    else if (flag === '--realtime' || flag === '--shared-steps') {
      if (flag === '--realtime') options.realtime = true;
      else options.sharedSteps = true;
      continue;
    } else throw new Error(`unknown option ${flag} (see the header of bench/shard-capacity.ts)`);
    i++;
  }
  return options;
}

interface Row {
  streams: number;
  shards: number | null;
  boundMs: number;
  overBound: number;
  worstBoundMs: number;
  eventsPerS: number;
  completed: number;
}

function runBench(args: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [BIN, 'bench', ...args], { maxBuffer: 64 * 1024 * 1024 }, (error, _stdout, stderr) => {
      if (error) reject(new Error(`bench failed: ${stderr.trim().split('\n').at(-1) ?? error.message}`));
      else resolve();
    });
  });
}

async function measure(url: string, streams: number, shards: number | null, options: Options, dir: string): Promise<Row> {
  const file = join(dir, `s${streams}-k${shards ?? 0}.jsonl`);
  await runBench([
    '--base-url', url, '--model', MODEL, '--backend', 'sglang', '--dataset-name', 'random', '--random-input-len', '16',
    '--random-output-len', String(options.tokens), '--num-prompts', String(streams), '--max-concurrency', String(streams),
    '--warmup-requests', '0', '--output-file', file, '--no-catalog', '--disable-tqdm', '--no-server-metrics',
    ...(options.realtime ? ['--realtime'] : []),
    ...(shards === null ? [] : ['--shards', String(shards)]),
  ]);
  const record = JSON.parse(readFileSync(file, 'utf8').trim().split('\n').at(-1)!.replace(/\bInfinity\b/g, '1e999')) as Record<string, number> & {
    servebench: Record<string, number>;
  };
  const { servebench } = record;
  return {
    streams,
    shards,
    boundMs: servebench.timing_error_bound_ms!,
    overBound: servebench.requests_over_timing_error_bound!,
    worstBoundMs: servebench.max_timing_error_bound_ms!,
    eventsPerS: record.total_output_tokens! / record.duration!,
    completed: record.completed!,
  };
}

function printRows(rows: readonly Row[]): void {
  console.log('| client | streams | events/s | calm bound (ms) | requests over it | worst bound (ms) | held within 3 ms |');
  console.log('|---|---|---|---|---|---|---|');
  for (const row of rows) {
    const client = row.shards === null ? 'one process' : `--shards ${row.shards}`;
    const held = row.worstBoundMs <= BOUND_MS ? 'yes' : 'no';
    console.log(`| ${client} | ${row.streams} | ${Math.round(row.eventsPerS)} | ${row.boundMs.toFixed(2)} | ${row.overBound} | ${row.worstBoundMs.toFixed(2)} | ${held} |`);
  }
  for (const shards of [null, ...new Set(rows.map((row) => row.shards).filter((k) => k !== null))]) {
    const held = rows.filter((row) => row.shards === shards && row.worstBoundMs <= BOUND_MS);
    const best = held.reduce<Row | null>((top, row) => (top === null || row.streams > top.streams ? row : top), null);
    const client = shards === null ? 'one process' : `--shards ${shards}`;
    console.log(best === null ? `${client}: no load held within ${BOUND_MS} ms` : `${client}: held within ${BOUND_MS} ms up to ${best.streams} streams, ${Math.round(best.eventsPerS)} events/s`);
  }
}

const options = parseOptions(process.argv.slice(2));
const dir = mkdtempSync(join(tmpdir(), 'servebench-shard-capacity-'));
console.log(
  `${availableParallelism()} cores; truth sim TTFT ${options.ttftMs} ms, ITL ${options.itlMs} ms, ${options.tokens} tokens a request` +
    `${options.sharedSteps ? ', every stream on one step clock' : ''}${options.realtime ? '; client and sim under SCHED_FIFO where permitted' : ''}`,
);
try {
  const rows = await withTruthSim({ ttftMs: options.ttftMs, itlMs: options.itlMs, sharedSteps: options.sharedSteps, realtime: options.realtime }, async (sim) => {
    const measured: Row[] = [];
    for (const streams of options.streams) {
      for (const shards of [null, ...options.shards]) {
        const row = await measure(sim.url, streams, shards, options, dir);
        if (row.completed !== streams) throw new Error(`${row.completed} of ${streams} requests completed`);
        measured.push(row);
        console.error(`measured ${streams} streams, ${shards === null ? 'one process' : `${shards} shards`}: worst bound ${row.worstBoundMs.toFixed(2)} ms`);
      }
    }
    return measured;
  });
  printRows(rows);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
