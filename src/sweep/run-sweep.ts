/**
 * Runs a load sweep or an SLO search end to end: opens the target (prediction, in-process sim,
 * or a real server), measures each load, records each point in the catalog, and prints the
 * table, the summary, and optionally the plot and a JSON summary.
 */
import { openCatalog, type Catalog } from '../catalog/index.js';
import { sweepChartOption, writeChart } from '../plots/index.js';
import { splitCommandLine } from '../core/command-line.js';
import { parseLaunchArgs, type LaunchDeployment } from '../deployment/index.js';
import { deploymentCards, parseDeployment } from '../sim/index.js';
import { lengthOnlyWorkload, predictionWorkloads, formatExpectedErrorNote } from '../predict/index.js';
import { writeJsonFile } from '../core/json-file.js';
import { formatLoad, type LoadKind } from './load-series.js';
import { formatSlo, type Slo } from './slo.js';
import { runSeries, runSloSearch, type SweepPoint } from './sweep.js';
import { sweepJson } from './sweep-json.js';
import type { BenchFlagsParser, LoadSweepPlan, OutputSpec } from './sweep-plan.js';
import { formatSweepSummary, formatSweepTable } from './sweep-table.js';
import { liveTarget, measureAtFor, predictionTarget, type SweepTarget } from './sweep-target.js';
import { intervalsOf } from './repeated-point.js';
import { formatConfidenceLevel } from '../core/confidence.js';

type Print = (line: string) => void;

const quiet = (): void => {};

/** Two panels side by side need more width than a single chart. */
const PLOT_SIZE = { width: 1100, height: 520 };

/** The sweep's target, and the note a prediction from lengths alone prints (null otherwise). */
async function openTarget(plan: LoadSweepPlan, parseBench: BenchFlagsParser): Promise<{ target: SweepTarget; note: string | null }> {
  const { target } = plan;
  if (target.mode === 'predict') {
    const deployment = parseDeployment(splitCommandLine(target.shared ?? ''), target.prefills, target.decodes);
    const first = deployment.instances[0]!.config;
    const config = parseBench(plan.benchArgv, first.servedModelName ?? first.modelPath);
    const lengthOnly = lengthOnlyWorkload(config);
    return { target: predictionTarget(deployment, config, await predictionWorkloads(config, lengthOnly, quiet)), note: lengthOnly?.note ?? null };
  }
  if (target.mode === 'sim') {
    const { launch, truth } = parseLaunchArgs(splitCommandLine(target.flags));
    // A truth-mode sim has fixed timings and no modelled deployment (its model may be any name).
    const deployment: LaunchDeployment | null = truth === null ? { instances: [{ role: 'mixed', config: launch }] } : null;
    const config = parseBench(plan.benchArgv, launch.servedModelName ?? launch.modelPath);
    return { target: await liveTarget(config, target.flags, deployment), note: null };
  }
  return { target: await liveTarget(parseBench(plan.benchArgv, null), null, null), note: null };
}

/**
 * Labels every point of this sweep carries in the catalog: the user's, the sweep's id and kind, and
 * the cards when the user gave them. The hardware, deploy mode and cards of a simulated or predicted
 * deployment are facts of each point's recipe, not labels.
 */
function sweepLabels(plan: LoadSweepPlan, startedAt: Date): Record<string, string> {
  return {
    ...plan.output.labels,
    sweep: `sweep-${startedAt.toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '')}`,
    sweep_kind: plan.loadKind,
    ...(plan.cards === null ? {} : { cards: String(plan.cards) }),
  };
}

function pointLine(kind: LoadKind, point: SweepPoint): string {
  const value = (key: string): string => {
    const v = point.metrics[key];
    if (typeof v !== 'number') return '-';
    // A point measured several times: the mean over its runs ± the half-width of its interval.
    const half = point.repeat?.figures.find((figure) => figure.figure.key === key)?.halfWidth ?? null;
    return half === null ? v.toFixed(2) : `${v.toFixed(2)} ± ${half.toFixed(2)}`;
  };
  const verdict = point.verdict === null ? '' : point.verdict.met ? ', SLO met' : ', SLO missed';
  const run = point.runId === null ? '' : point.repeat ? ` (${point.repeat.runs} runs from ${point.runId}, ${formatConfidenceLevel(point.repeat.level)} CI)` : ` (run ${point.runId})`;
  const scaled = point.simTimeScale === undefined ? '' : `; engine ${point.simTimeScale}x slower than the wall clock, times divided by ${point.simTimeScale}`;
  return `${kind} ${formatLoad(point.load)}: ${value('output_throughput')} output tok/s, mean TTFT ${value('mean_ttft_ms')} ms, mean TPOT ${value('mean_tpot_ms')} ms${verdict}${run}${scaled}`;
}

function limitOf(slo: Slo | null, metric: 'tpot' | 'ttft'): number | undefined {
  return slo?.targets.find((target) => target.metric === metric && target.statistic.kind === 'mean')?.limitMs;
}

/** The SLO's mean limits the chart draws, those the SLO sets. */
function limitsOf(slo: Slo | null): { tpotLimitMs?: number; ttftLimitMs?: number } {
  const tpot = limitOf(slo, 'tpot');
  const ttft = limitOf(slo, 'ttft');
  return { ...(tpot === undefined ? {} : { tpotLimitMs: tpot }), ...(ttft === undefined ? {} : { ttftLimitMs: ttft }) };
}

/** Opens the catalog unless `--no-catalog`; the caller closes it. */
function openSweepCatalog(output: OutputSpec): Catalog | null {
  return output.noCatalog ? null : openCatalog(output.db);
}

/** Runs the plan, printing as it goes (its bench flags read by `parseBench`); resolves to the exit code. */
export async function runLoadSweep(plan: LoadSweepPlan, print: Print, parseBench: BenchFlagsParser): Promise<number> {
  const { target, note } = await openTarget(plan, parseBench);
  const catalog = openSweepCatalog(plan.output);
  try {
    const cards = plan.cards ?? (target.deployment ? deploymentCards(target.deployment) : 1);
    const startedAt = new Date();
    const labels = sweepLabels(plan, startedAt);
    const what = target.description;
    const how = plan.series === null ? `SLO search over ${plan.loadKind} for ${formatSlo(plan.slo as Slo)}` : `${plan.loadKind} sweep`;
    print(`servebench sweep (${target.mode === 'predict' ? 'prediction, virtual time' : 'real time'}): ${what}; ${how}; sweep id ${labels.sweep}`);
    if (note !== null) print(note);
    if (target.config.repeat.runs > 1) {
      print(`note: every load runs ${target.config.repeat.runs} times; its figures are the means over its runs, ± the half-width of their ${formatConfidenceLevel(target.config.repeat.confidenceLevel)} confidence interval`);
    }
    if (target.mode === 'server' && plan.cards === null) print('note: per-card figures assume 1 card; pass --cards N for the server under test');
    if (target.mode === 'server' && !target.config.load.flushCache) {
      print("note: every point replays the same prompts; add --flush-cache to the bench flags so the server's prefix cache does not carry over");
    }

    const measureAt = measureAtFor(target, {
      kind: plan.loadKind,
      promptsPerLoad: plan.promptsPerLoad,
      labels,
      record: (run) => (catalog === null ? null : catalog.recordRun(run)),
    });
    const onPoint = (point: SweepPoint): void => print(pointLine(plan.loadKind, point));
    let points: SweepPoint[];
    let knee: SweepPoint | null | undefined;
    let runs: number;
    if (plan.series !== null) {
      points = await runSeries(plan.series, measureAt, plan.slo, onPoint);
      runs = points.length;
    } else {
      const search = await runSloSearch(plan.slo as Slo, measureAt, { kind: plan.loadKind, ...plan.search }, onPoint);
      ({ points, knee, runs } = search);
    }

    print('');
    print(formatSweepTable(points, plan.loadKind, cards, plan.slo !== null));
    // The ± once under the table rather than in every cell; measured sweeps have none.
    if (target.prediction !== null) print(formatExpectedErrorNote(target.prediction.expectedError));
    print('');
    const expectedError = target.prediction?.expectedError ?? null;
    for (const line of formatSweepSummary({ points, kind: plan.loadKind, cards, slo: plan.slo, expectedError, ...(knee !== undefined ? { knee, runs } : {}) })) print(line);
    const recorded = points.length * target.config.repeat.runs;
    if (catalog !== null) print(`Recorded ${recorded} runs in ${catalog.path} with label sweep=${labels.sweep}`);
    if (plan.output.plot !== null) {
      const title = `${target.mode === 'predict' ? 'Predicted' : 'Measured'}: ${what}`;
      const chartPoints = [...points]
        .sort((a, b) => a.load - b.load)
        .map((point) => ({ label: formatLoad(point.load), metrics: point.metrics, ...(point.repeat ? { intervals: intervalsOf(point.repeat) } : {}) }));
      const option = sweepChartOption({
        title,
        loadName: plan.loadKind === 'concurrency' ? 'concurrency' : 'req/s',
        cards,
        series: [{ name: target.mode, points: chartPoints }],
        ...limitsOf(plan.slo),
      });
      writeChart(option, plan.output.plot, PLOT_SIZE);
      print(`Plot written to ${plan.output.plot}`);
    }
    if (plan.output.json !== null) {
      writeJsonFile(plan.output.json, sweepJson({ mode: target.mode, kind: plan.loadKind, cards, slo: plan.slo, points, ...(knee !== undefined ? { knee } : {}), runs }));
    }
    return 0;
  } finally {
    catalog?.close();
    await target.close();
  }
}
