/**
 * The machine-readable summary of a sweep (`--json FILE`): one entry per point with its result
 * record, goodput and SLO verdict, plus the knee and the peak. Per-request records stay in the
 * catalog; this file is for scripts that compare sweeps.
 */
import type { LoadKind } from './load-series.js';
import { formatSlo, targetLabel, type Slo } from './slo.js';
import { highestMeeting, peakPoint, type SweepPoint } from './sweep.js';

export interface SweepJsonInput {
  mode: 'predict' | 'sim' | 'server';
  kind: LoadKind;
  cards: number;
  slo: Slo | null;
  points: readonly SweepPoint[];
  /** The SLO search's answer, when one ran (else the highest series point meeting the SLO). */
  knee?: SweepPoint | null;
  runs: number;
}

function loadValue(load: number): number | string {
  return Number.isFinite(load) ? load : 'inf';
}

function pointJson(point: SweepPoint): Record<string, unknown> {
  return {
    load: loadValue(point.load),
    run_id: point.runId,
    metrics: point.metrics,
    // A point measured several times: the runs, the level and each headline figure's interval half-width.
    ...(point.repeat
      ? { repeat: { runs: point.repeat.runs, confidence_level: point.repeat.level, half_widths: Object.fromEntries(point.repeat.figures.map((f) => [f.figure.key, f.halfWidth])) } }
      : {}),
    goodput: point.goodput && { request_goodput: point.goodput.requestGoodput, good_requests: point.goodput.goodRequests, good_fraction: point.goodput.goodFraction },
    slo_met: point.verdict ? point.verdict.met : null,
    slo_observed_ms: point.verdict ? Object.fromEntries(point.verdict.targets.map((t) => [targetLabel(t.target), t.observedMs])) : null,
  };
}

/** Builds the JSON document (serialise with `JSON.stringify`). */
export function sweepJson(input: SweepJsonInput): Record<string, unknown> {
  const sorted = [...input.points].sort((a, b) => a.load - b.load);
  const peak = peakPoint(sorted);
  const knee = input.knee !== undefined ? input.knee : input.slo ? highestMeeting(sorted) : null;
  return {
    mode: input.mode,
    load_kind: input.kind,
    cards: input.cards,
    slo: input.slo ? formatSlo(input.slo) : null,
    runs: input.runs,
    points: sorted.map(pointJson),
    peak_load: peak ? loadValue(peak.load) : null,
    knee_load: knee ? loadValue(knee.load) : null,
  };
}
