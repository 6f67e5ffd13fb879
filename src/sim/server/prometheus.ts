/**
 * A minimal Prometheus text-format writer (exposition format 0.0.4): counters, gauges and
 * histograms with one label set. Pure; SimMetrics decides what to record.
 */

/** A histogram with fixed upper bounds, rendered cumulatively with `+Inf`. */
export class Histogram {
  private readonly counts: number[];
  private total = 0;
  private sum = 0;

  constructor(readonly bounds: readonly number[]) {
    this.counts = new Array(bounds.length).fill(0);
  }

  observe(value: number, times = 1): void {
    for (let i = 0; i < this.bounds.length; i++) {
      if (value <= this.bounds[i]!) {
        this.counts[i]! += times;
        break;
      }
    }
    this.total += times;
    this.sum += value * times;
  }

  /** Exposition lines of this histogram under `name` with `labels` (already rendered, e.g. `model_name="m"`). */
  lines(name: string, labels: string): string[] {
    const out: string[] = [];
    let cumulative = 0;
    for (let i = 0; i < this.bounds.length; i++) {
      cumulative += this.counts[i]!;
      out.push(`${name}_bucket{${labels},le="${formatValue(this.bounds[i]!)}"} ${cumulative}`);
    }
    out.push(`${name}_bucket{${labels},le="+Inf"} ${this.total}`);
    out.push(`${name}_sum{${labels}} ${formatValue(this.sum)}`);
    out.push(`${name}_count{${labels}} ${this.total}`);
    return out;
  }
}

/** Prometheus number formatting: integers plain, floats as JS prints them, infinities spelled. */
export function formatValue(value: number): string {
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  if (Number.isNaN(value)) return 'NaN';
  return Number.isInteger(value) ? value.toFixed(1) : String(value);
}

/** Escapes a label value (backslash, quote, newline). */
export function labelValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

export type MetricType = 'counter' | 'gauge' | 'histogram';

/** One metric family: HELP, TYPE and its sample lines. */
export function family(name: string, type: MetricType, help: string, samples: string[]): string {
  return [`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`, ...samples].join('\n');
}
