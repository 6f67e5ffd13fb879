/**
 * What this machine keeps on time when one process both serves simulated streams and reads them
 * (`bench --sim`): the cost of one chunk written to a loopback socket and read back, and how late a
 * thread wakes from a short sleep. Measured once, in under half a second, and cached per machine
 * and Node version for a week in `$XDG_CACHE_HOME/servebench/real-time-capacity.json` (default
 * `~/.cache`). `--sim-time-scale auto` weighs a run's demand against them (runner/time-scale.ts).
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createConnection, createServer, type Socket } from 'node:net';
import { cpus, homedir, hostname } from 'node:os';
import { dirname, join } from 'node:path';

export interface RealTimeCapacity {
  /** Wall µs per chunk of a loopback stream, written by one side and read by the other on one thread. */
  chunkCostUs: number;
  /** p99 of how much later than asked a thread wakes from a 1 ms sleep (µs). */
  wakeP99Us: number;
}

interface CacheFile extends RealTimeCapacity {
  machine: string;
  node: string;
  measuredAt: string;
}

const CACHE_MAX_AGE_MS = 7 * 24 * 3600 * 1000;
/** Streams and chunks of the loopback measurement: a small server's step, many times. */
const STREAMS = 16;
const ROUNDS = 400;
/** A `/generate` stream chunk's size: a token's text, its meta_info, the SSE framing. */
const CHUNK = Buffer.from(`data: ${JSON.stringify({ text: 'x'.repeat(40), meta_info: { id: 'a'.repeat(32), completion_tokens: 10, e2e_latency: 0.1 } })}\n\n`);
const WAKES = 200;

function cachePath(env: NodeJS.ProcessEnv): string {
  const cacheHome = env.XDG_CACHE_HOME?.startsWith('/') ? env.XDG_CACHE_HOME : join(homedir(), '.cache');
  return join(cacheHome, 'servebench', 'real-time-capacity.json');
}

function machineName(): string {
  const cores = cpus();
  return `${hostname()} ${cores.length}x ${cores[0]?.model ?? 'unknown'}`;
}

function readCache(path: string, now: number): RealTimeCapacity | null {
  try {
    const cached = JSON.parse(readFileSync(path, 'utf8')) as Partial<CacheFile>;
    const fresh = now - Date.parse(cached.measuredAt ?? '') < CACHE_MAX_AGE_MS;
    const valid = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x) && x > 0;
    if (cached.machine !== machineName() || cached.node !== process.version || !fresh || !valid(cached.chunkCostUs) || !valid(cached.wakeP99Us)) return null;
    return { chunkCostUs: cached.chunkCostUs, wakeP99Us: cached.wakeP99Us };
  } catch {
    return null;
  }
}

/** Keeps the measurement; a cache that cannot be written only means measuring again next time. */
function writeCache(path: string, capacity: RealTimeCapacity, now: number): void {
  const file: CacheFile = { ...capacity, machine: machineName(), node: process.version, measuredAt: new Date(now).toISOString() };
  try {
    mkdirSync(dirname(path), { recursive: true });
    const partial = `${path}.${process.pid}.tmp`;
    writeFileSync(partial, JSON.stringify(file, null, 2) + '\n');
    renameSync(partial, path);
  } catch {
    // Not kept: the next auto run measures again.
  }
}

/** µs per chunk: STREAMS loopback sockets, ROUNDS rounds of one write each, read and split into events. */
async function measureChunkCost(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const accepted: Socket[] = [];
  const ready = new Promise<void>((resolve) =>
    server.on('connection', (socket) => {
      socket.setNoDelay(true);
      if (accepted.push(socket) === STREAMS) resolve();
    }),
  );
  let events = 0;
  const total = STREAMS * ROUNDS;
  let done: () => void = () => {};
  const received = new Promise<void>((resolve) => (done = resolve));
  const clients = Array.from({ length: STREAMS }, () => {
    const client = createConnection(port, '127.0.0.1');
    client.on('data', (bytes: Buffer) => {
      for (let at = bytes.indexOf('\n\n'); at !== -1; at = bytes.indexOf('\n\n', at + 2)) events++;
      if (events >= total) done();
    });
    return client;
  });
  await ready;
  const started = process.hrtime.bigint();
  for (let round = 0; round < ROUNDS; round++) {
    for (const socket of accepted) socket.write(CHUNK);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  await received;
  const elapsedUs = Number(process.hrtime.bigint() - started) / 1000;
  for (const client of clients) client.destroy();
  for (const socket of accepted) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return elapsedUs / total;
}

/** p99 oversleep of WAKES sleeps of 1 ms (µs). */
function measureWakeP99(): number {
  const cell = new Int32Array(new SharedArrayBuffer(4));
  const late: number[] = [];
  for (let i = 0; i < WAKES; i++) {
    const started = process.hrtime.bigint();
    Atomics.wait(cell, 0, 0, 1);
    late.push(Math.max(1, Number(process.hrtime.bigint() - started) / 1000 - 1000));
  }
  late.sort((a, b) => a - b);
  return late[Math.ceil(0.99 * late.length) - 1]!;
}

/** The machine's capacity: cached, else measured now (and cached). */
export async function realTimeCapacity(env: NodeJS.ProcessEnv = process.env, now = Date.now()): Promise<RealTimeCapacity> {
  const path = cachePath(env);
  const cached = readCache(path, now);
  if (cached !== null) return cached;
  const capacity = { chunkCostUs: await measureChunkCost(), wakeP99Us: measureWakeP99() };
  writeCache(path, capacity, now);
  return capacity;
}
