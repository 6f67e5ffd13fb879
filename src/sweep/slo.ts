/**
 * Service-level objectives: parsing `--slo tpot=20ms,ttft=2s,p99-ttft=3s` and judging a run by them.
 *
 * A target is a statistic of one latency metric with an upper limit. The statistic defaults to the
 * mean because that is what the best-practice tables quote; `median-` and `pNN-` prefixes select
 * others. Limits are stored in milliseconds, the unit of every bench_serving latency figure.
 */
import { UsageError } from '../core/errors.js';

/** Latency metrics an SLO can bound, named as in the result block. */
export type SloMetric = 'ttft' | 'tpot' | 'itl' | 'e2e';

export type SloStatistic = { kind: 'mean' } | { kind: 'median' } | { kind: 'percentile'; p: number };

export interface SloTarget {
  metric: SloMetric;
  statistic: SloStatistic;
  limitMs: number;
}

export interface Slo {
  targets: SloTarget[];
}

const METRIC_ALIASES: Record<string, SloMetric> = {
  ttft: 'ttft',
  tpot: 'tpot',
  itl: 'itl',
  e2e: 'e2e',
  e2el: 'e2e',
  latency: 'e2e',
};

const FORMAT_HINT = "write targets like 'tpot=20ms,ttft=2s,p99-ttft=3s' (metrics ttft, tpot, itl, e2e; statistics mean, median, pNN; units ms or s)";

function parseStatistic(text: string, item: string): SloStatistic {
  if (text === 'mean' || text === 'avg') return { kind: 'mean' };
  if (text === 'median') return { kind: 'median' };
  const match = /^p(\d+(?:\.\d+)?)$/.exec(text);
  if (match) {
    const p = Number(match[1]);
    if (p > 0 && p < 100) return { kind: 'percentile', p };
  }
  throw new UsageError(`--slo: unknown statistic '${text}' in '${item}'; use mean, median or a percentile such as p99`);
}

/** Parses a duration such as `20ms`, `2s`, `1.5s` or a bare number (milliseconds, as vLLM's --goodput). */
export function parseDurationMs(text: string, item: string): number {
  const match = /^(\d+(?:\.\d+)?|\.\d+)(ms|s)?$/.exec(text.trim());
  if (!match) throw new UsageError(`--slo: cannot read the limit '${text}' in '${item}'; ${FORMAT_HINT}`);
  const value = Number(match[1]);
  const ms = match[2] === 's' ? value * 1000 : value;
  if (!(ms > 0)) throw new UsageError(`--slo: the limit in '${item}' must be above zero`);
  return ms;
}

function parseTarget(item: string): SloTarget {
  const separator = item.search(/[=:]/);
  if (separator < 0) throw new UsageError(`--slo: '${item}' has no limit; ${FORMAT_HINT}`);
  const key = item.slice(0, separator).trim().toLowerCase();
  const limitMs = parseDurationMs(item.slice(separator + 1), item);
  // Both `p99-ttft` and `ttft-p99` read naturally; accept either order.
  const parts = key.split(/[-_]/).filter((part) => part.length > 0);
  const metricIndex = parts.findIndex((part) => part in METRIC_ALIASES);
  if (metricIndex < 0 || parts.length > 2) {
    throw new UsageError(`--slo: unknown metric in '${item}'; ${FORMAT_HINT}`);
  }
  const metric = METRIC_ALIASES[parts[metricIndex] as string] as SloMetric;
  const statisticText = parts.length === 2 ? (parts[1 - metricIndex] as string) : 'mean';
  return { metric, statistic: parseStatistic(statisticText, item), limitMs };
}

/** Parses `--slo` text into targets; throws `UsageError` naming the bad item. */
export function parseSlo(text: string): Slo {
  const items = text.split(',').map((item) => item.trim()).filter((item) => item.length > 0);
  if (items.length === 0) throw new UsageError(`--slo is empty; ${FORMAT_HINT}`);
  const targets = items.map(parseTarget);
  const seen = new Set<string>();
  for (const target of targets) {
    const label = targetLabel(target);
    if (seen.has(label)) throw new UsageError(`--slo: '${label}' is given twice; keep one limit per statistic`);
    seen.add(label);
  }
  return { targets };
}

/** The statistic's short name: `mean`, `median`, `p99`, `p99.9`. */
export function statisticLabel(statistic: SloStatistic): string {
  if (statistic.kind === 'percentile') return `p${statistic.p}`;
  return statistic.kind;
}

/** A target's canonical name, e.g. `mean-tpot` or `p99-ttft`. */
export function targetLabel(target: SloTarget): string {
  return `${statisticLabel(target.statistic)}-${target.metric}`;
}

/** Renders milliseconds back in the unit a person would write (`2s`, `20ms`). */
export function formatLimit(limitMs: number): string {
  return limitMs >= 1000 && limitMs % 100 === 0 ? `${limitMs / 1000}s` : `${limitMs}ms`;
}

/** The SLO in canonical `--slo` syntax, for tables and run labels. */
export function formatSlo(slo: Slo): string {
  return slo.targets.map((target) => `${targetLabel(target)}=${formatLimit(target.limitMs)}`).join(',');
}

/** Reads one target's observed value (ms) from a run; undefined when the run cannot say. */
export type SloMeasure = (target: SloTarget) => number | undefined;

export interface TargetVerdict {
  target: SloTarget;
  observedMs: number;
  met: boolean;
}

export interface SloVerdict {
  met: boolean;
  targets: TargetVerdict[];
}

/**
 * Judges a run against every target. A run whose value for a target is unknown does not meet it,
 * and neither does a run with failed requests: latencies of the survivors would flatter an
 * overloaded server.
 */
export function evaluateSlo(slo: Slo, measure: SloMeasure, failedRequests = 0): SloVerdict {
  const targets = slo.targets.map((target) => {
    const observed = measure(target);
    const observedMs = observed ?? Number.NaN;
    return { target, observedMs, met: Number.isFinite(observedMs) && observedMs <= target.limitMs };
  });
  return { met: failedRequests === 0 && targets.every((verdict) => verdict.met), targets };
}
