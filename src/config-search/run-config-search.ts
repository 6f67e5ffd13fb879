/**
 * `sweep --search-configs`: enumerate launch configurations of a model on N devices, predict
 * each one's SLO knee (or peak) in virtual time, spread over worker threads when there are cores
 * to spare, and print the ranking and the best launch commands. Predictions of a configuration
 * search are not stored in the catalog: they are many, and only the chosen configuration is
 * worth a real run.
 */
import { performance } from 'node:perf_hooks';
import { availableParallelism } from 'node:os';
import { countDevices, readHardwareSpec, getHardware } from '../deployment/index.js';
import { storedCrossValidation } from '../sim/index.js';
import { formatRankingTable, formatSeparationSummary, formatSkipped, formatTopLaunches, indistinguishableFromBest } from './config-report.js';
import { createSearchContext, type ConfigSearchSpec } from './config-context.js';
import { canUseWorkers, createPooledEvaluator } from './config-pool.js';
import { searchConfigurations, type CandidateOutcome } from './config-search.js';
import { formatExpectedErrorNote } from '../predict/index.js';
import { writeJsonFile } from '../core/json-file.js';
import { formatSlo, type BenchFlagsParser, type ConfigSearchPlan } from '../sweep/index.js';

type Print = (line: string) => void;

/** First-pass resolution: enough to rank, refined for the best candidates afterwards. */
const COARSE_TOLERANCE = 0.2;

/** A progress line: `head` (which candidate, and which pass), then what the pass found. */
function progressLine(outcome: CandidateOutcome, head: string): string {
  if (outcome.skipped !== null) return `${head}: skipped (${outcome.skipped})`;
  if (outcome.chosen === null) return `${head}: no concurrency meets the SLO (${outcome.runs} predictions)`;
  return `${head}: ${outcome.perCard.toFixed(1)} tok/s per card at concurrency ${outcome.chosen.load} (${outcome.runs} predictions)`;
}

function rankingJson(plan: ConfigSearchPlan, context: ReturnType<typeof createSearchContext>, ranked: readonly CandidateOutcome[], close: ReadonlySet<CandidateOutcome>): unknown {
  return {
    model: context.model.name,
    hardware: context.hardware.key,
    devices: plan.devices,
    cards: context.cards,
    slo: plan.slo ? formatSlo(plan.slo) : null,
    ranking: ranked.map((outcome) => ({
      label: outcome.candidate.label,
      mode: outcome.candidate.mode,
      skipped: outcome.skipped,
      concurrency: outcome.chosen?.load ?? null,
      output_tokens_per_s_per_card: outcome.chosen ? outcome.perCard : null,
      metrics: outcome.chosen?.metrics ?? null,
      runs: outcome.runs,
      within_expected_error_of_best: close.has(outcome),
    })),
  };
}

/** Runs the configuration search (its bench flags read by `parseBench`) and prints its report; resolves to the exit code. */
export async function runConfigSearch(plan: ConfigSearchPlan, print: Print, parseBench: BenchFlagsParser): Promise<number> {
  const device = plan.hardware.kind === 'spec' ? readHardwareSpec(plan.hardware.file) : getHardware(plan.hardware.name);
  const spec: ConfigSearchSpec = {
    modelPath: plan.modelPath,
    hardware: device,
    devices: plan.devices,
    includePd: plan.includePd,
    slo: plan.slo,
    maxConcurrency: plan.search.limit,
    promptsPerLoad: plan.promptsPerLoad,
    benchConfig: parseBench(plan.benchArgv, plan.modelPath),
  };
  const context = createSearchContext(spec);
  const { candidates, hardware, model } = context;
  const pool = canUseWorkers() ? createPooledEvaluator(spec, candidates, Math.min(availableParallelism(), candidates.length)) : null;
  print(
    `servebench sweep --search-configs: ${model.name} on ${countDevices(hardware, plan.devices)}, ${candidates.length} configurations, ` +
      `${plan.slo ? `SLO ${formatSlo(plan.slo)}` : 'no SLO: ranked at peak throughput'}; predictions in virtual time` +
      (pool ? ` on ${pool.size} threads` : ''),
  );
  if (context.workloadNote !== null) print(context.workloadNote);
  const refined = plan.slo === null ? 0 : plan.top;
  if (refined > 0) {
    print(`First pass: every configuration's SLO knee to within ${(COARSE_TOLERANCE * 100).toFixed(0)}% of its load; then the best ${refined} refined to within ${(plan.search.tolerance * 100).toFixed(0)}% (the ranking shows the refined figures)`);
  }
  const started = performance.now();
  let ranked: CandidateOutcome[];
  try {
    ranked = await searchConfigurations({
      candidates,
      evaluator: pool ?? context.evaluator,
      parallelism: pool?.size ?? 1,
      tolerance: plan.search.tolerance,
      coarseTolerance: COARSE_TOLERANCE,
      // Without an SLO every pass predicts the same series of loads: a first pass is already final.
      refine: refined,
      onCandidate: (outcome, index) => print(progressLine(outcome, `[${index + 1}/${candidates.length}]${refined > 0 ? ' first pass:' : ''} ${outcome.candidate.label}`)),
      onRefined: (outcome) => print(progressLine(outcome, `[refined] ${outcome.candidate.label}`)),
    });
  } finally {
    await pool?.close();
  }
  const seconds = (performance.now() - started) / 1000;
  const expectedError = storedCrossValidation();
  print('');
  print(formatRankingTable(ranked, expectedError));
  print(formatExpectedErrorNote(expectedError));
  const skipped = formatSkipped(ranked);
  if (skipped.length > 0) print(['', ...skipped].join('\n'));
  print('');
  const launches = formatTopLaunches(ranked, { modelPath: plan.modelPath, devicesPerNode: hardware.devicesPerNode, top: plan.top, expectedError });
  if (launches.length === 0) print('No configuration meets the SLO on this hardware; relax the SLO or add devices.');
  for (const line of launches) print(line);
  const predictions = ranked.reduce((n, outcome) => n + outcome.runs, 0);
  print('');
  for (const line of formatSeparationSummary(ranked, expectedError)) print(line);
  print(`Searched ${candidates.length} configurations with ${predictions} predictions in ${seconds.toFixed(1)} s`);
  if (plan.output.json !== null) writeJsonFile(plan.output.json, rankingJson(plan, context, ranked, indistinguishableFromBest(ranked, expectedError)));
  return 0;
}
