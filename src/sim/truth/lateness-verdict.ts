/**
 * The simulated server's verdict on its own timing (pure): how late it wrote chunks compared with
 * the schedule its model computed. A sim that falls behind (too little CPU for the load) delivers
 * several steps' chunks at once, which a client then measures as zero inter-token gaps.
 */
export interface LatenessSummary {
  chunks: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/** p99 write lateness above which the served timeline no longer follows the model. */
export const SIM_BEHIND_P99_MS = 2;

/** The summary of a run that wrote nothing (or whose sim thread is gone). */
export const NO_LATENESS: LatenessSummary = { chunks: 0, p50Ms: 0, p99Ms: 0, maxMs: 0 };

/**
 * One summary for several sims (a PD deployment's instances): chunks summed, each figure the worst
 * instance's. A share of chunks later than x in every instance is that share of all of them, so the
 * worst p50 and p99 bound the deployment's own: the verdict never claims less lateness than it had.
 */
export function worstLateness(summaries: readonly LatenessSummary[]): LatenessSummary {
  return summaries.reduce(
    (worst, summary) => ({
      chunks: worst.chunks + summary.chunks,
      p50Ms: Math.max(worst.p50Ms, summary.p50Ms),
      p99Ms: Math.max(worst.p99Ms, summary.p99Ms),
      maxMs: Math.max(worst.maxMs, summary.maxMs),
    }),
    NO_LATENESS,
  );
}

/**
 * One console line: the sim's timing error, and a warning with the fix when it fell behind.
 * `timeScale` > 1: the engine ran that many times slower than the wall clock and the figures are
 * in its time (the wall lateness divided by it), as the run's are; the line says so.
 */
export function judgeSimWrites(summary: LatenessSummary, timeScale = 1): { behind: boolean; line: string } {
  const figures =
    `write lateness p50 ${summary.p50Ms.toFixed(2)} ms, p99 ${summary.p99Ms.toFixed(2)} ms, ` +
    `max ${summary.maxMs.toFixed(1)} ms over ${summary.chunks} chunks`;
  const scaled = timeScale === 1 ? '' : `; the engine ran ${formatScale(timeScale)}x slower than the wall clock and every time above is divided by ${formatScale(timeScale)}`;
  const behind = summary.p99Ms > SIM_BEHIND_P99_MS;
  const line = behind
    ? `WARNING simulated server fell behind its model (${figures}${scaled}): this machine cannot serve the simulated load on time, ` +
      `so latencies above include its delay; rerun with a --sim-time-scale above ${formatScale(timeScale)}, or 'servebench predict' gives the model's figures`
    : `Simulated server self-check: ${figures}${scaled}`;
  return { behind, line };
}

/** A time scale as written on the command line (`4`, `2.5`). */
function formatScale(timeScale: number): string {
  return Number.isInteger(timeScale) ? String(timeScale) : String(Number(timeScale.toFixed(3)));
}
