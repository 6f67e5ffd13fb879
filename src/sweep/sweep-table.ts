/**
 * The text a sweep prints: one row per load (throughput, latency figures, goodput, SLO verdict)
 * and a summary naming the peak and, with an SLO, the highest load that met it.
 */
import { formatTextTable } from '../catalog/index.js';
import type { CrossValidationSummary } from '../sim/index.js';
import { sloErrorSuffix, throughputErrorSuffix } from '../predict/index.js';
import { formatLoad, type LoadKind } from './load-series.js';
import { formatSlo, type Slo } from './slo.js';
import { highestMeeting, outputThroughput, peakPoint, type SweepPoint } from './sweep.js';

interface Column {
  title: string;
  value(point: SweepPoint): string;
}

function metric(point: SweepPoint, key: string): string {
  const value = point.metrics[key];
  return typeof value === 'number' && Number.isFinite(value) ? value.toFixed(2) : '-';
}

function columns(kind: LoadKind, cards: number, withSlo: boolean): Column[] {
  const list: Column[] = [
    { title: kind === 'concurrency' ? 'concurrency' : 'rate (req/s)', value: (p) => formatLoad(p.load) },
    // Counted from the requests: a point measured several times has every run's.
    { title: 'ok/total', value: (p) => `${p.outputs.filter((output) => output.success).length}/${p.outputs.length}` },
    { title: 'req/s', value: (p) => metric(p, 'request_throughput') },
    { title: 'out tok/s', value: (p) => metric(p, 'output_throughput') },
    { title: 'tok/s/card', value: (p) => (outputThroughput(p) / cards).toFixed(2) },
    { title: 'mean TTFT ms', value: (p) => metric(p, 'mean_ttft_ms') },
    { title: 'p99 TTFT ms', value: (p) => metric(p, 'p99_ttft_ms') },
    { title: 'mean TPOT ms', value: (p) => metric(p, 'mean_tpot_ms') },
    { title: 'p99 TPOT ms', value: (p) => metric(p, 'p99_tpot_ms') },
    { title: 'mean ITL ms', value: (p) => metric(p, 'mean_itl_ms') },
  ];
  if (withSlo) {
    list.push(
      { title: 'goodput req/s', value: (p) => (p.goodput ? p.goodput.requestGoodput.toFixed(2) : '-') },
      { title: 'SLO', value: (p) => (p.verdict?.met ? 'met' : 'missed') },
    );
  }
  return list;
}

/** Aligned table of the points, sorted by load. */
export function formatSweepTable(points: readonly SweepPoint[], kind: LoadKind, cards: number, withSlo: boolean): string {
  const cols = columns(kind, cards, withSlo);
  const sorted = [...points].sort((a, b) => a.load - b.load);
  const rows = sorted.map((point) => cols.map((c) => c.value(point)));
  return formatRulelessTable(cols.map((c) => c.title), rows, new Set(cols.keys()));
}

/**
 * The catalog's aligned text table without its rule line under the headers: sweep tables keep
 * one line per row right below the header, as they have always printed.
 */
export function formatRulelessTable(headers: readonly string[], rows: readonly (readonly string[])[], right: ReadonlySet<number>): string {
  const [headerLine, , ...rowLines] = formatTextTable(headers, rows, right).split('\n');
  return [headerLine, ...rowLines].join('\n');
}

function describeLoad(kind: LoadKind, load: number): string {
  return kind === 'concurrency' ? `concurrency ${formatLoad(load)}` : `request rate ${formatLoad(load)} req/s`;
}

export interface SummaryInput {
  points: readonly SweepPoint[];
  kind: LoadKind;
  cards: number;
  slo: Slo | null;
  /** The SLO search's answer (undefined when no search ran). */
  knee?: SweepPoint | null;
  runs?: number;
  /** A prediction's cross-validated error, printed beside the predicted figures (absent or null: no ±). */
  expectedError?: CrossValidationSummary | null;
}

/** Summary lines: the peak, and for an SLO the best load meeting it (from the search or the series); predictions with their ±. */
export function formatSweepSummary(input: SummaryInput): string[] {
  const { points, kind, cards, slo } = input;
  const expectedError = input.expectedError ?? null;
  const lines: string[] = [];
  const peak = peakPoint(points);
  if (peak) {
    const throughput = outputThroughput(peak);
    lines.push(
      `Peak output throughput: ${throughput.toFixed(2)} tok/s${throughputErrorSuffix(expectedError)} at ${describeLoad(kind, peak.load)} ` +
        `(${(throughput / cards).toFixed(2)} tok/s per card over ${cards})`,
    );
  }
  if (slo === null) return lines;
  const knee = input.knee !== undefined ? input.knee : highestMeeting(points);
  const how = input.runs !== undefined ? ` (searched in ${input.runs} runs)` : '';
  if (knee === null) {
    lines.push(`SLO ${formatSlo(slo)}: no load tried meets it${how}`);
    return lines;
  }
  const throughput = outputThroughput(knee);
  lines.push(
    `SLO ${formatSlo(slo)}: highest load meeting it is ${describeLoad(kind, knee.load)}${how}: ` +
      `goodput ${(knee.goodput?.requestGoodput ?? 0).toFixed(2)} req/s, ${throughput.toFixed(2)} output tok/s${throughputErrorSuffix(expectedError)}, ` +
      `${(throughput / cards).toFixed(2)} tok/s per card`,
  );
  for (const target of knee.verdict?.targets ?? []) {
    lines.push(`  ${formatSlo({ targets: [target.target] })}: observed ${target.observedMs.toFixed(2)} ms${sloErrorSuffix(target.target, expectedError)}`);
  }
  lines.push(...goodputNote(points, knee, kind));
  return lines;
}

/** The point whose request goodput is highest, or undefined without goodput figures. */
function bestGoodputPoint(points: readonly SweepPoint[]): SweepPoint | undefined {
  let best: SweepPoint | undefined;
  for (const point of points) {
    if (point.goodput && (best === undefined || point.goodput.requestGoodput > best.goodput!.requestGoodput)) best = point;
  }
  return best;
}

/**
 * Why the answer is not the load with the most goodput, when they differ: the SLO is judged on the
 * run's statistics (a mean, a percentile), while goodput counts the requests that meet every limit
 * on their own, so a run can miss a mean limit yet deliver more good requests per second.
 */
function goodputNote(points: readonly SweepPoint[], knee: SweepPoint, kind: LoadKind): string[] {
  const best = bestGoodputPoint(points);
  if (best === undefined || best === knee || best.goodput!.requestGoodput <= (knee.goodput?.requestGoodput ?? 0)) return [];
  const missed = (best.verdict?.targets ?? []).filter((target) => !target.met).map((target) => `${formatSlo({ targets: [target.target] })} (observed ${target.observedMs.toFixed(2)} ms)`);
  return [
    `Highest goodput: ${best.goodput!.requestGoodput.toFixed(2)} req/s at ${describeLoad(kind, best.load)}, ` +
      `${(best.goodput!.goodFraction * 100).toFixed(1)}% of its requests each within every limit; ` +
      reasonNotTheAnswer(best, missed),
  ];
}

/** Why the point with the most goodput is not the answer, from its own verdict. */
function reasonNotTheAnswer(best: SweepPoint, missed: readonly string[]): string {
  if (missed.length > 0) return `not the answer because the run as a whole misses ${missed.join(', ')} (each target is judged on the statistic it names)`;
  if (best.verdict?.met === true) return 'it meets the SLO too, at a lower load; the answer is the highest load that meets it';
  return 'not the answer because the run had failed requests, which miss the SLO';
}
