/**
 * Statistic names as other tools write them (`avg`, `p50`, `std_dev`, `p99`) turned into the
 * prefixes of catalog metric keys (`mean_`, `median_`, `std_`, `p99_`), and a summarised quantity
 * into metrics: `{avg: 12.5, p99: 30}` of ITL → `mean_itl_ms`, `p99_itl_ms`.
 */
import type { MetricValue } from '../types.js';

const NAMED: Readonly<Record<string, string>> = { avg: 'mean', mean: 'mean', median: 'median', p50: 'median', std: 'std', std_dev: 'std', min: 'min', max: 'max' };

/** The key prefix of a statistic (`avg` → `mean`, `p95` → `p95`); null for anything else (`unit`, `count`). */
function statisticPrefix(stat: string): string | null {
  return NAMED[stat] ?? (/^p\d+(\.\d+)?$/.test(stat) ? stat : null);
}

/**
 * Adds `{prefix}_{family}` for each statistic of `stats` to `metrics`, each value times `scale`
 * (1000 for seconds to a `_ms` family). `rename` maps a tool's own statistic names first.
 */
export function addStatistics(
  metrics: Record<string, MetricValue>,
  family: string,
  stats: Readonly<Record<string, unknown>>,
  scale = 1,
  rename: Readonly<Record<string, string>> = {},
): void {
  for (const [stat, value] of Object.entries(stats)) {
    const prefix = statisticPrefix(rename[stat] ?? stat);
    if (prefix === null || typeof value !== 'number') continue;
    const key = `${prefix}_${family}`;
    // p50 and median name one statistic; the first one read is kept.
    if (!(key in metrics)) metrics[key] = value * scale;
  }
}
