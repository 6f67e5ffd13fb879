/**
 * Finds the highest load that still meets an SLO with few runs: bracket by doubling (or halving,
 * when even the first load fails), then bisect between the last passing and first failing load
 * until the gap is within the tolerance. Assumes that latency grows with load, which holds for a
 * serving engine up to run-to-run noise.
 */
import type { LoadKind } from './load-series.js';

export interface KneeSearchOptions<R extends { met: boolean }> {
  kind: LoadKind;
  /** First load tried. */
  start: number;
  /** Highest load ever tried. */
  limit: number;
  /**
   * Stop bisecting once the bracket is at most this share of the passing load. Concurrency never
   * resolves below 1; 0 means exact for concurrency (rates need a positive tolerance).
   */
  tolerance: number;
  /** Runs one benchmark at a load and says whether it met the SLO. */
  probe(load: number): Promise<R>;
}

export interface KneePoint<R> {
  load: number;
  result: R;
}

export interface KneeSearchResult<R> {
  /** The highest load that met the SLO; undefined when none did. */
  best: KneePoint<R> | undefined;
  /** The lowest load seen to break it; undefined when even the limit met it. */
  firstFailing: KneePoint<R> | undefined;
  /** Every run in the order made (one per distinct load). */
  runs: KneePoint<R>[];
}

const GROWTH = 2;
/** A rate search that keeps failing gives up this many halvings below its start. */
const MAX_HALVINGS = 10;

function bracketWidthAllowed(kind: LoadKind, passing: number, tolerance: number): number {
  const relative = passing * tolerance;
  return kind === 'concurrency' ? Math.max(1, Math.floor(relative)) : relative;
}

function midpoint(kind: LoadKind, low: number, high: number): number {
  return kind === 'concurrency' ? Math.floor((low + high) / 2) : (low + high) / 2;
}

/** Runs the search; every load is probed at most once. */
export async function searchKnee<R extends { met: boolean }>(options: KneeSearchOptions<R>): Promise<KneeSearchResult<R>> {
  const { kind, limit, tolerance } = options;
  if (kind === 'rate' && !(tolerance > 0)) throw new RangeError('a rate search needs a positive tolerance');
  const runs: KneePoint<R>[] = [];
  const seen = new Map<number, R>();
  const probe = async (load: number): Promise<boolean> => {
    let result = seen.get(load);
    if (result === undefined) {
      result = await options.probe(load);
      seen.set(load, result);
      runs.push({ load, result });
    }
    return result.met;
  };

  let passing: number | undefined;
  let failing: number | undefined;
  const start = Math.min(options.start, limit);
  if (await probe(start)) {
    passing = start;
    while (failing === undefined && passing < limit) {
      const next = Math.min(passing * GROWTH, limit);
      if (await probe(next)) passing = next;
      else failing = next;
    }
  } else {
    let lowestFailing = start;
    const floor = kind === 'concurrency' ? 1 : start / GROWTH ** MAX_HALVINGS;
    while (passing === undefined && lowestFailing > floor) {
      const next: number = kind === 'concurrency' ? Math.max(1, Math.floor(lowestFailing / GROWTH)) : lowestFailing / GROWTH;
      if (await probe(next)) passing = next;
      else lowestFailing = next;
    }
    failing = lowestFailing;
  }

  if (passing !== undefined && failing !== undefined) {
    while (failing - passing > bracketWidthAllowed(kind, passing, tolerance)) {
      const middle = midpoint(kind, passing, failing);
      if (await probe(middle)) passing = middle;
      else failing = middle;
    }
  }

  const point = (load: number | undefined): KneePoint<R> | undefined =>
    load === undefined ? undefined : { load, result: seen.get(load) as R };
  return { best: point(passing), firstFailing: point(failing), runs };
}
