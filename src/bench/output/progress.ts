/**
 * A tqdm-like progress bar on stderr: `formatProgress` renders tqdm's default line
 * (` 50%|█████     | 100/200 [00:01<00:01, 99.50it/s]`) and `ProgressBar` redraws it in place
 * on a terminal (at most 10 times a second) or prints an occasional plain line when piped. While
 * streams receive nothing the line says so (`… no bytes for 12 s on 3 streams`), redrawn even
 * though no request finishes: a stalled run otherwise looks exactly like a slow one.
 */
import { formatFixed } from '../../core/pyformat.js';
import { silenceNoticeSeconds, type SilentTransfers } from '../transport/http-pool.js';

const BAR_WIDTH = 10;
/** tqdm's unicode bar: a space, then ⅛ … 8⁄8 blocks. */
const BAR_CHARS = ' ▏▎▍▌▋▊▉█';
const SUBSTEPS = BAR_CHARS.length - 1;

/** tqdm's `format_interval`: `MM:SS`, or `H:MM:SS` from one hour. */
export function formatInterval(seconds: number): string {
  const whole = Math.trunc(seconds);
  const secs = whole % 60;
  const minutes = Math.trunc(whole / 60) % 60;
  const hours = Math.trunc(whole / 3600);
  const two = (value: number): string => String(value).padStart(2, '0');
  return hours > 0 ? `${hours}:${two(minutes)}:${two(secs)}` : `${two(minutes)}:${two(secs)}`;
}

function bar(fraction: number): string {
  const clamped = Math.min(Math.max(fraction, 0), 1);
  const steps = Math.trunc(clamped * BAR_WIDTH * SUBSTEPS);
  const full = Math.trunc(steps / SUBSTEPS);
  if (full >= BAR_WIDTH) return (BAR_CHARS[SUBSTEPS] as string).repeat(BAR_WIDTH);
  return (BAR_CHARS[SUBSTEPS] as string).repeat(full) + BAR_CHARS[steps % SUBSTEPS] + ' '.repeat(BAR_WIDTH - full - 1);
}

function rateText(rate: number | null): string {
  if (rate === null || rate === 0) return '?it/s';
  if (1 / rate > 1) return `${formatFixed(1 / rate, 2).padStart(5)}s/it`;
  return `${formatFixed(rate, 2).padStart(5)}it/s`;
}

/** tqdm's default bar line for `done` of `total` items after `elapsedS` seconds (average rate). */
export function formatProgress(done: number, total: number, elapsedS: number): string {
  const rate = done > 0 && elapsedS > 0 ? done / elapsedS : null;
  const remaining = rate !== null && total > 0 ? formatInterval((total - done) / rate) : '?';
  const fraction = total > 0 ? done / total : 0;
  const percent = formatFixed(fraction * 100, 0).padStart(3);
  return `${percent}%|${bar(fraction)}| ${done}/${total} [${formatInterval(elapsedS)}<${remaining}, ${rateText(rate)}]`;
}

/** ` no bytes for 12 s on 3 streams`, or '' when no stream is silent. */
export function formatSilence(silent: SilentTransfers): string {
  if (silent.count === 0) return '';
  return ` no bytes for ${Math.floor(silent.longestSeconds)} s on ${silent.count} ${silent.count === 1 ? 'stream' : 'streams'}`;
}

/** The start-up line stating the stall timeout and when the progress line starts reporting silence. */
export function stallTimeoutNotice(streamIdleTimeout: number): string {
  const notice = silenceNoticeSeconds(streamIdleTimeout);
  return `A request that receives no byte for ${streamIdleTimeout} s fails as stalled (--stream-idle-timeout); streams silent for ${notice} s show on the progress line.`;
}

/** Where the bar writes: stderr, or any stream with `write` (tests). */
export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
}

export interface ProgressOptions {
  stream?: ProgressStream;
  /** Seconds on a monotonic clock (injectable for tests). */
  now?: () => number;
  /** The streams gone quiet, checked every second while the bar is open. */
  silentTransfers?: () => SilentTransfers;
}

/** Shortest gap between redraws on a terminal (tqdm's `mininterval`). */
const TTY_INTERVAL_S = 0.1;
/** Gap between plain lines when stderr is not a terminal. */
const PIPE_INTERVAL_S = 10;
/** How often silence is checked: the line counts it in whole seconds. */
const SILENCE_CHECK_MS = 1000;

/** Draws progress of `total` requests; call `update` per finished request and `close` once at the end. */
export class ProgressBar {
  private done = 0;
  private lastDrawS: number;
  private lastLength = 0;
  private readonly startS: number;
  private readonly stream: ProgressStream;
  private readonly now: () => number;
  private readonly interactive: boolean;
  private readonly silentTransfers: () => SilentTransfers;
  private readonly silenceTimer: NodeJS.Timeout | null;
  /** Whether the last line drawn reported silence. */
  private showedSilence = false;

  constructor(private readonly total: number, options: ProgressOptions = {}) {
    this.stream = options.stream ?? process.stderr;
    this.now = options.now ?? (() => performance.now() / 1000);
    this.interactive = this.stream.isTTY === true;
    this.silentTransfers = options.silentTransfers ?? (() => ({ count: 0, longestSeconds: 0 }));
    this.startS = this.now();
    this.lastDrawS = this.startS;
    this.draw(true);
    this.silenceTimer = options.silentTransfers ? setInterval(() => this.checkSilence(), SILENCE_CHECK_MS).unref() : null;
  }

  /** Counts `count` more finished items; redraws when the last draw is old enough. */
  update(count = 1): void {
    this.done += count;
    const gap = this.now() - this.lastDrawS;
    if (gap >= (this.interactive ? TTY_INTERVAL_S : PIPE_INTERVAL_S)) this.draw(true);
  }

  /** Draws the final state and ends the line; nothing is in flight any more (a load worker's last report may say otherwise). */
  close(): void {
    if (this.silenceTimer !== null) clearInterval(this.silenceTimer);
    this.draw(false);
    if (this.interactive) this.stream.write('\n');
  }

  /**
   * Redraws while streams are silent (and once when they recover, on a terminal). Piped, a silence
   * is printed when it begins and then every PIPE_INTERVAL_S, not every second.
   */
  checkSilence(): void {
    const silent = this.silentTransfers().count > 0;
    if (!silent && !this.showedSilence) return;
    if (this.interactive || (silent && (!this.showedSilence || this.now() - this.lastDrawS >= PIPE_INTERVAL_S))) this.draw(true);
  }

  private draw(withSilence: boolean): void {
    this.lastDrawS = this.now();
    const silence = withSilence ? formatSilence(this.silentTransfers()) : '';
    this.showedSilence = silence !== '';
    const line = formatProgress(this.done, this.total, this.lastDrawS - this.startS) + silence;
    if (this.interactive) {
      this.stream.write(`\r${line}${' '.repeat(Math.max(this.lastLength - line.length, 0))}`);
      this.lastLength = line.length;
    } else {
      this.stream.write(`${line}\n`);
    }
  }
}

/** A bar for `total` items, or null under `--disable-tqdm`. */
export function createProgressBar(total: number, disabled: boolean, options: ProgressOptions = {}): ProgressBar | null {
  return disabled ? null : new ProgressBar(total, options);
}
