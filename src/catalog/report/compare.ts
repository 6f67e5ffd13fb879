/**
 * Side-by-side comparison of runs: every metric with its relative change against the first run,
 * and, where both runs kept per-request records, a Welch interval (95% unless asked otherwise) on
 * the difference of mean TTFT and mean TPOT, so a change is flagged only when it exceeds the noise.
 */
import { DEFAULT_CONFIDENCE_LEVEL, welchInterval } from '../../core/confidence.js';
import { mean } from '../../core/stats.js';
import { definitionOf, metricFamily } from '../metric-definitions.js';
import type { MetricValue, RequestRecord, RunRecord } from '../types.js';
import { formatSetting } from './text-table.js';
import { instanceFacts } from './run-facts.js';

export interface MetricRow {
  key: string;
  values: (MetricValue | undefined)[];
  /** Change of each run against the first, as a fraction (0.1 = +10%); null when not computable. */
  change: (number | null)[];
}

export interface NoiseCheck {
  metric: 'ttft_ms' | 'tpot_ms';
  /** Index of the run compared with run 0. */
  run: number;
  baselineMean: number;
  otherMean: number;
  difference: number;
  low: number;
  high: number;
  /** The interval's confidence level (0.95: 95%). */
  level: number;
  /** True when the interval of the difference excludes zero. */
  beyondNoise: boolean;
  samples: [number, number];
}

/** Metric rows over the union of the runs' metrics, in the order they first appear. */
export function compareMetrics(runs: readonly RunRecord[]): MetricRow[] {
  const keys: string[] = [];
  for (const run of runs) for (const key of Object.keys(run.metrics)) if (!keys.includes(key)) keys.push(key);
  return keys.map((key) => {
    const values = runs.map((r) => r.metrics[key]);
    const base = values[0];
    const change = values.map((v, i) =>
      i === 0 || typeof v !== 'number' || typeof base !== 'number' || base === 0 || !Number.isFinite(base) || !Number.isFinite(v) ? null : (v - base) / Math.abs(base),
    );
    return { key, values, change };
  });
}

/** A setting that is not the same in every compared run: its name and each run's value (null: the run does not state it). */
export interface SettingDifference {
  key: string;
  values: (string | null)[];
}

/** What the runs were run with, apart: their bench arguments, and their servers' launch configuration. */
export interface SettingDifferences {
  args: SettingDifference[];
  launch: SettingDifference[];
}

/** A run's value of a setting; null when the run does not state it. */
function settingText(value: unknown): string | null {
  return value === undefined || value === null ? null : formatSetting(value);
}

/** Rows of the keys whose values are not all the same, in the order the keys first appear. */
function differing(settings: readonly Record<string, unknown>[]): SettingDifference[] {
  const keys: string[] = [];
  for (const setting of settings) for (const key of Object.keys(setting)) if (!keys.includes(key)) keys.push(key);
  return keys
    .map((key) => ({ key, values: settings.map((setting) => settingText(setting[key])) }))
    .filter((row) => new Set(row.values).size > 1);
}

/** A run's launch configuration as flat settings: `mixed.tpSize`, `mixed.hardware`, `prefill.disaggregationMode`, `decode#2.dpSize`, ... */
function launchSettings(run: RunRecord): Record<string, unknown> {
  const settings: Record<string, unknown> = {};
  const seen = new Map<string, number>();
  for (const instance of run.recipe?.instances ?? []) {
    const n = (seen.get(instance.role) ?? 0) + 1;
    seen.set(instance.role, n);
    const name = n === 1 ? instance.role : `${instance.role}#${n}`;
    for (const [field, value] of Object.entries(instanceFacts(instance))) settings[`${name}.${field}`] = value;
  }
  return settings;
}

/** The bench arguments and launch-configuration facts that differ between the runs (compare shows them beside the metric deltas). */
export function settingDifferences(runs: readonly RunRecord[]): SettingDifferences {
  return { args: differing(runs.map((run) => run.args ?? {})), launch: differing(runs.map(launchSettings)) };
}

/** A measured quantity the compared runs define differently (e.g. ITL as every gap vs a per-request average). */
export interface DefinitionDifference {
  /** The metric family, e.g. `itl_ms`. */
  family: string;
  /** The compared keys of that family, e.g. `mean_itl_ms`, `p99_itl_ms`. */
  keys: string[];
  /** Each run's definition of the family (null: the run does not have it). */
  definitions: (string | null)[];
}

/** The families of the compared metrics that at least two runs have with different definitions. */
export function definitionDifferences(runs: readonly RunRecord[], rows: readonly MetricRow[]): DefinitionDifference[] {
  const byFamily = new Map<string, DefinitionDifference>();
  for (const row of rows) {
    const present = row.values.map((v) => v !== undefined);
    if (present.filter(Boolean).length < 2) continue;
    const definitions = runs.map((run, i) => (present[i] ? definitionOf(run.metricDefinitions, row.key) : null));
    const distinct = new Set(definitions.filter((d): d is string => d !== null));
    if (distinct.size < 2) continue;
    const family = metricFamily(row.key);
    const difference = byFamily.get(family);
    if (difference) {
      difference.keys.push(row.key);
      difference.definitions = difference.definitions.map((d, i) => d ?? definitions[i] ?? null);
    } else {
      byFamily.set(family, { family, keys: [row.key], definitions });
    }
  }
  return [...byFamily.values()];
}

/** Per-request TTFT (ms) of successful requests. */
export function requestTtftsMs(requests: readonly RequestRecord[]): number[] {
  return requests.filter((r) => r.success && r.ttft !== null).map((r) => r.ttft! * 1000);
}

/** Per-request TPOT (ms) as bench_serving defines it: (latency − ttft) / (output_len − 1) for output_len > 1. */
export function requestTpotsMs(requests: readonly RequestRecord[]): number[] {
  const out: number[] = [];
  for (const r of requests) {
    if (!r.success || r.ttft === null || r.outputLen === null || r.outputLen <= 1) continue;
    const decode = r.latency !== null ? r.latency - r.ttft : r.itl.length ? r.itl.reduce((a, b) => a + b, 0) : null;
    if (decode !== null) out.push((decode / (r.outputLen - 1)) * 1000);
  }
  return out;
}

/** Noise checks of each run against run 0 at `level`, for TTFT and TPOT, where both have per-request records. */
export function noiseChecks(requestsPerRun: readonly (readonly RequestRecord[])[], level = DEFAULT_CONFIDENCE_LEVEL): NoiseCheck[] {
  const checks: NoiseCheck[] = [];
  const extractors = [['ttft_ms', requestTtftsMs], ['tpot_ms', requestTpotsMs]] as const;
  for (const [metric, extract] of extractors) {
    const baseline = extract(requestsPerRun[0] ?? []);
    for (let run = 1; run < requestsPerRun.length; run++) {
      const other = extract(requestsPerRun[run]!);
      const interval = welchInterval(baseline, other, level);
      if (!interval) continue;
      const { difference, low, high, beyondNoise } = interval;
      checks.push({ metric, run, baselineMean: mean(baseline), otherMean: mean(other), difference, low, high, level, beyondNoise, samples: [baseline.length, other.length] });
    }
  }
  return checks;
}
