/**
 * The log `servebench sim` prints where SGLang's server prints its own: the scheduler's
 * `Prefill batch` / `Decode batch` lines from the engine's rank steps and, with `--log-requests`,
 * a `Receive` and a `Finish` line per request, each stamped with the wall-clock time its engine
 * time maps to. SGLang logs all of them at INFO, so `--log-level warning` (or above) silences them.
 * Only the CLI server has one: the sim that `bench`, `sweep` and `predict` embed stays silent.
 */
import type { RankStepObserver } from '../engine/rank-step.js';
import type { ResolvedInstance } from '../model/resolve-instance.js';
import type { LaunchConfig } from '../../deployment/index.js';
import type { EngineClock } from './engine-clock.js';
import { logLine, logTimestamp } from './log-line.js';
import { finishMessage, receiveMessage, type LoggedOutput, type LoggedRequest } from './request-log-format.js';
import { schedulerMessage } from './scheduler-log-format.js';
import { SchedulerLog } from './scheduler-log-lines.js';

/** Levels at which Python logging lets INFO records through. */
const PRINTS_INFO = new Set<LaunchConfig['logLevel']>(['info', 'debug']);

export class ServerLog {
  private readonly scheduler: SchedulerLog | null;

  /** `deployment` is null for a truth-mode sim of a model the catalog does not know (its engine has no scheduler). */
  constructor(
    private readonly launch: LaunchConfig,
    deployment: ResolvedInstance | null,
    private readonly clock: EngineClock,
    private readonly write: (line: string) => void,
  ) {
    const shape =
      deployment === null
        ? null
        : { tp: deployment.tp, ep: deployment.ep, attentionDp: deployment.attentionDp, replicas: deployment.replicas, draftTokens: deployment.speculative?.draftTokens ?? null };
    this.scheduler = shape !== null && PRINTS_INFO.has(launch.logLevel) ? new SchedulerLog(shape, launch.decodeLogInterval) : null;
  }

  /** Whether `--log-requests` asked for request lines (and the level lets them through). */
  get logsRequests(): boolean {
    return this.launch.logRequests && PRINTS_INFO.has(this.launch.logLevel);
  }

  /** The engine's rank-step observer, or undefined when no scheduler line would print. */
  get rankStepObserver(): RankStepObserver | undefined {
    const scheduler = this.scheduler;
    if (scheduler === null) return undefined;
    return (step) => {
      const timestamp = logTimestamp(this.clock.toDate(step.time));
      for (const line of scheduler.observe(step)) this.write(logLine(timestamp, line.tag, schedulerMessage(line)));
    };
  }

  received(request: LoggedRequest): void {
    if (this.logsRequests) this.write(logLine(this.now(), null, receiveMessage(request, this.launch.logRequestsLevel)));
  }

  finished(request: LoggedRequest, output: LoggedOutput): void {
    if (this.logsRequests) this.write(logLine(this.now(), null, finishMessage(request, output, this.launch.logRequestsLevel)));
  }

  private now(): string {
    return logTimestamp(new Date());
  }
}
