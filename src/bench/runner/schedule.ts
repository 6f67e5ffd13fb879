/**
 * When each request is sent (spec §4.5), precomputed as absolute offsets from the start of the
 * run so sends do not drift and no trailing sleep inflates the duration (Q6 F). The random draws
 * are the reference's, in its order: for each row the LoRA pick, then (finite rate) one
 * exponential interval, including the interval drawn after the last row.
 */
import type { NumpyRandomState } from '../../core/rng.js';
import type { DatasetRow } from '../types.js';

export interface ScheduledRequest {
  row: DatasetRow;
  /** Index of the row in dataset order (outputs keep this order). */
  index: number;
  /** Seconds after the run start at which the request is released. */
  sendAt: number;
  loraName: string | null;
}

/** Poisson (or all-at-once for an infinite rate) arrivals in dataset order. */
export function poissonSchedule(
  rows: readonly DatasetRow[],
  requestRate: number,
  pickLora: () => string | null,
  numpy: NumpyRandomState,
): ScheduledRequest[] {
  const schedule: ScheduledRequest[] = [];
  let sendAt = 0;
  rows.forEach((row, index) => {
    const loraName = pickLora();
    schedule.push({ row, index, sendAt, loraName });
    if (requestRate !== Infinity) sendAt += numpy.exponential(1.0 / requestRate);
  });
  return schedule;
}

/** Trace replay (mooncake): each row is released at its own `timestamp`; the request rate is ignored (Q4 F). */
export function timestampSchedule(rows: readonly DatasetRow[], pickLora: () => string | null): ScheduledRequest[] {
  return rows.map((row, index) => ({ row, index, sendAt: row.timestamp ?? 0, loraName: pickLora() }));
}
