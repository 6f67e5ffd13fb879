/**
 * The coordinator of a sharded run. It builds the run's request list as every shard does, listens
 * for the shards, welcomes each (the server to drive, the model, the sim's time scale, its slice of
 * `--max-concurrency`), and waits until every one has warmed up and reported ready with the same
 * request list. Then it measures each shard's clock offset, gives one start instant, shows one
 * progress bar, and merges the raw outputs exactly (merge.ts) into the run one process would have
 * measured, on its own clock. A shard that dies, refuses or misses the barrier fails the run by
 * name; nothing partial is reported as whole.
 */
import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BenchRngs } from '../../core/rng.js';
import type { RunHeaders } from '../backends/index.js';
import type { ServerAddress } from '../args/urls.js';
import type { BenchRunConfig } from '../run-config.js';
import { buildSchedule, checkRequests, flushCacheIfAsked, inServerTime, readAcceptLength, startScrapeIfAsked, type BenchmarkRun, type PreparedBenchmark, type Progress } from '../runner/benchmark.js';
import type { InterruptWatch } from '../runner/interrupt.js';
import type { ScheduledRequest } from '../runner/schedule.js';
import { loopHealthInServerTime } from '../runner/time-scale.js';
import type { ServerScrape } from '../server-metrics/scraper.js';
import type { BenchTarget } from '../target.js';
import type { HttpPool, SilentTransfers } from '../transport/http-pool.js';
import type { Dataset } from '../types.js';
import { MessageChannel, type CoordinatorMessage, type ShardMessage, type ShardReport } from './channel.js';
import { hostClockSeconds, offsetFromProbes, runToHostSeconds, type ClockOffset, type ClockProbe } from './clock.js';
import { outputsShiftedBy } from '../workers/clock.js';
import { mergeShardItems } from './merge.js';
import { ShardFailed } from './shard-link.js';
import { concurrencySlices, ownRequests, scheduleFingerprint, shardOfRequest, splitNotice } from './split.js';
import { shardSummary } from './summary.js';

/** Shard processes this host started (`--shards K` without a role): the coordinator hears when one exits. */
export interface LaunchedShards {
  /** `handler(rank, how)` when shard `rank` exits, `how` saying with what ("exited with status 1: <its last line>"). */
  onExit(handler: (rank: number, how: string) => void): void;
  /** Ends the shards still running and waits for them. */
  stop(): Promise<void>;
}

export interface CoordinatorPlan {
  config: BenchRunConfig;
  target: BenchTarget;
  /** The server the shards drive: the config's, or the sim this process started. */
  server: ServerAddress;
  dataset: Dataset;
  rngs: BenchRngs;
  pool: HttpPool;
  headers: RunHeaders;
  env: NodeJS.ProcessEnv;
  notice: (line: string) => void;
  createProgress: (total: number, silentTransfers: () => SilentTransfers) => Progress | null;
  interrupts: InterruptWatch;
  timeScale: number;
  shards: number;
  /** Where to listen for the shards (port 0: any free port, which `launch` is told). */
  listen: { host: string; port: number };
  /** Seconds every shard has to register and report ready. */
  timeoutS: number;
  /** Starts this host's shard processes once the port is known; null when they run elsewhere. */
  launch: ((port: number) => LaunchedShards) | null;
}

/** Probes per shard; the one with the least round trip gives the offset. */
const CLOCK_PROBES = 8;
/** From the start message to the start instant: every shard must have it before its first send (s). */
const START_LEAD_S = 0.3;

interface Member {
  rank: number;
  host: string;
  pid: number;
  runToHost: number;
  channel: MessageChannel<ShardMessage, CoordinatorMessage>;
  ready: boolean;
  /** Its sent requests as their batches come in, then its whole report. */
  items: ShardReport['items'];
  report: ShardReport | null;
  probes: Map<number, (at: number) => void>;
}

/** The run's request list, the shards' barrier and their merge: what `bench --shards` measures with. */
export async function coordinateShards(plan: CoordinatorPlan): Promise<PreparedBenchmark> {
  const multiTurn = checkRequests(plan.config, plan.dataset);
  const schedule = buildSchedule(plan);
  const slices = concurrencySlices(plan.config.load.maxConcurrency, plan.shards);
  plan.notice(splitNotice(plan.shards, schedule.length, slices));
  const coordinator = new Coordinator(plan, schedule, slices, multiTurn);
  try {
    await coordinator.gather();
    await flushCacheIfAsked(plan);
  } catch (error) {
    await coordinator.close();
    throw error;
  }
  return { measure: () => coordinator.measure(), close: () => coordinator.close() };
}

class Coordinator {
  private readonly members = new Map<number, Member>();
  private readonly fingerprint: string;
  private server: Server | null = null;
  private launched: LaunchedShards | null = null;
  private failure: Error | null = null;
  private readonly failed: Promise<never>;
  private fail: (error: Error) => void = () => {};
  private wake: () => void = () => {};
  private progress: Progress | null = null;
  private nextProbe = 0;

  constructor(
    private readonly plan: CoordinatorPlan,
    private readonly schedule: readonly ScheduledRequest[],
    private readonly slices: ReadonlyArray<number | null>,
    private readonly multiTurn: boolean,
  ) {
    this.fingerprint = scheduleFingerprint(schedule);
    this.failed = new Promise<never>((_, reject) => {
      this.fail = (error) => {
        if (this.failure !== null) return;
        this.failure = error;
        reject(error);
      };
    });
    // Awaited only inside races; never left unhandled.
    this.failed.catch(() => {});
  }

  /** Listens, starts this host's shards if asked, and waits until every shard is ready. */
  async gather(): Promise<void> {
    const { plan } = this;
    const server = createServer((socket) => this.accept(socket));
    this.server = server;
    server.listen(plan.listen.port, plan.listen.host);
    await Promise.race([once(server, 'listening'), this.failed]);
    const { port } = server.address() as { port: number };
    plan.notice(`servebench coordinator: listening on port ${port} (${plan.listen.host}) for ${plan.shards} shards`);
    if (plan.launch !== null) {
      this.launched = plan.launch(port);
      this.launched.onExit((rank, how) => {
        if (this.members.get(rank)?.report == null) this.fail(new ShardFailed(`shard ${rank} of ${plan.shards} ${how} before sending its results: the run is incomplete and nothing was reported`));
      });
    }
    const deadline = sleep(plan.timeoutS * 1000, 'timeout', { ref: false });
    while (!this.allReady()) {
      const outcome = await Promise.race([this.changed(), deadline, this.failed]);
      if (outcome === 'timeout' && !this.allReady()) {
        const missing = this.ranks().filter((rank) => !this.members.get(rank)?.ready);
        const registered = [...this.members.values()].filter((member) => !member.channel.isClosed).map((member) => member.rank);
        this.fail(
          new ShardFailed(
            `shard${missing.length > 1 ? 's' : ''} ${missing.join(', ')} of ${plan.shards} did not report ready within ${plan.timeoutS} s (connected: ${registered.length === 0 ? 'none' : registered.join(', ')}): start every shard with the same bench flags, --shards ${plan.shards} and --coordinator, or raise --shard-timeout`,
          ),
        );
        await this.failed;
      }
    }
  }

  /** The measured phase: clock offsets, one start instant, the shards' outputs merged on this clock. */
  async measure(): Promise<BenchmarkRun> {
    const { plan } = this;
    const members = this.ranks().map((rank) => this.members.get(rank)!);
    const offsets = await Promise.race([Promise.all(members.map((member) => this.measureOffset(member))), this.failed]);
    const startHost = hostClockSeconds() + START_LEAD_S;
    members.forEach((member, i) => member.channel.send({ type: 'start', at: startHost + offsets[i]!.offsetS }));
    const startedAt = startHost - runToHostSeconds();
    const unsubscribe = plan.interrupts.onStop((signal) => {
      for (const member of members) member.channel.send({ type: 'stop', signal });
    });
    let scrape: ServerScrape | null = null;
    try {
      scrape = await startScrapeIfAsked(plan);
      this.progress = plan.createProgress(this.schedule.length, () => ({ count: 0, longestSeconds: 0 }));
      while (members.some((member) => member.report === null)) {
        await Promise.race([this.changed(), this.failed]);
      }
      this.progress?.close();
      const stopped = plan.interrupts.signal !== null || members.some((member) => member.report!.stopped);
      const ownClock = runToHostSeconds();
      const shifts = members.map((member, i) => member.runToHost - offsets[i]!.offsetS - ownClock);
      const items = mergeShardItems(
        this.schedule.length,
        plan.shards,
        members.map((member, i) => ({
          rank: member.rank,
          // A shard's run clock to its host clock, minus its offset from this host's, minus this process's run-to-host.
          items: member.report!.items.map((item) => ({ index: item.index, outputs: outputsShiftedBy(item.outputs, shifts[i]!) })),
        })),
        stopped,
      );
      const endedAt = Math.max(...members.map((member, i) => member.report!.endedAt + shifts[i]!));
      const acceptLength = await readAcceptLength(plan);
      const serverScrape = (await scrape?.stop()) ?? null;
      scrape = null;
      const run = inServerTime(
        {
          outputs: items.flatMap((item) => item.outputs),
          rows: this.multiTurn ? null : items.map((item) => this.schedule[item.index]!.row),
          duration: endedAt - startedAt,
          acceptLength,
          loopHealth: members.flatMap((member) => member.report!.loopHealth),
          serverScrape,
          sent: items,
          startedAt,
        },
        plan.timeScale,
      );
      // Each shard judged as the run is, in the server's time: its requests' bounds and its loops.
      const shards = members.map((member, i) =>
        shardSummary({
          rank: member.rank,
          host: member.host,
          pid: member.pid,
          maxConcurrency: this.slices[member.rank - 1] ?? null,
          offset: offsets[i]!,
          outputs: run.sent.filter((item) => shardOfRequest(item.index, plan.shards) === member.rank).flatMap((item) => item.outputs),
          loopHealth: member.report!.loopHealth.map((sample) => loopHealthInServerTime(sample, plan.timeScale)),
        }),
      );
      return { ...run, shards };
    } finally {
      unsubscribe();
      await scrape?.stop();
    }
  }

  async close(): Promise<void> {
    // A shard told why the run ended fails with that reason, not only with a lost connection.
    const farewell: CoordinatorMessage | undefined = this.failure === null ? undefined : { type: 'refused', message: this.failure.message };
    for (const member of this.members.values()) member.channel.end(farewell);
    await this.launched?.stop();
    if (this.server !== null) {
      const closed = once(this.server, 'close');
      this.server.close();
      for (const member of this.members.values()) member.channel.destroy();
      await closed;
    }
  }

  /** Resolves at the next message that may change what is awaited: a shard ready, a report in. */
  private changed(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.wake = resolve;
    });
  }

  private ranks(): number[] {
    return Array.from({ length: this.plan.shards }, (_, i) => i + 1);
  }

  private allReady(): boolean {
    return this.ranks().every((rank) => this.members.get(rank)?.ready === true);
  }

  private async measureOffset(member: Member): Promise<ClockOffset> {
    const probes: ClockProbe[] = [];
    for (let i = 0; i < CLOCK_PROBES; i++) {
      const id = this.nextProbe++;
      const answered = new Promise<number>((resolve) => member.probes.set(id, resolve));
      const sentAt = hostClockSeconds();
      member.channel.send({ type: 'probe', id });
      const shardAt = await answered;
      probes.push({ sentAt, shardAt, receivedAt: hostClockSeconds() });
    }
    return offsetFromProbes(probes);
  }

  private accept(socket: Socket): void {
    let member: Member | null = null;
    const channel = new MessageChannel<ShardMessage, CoordinatorMessage>(
      socket,
      (message) => {
        if (member === null) member = this.hello(channel, message);
        else this.receive(member, message);
      },
      (error) => {
        if (member === null || member.report !== null || this.members.get(member.rank) !== member) return;
        this.fail(
          new ShardFailed(
            `shard ${member.rank} of ${this.plan.shards} (pid ${member.pid} on ${member.host}) went away before sending its results (its connection closed${error ? `: ${error.message}` : ''}): the run is incomplete and nothing was reported`,
          ),
        );
      },
    );
  }

  /** The first message of a connection: a shard of this run, under a rank nobody holds, is welcomed. */
  private hello(channel: MessageChannel<ShardMessage, CoordinatorMessage>, message: ShardMessage): Member | null {
    const { plan } = this;
    const refuse = (why: string): null => {
      channel.end({ type: 'refused', message: why });
      return null;
    };
    if (message.type !== 'hello') return refuse(`expected hello, got ${message.type}`);
    if (message.shards !== plan.shards) return refuse(`it was started with --shards ${message.shards}, the coordinator with --shards ${plan.shards}`);
    if (!Number.isInteger(message.rank) || message.rank < 1 || message.rank > plan.shards) return refuse(`rank ${message.rank} is not a shard's: shards are 1..${plan.shards}`);
    const holder = this.members.get(message.rank);
    if (holder !== undefined) {
      const why = `rank ${message.rank} was claimed twice (pid ${holder.pid} on ${holder.host}, then pid ${message.pid} on ${message.host}): give each shard its own rank`;
      refuse(why);
      this.fail(new ShardFailed(why));
      return null;
    }
    const member: Member = { rank: message.rank, host: message.host, pid: message.pid, runToHost: message.runToHost, channel, ready: false, items: [], report: null, probes: new Map() };
    this.members.set(member.rank, member);
    channel.send({ type: 'welcome', server: plan.server, model: plan.target.model, timeScale: plan.timeScale, concurrency: this.slices[member.rank - 1] ?? null });
    return member;
  }

  private receive(member: Member, message: ShardMessage): void {
    const { plan } = this;
    switch (message.type) {
      case 'ready': {
        const expected = ownRequests(this.schedule, member.rank, plan.shards).length;
        if (message.fingerprint !== this.fingerprint || message.requests !== expected) {
          this.fail(
            new ShardFailed(
              `shard ${member.rank} of ${plan.shards} built another request list than the coordinator (${message.requests} requests of its own, ${expected} expected): every shard needs the same bench flags, dataset file, tokenizer and seed`,
            ),
          );
          return;
        }
        member.ready = true;
        this.wake();
        break;
      }
      case 'probe-answer':
        member.probes.get(message.id)?.(message.at);
        member.probes.delete(message.id);
        break;
      case 'progress':
        this.progress?.update(message.done);
        break;
      case 'items':
        for (const item of message.items) member.items.push(item);
        break;
      case 'result':
        member.report = { ...message.report, items: member.items };
        // The report is in: the shard may go.
        member.channel.end();
        this.wake();
        break;
      case 'failed':
        this.fail(new ShardFailed(`shard ${member.rank} of ${plan.shards} (pid ${member.pid} on ${member.host}) failed: ${message.message}`));
        break;
      case 'hello':
        this.fail(new ShardFailed(`shard ${member.rank} of ${plan.shards} said hello twice`));
        break;
    }
  }
}
