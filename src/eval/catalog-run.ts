/**
 * The catalog record of an eval run (source kind `eval`): SGLang's four figures and the counts
 * behind them as metrics, accuracy per subject as `accuracy.<subject>`, one request record per
 * question (so the run's timing plots like a bench run's), the server's own description (which
 * ties it to the performance runs of the same configuration) and a title that says the accuracy
 * wherever runs are listed. Pure.
 */
import { createHash } from 'node:crypto';
import type { RequestOutput } from '../bench/index.js';
import { recipeFromServerInfo, requestRecordsFromOutputs, type EvalRunMetrics, type MetricValue, type RunInput } from '../catalog/index.js';
import { formatFixed } from '../core/pyformat.js';
import { outputThroughput, type EvalSummary } from './report.js';
import { accuracyOf, invalidRateOf } from './scoring.js';
import type { EvalTaskName } from './types.js';

export interface EvalRunParts {
  task: EvalTaskName;
  numShots: number;
  summary: EvalSummary;
  outputs: readonly RequestOutput[];
  /** The eval's options as given (secrets are redacted when stored). */
  args: Record<string, unknown>;
  model: string;
  /** `/get_server_info`, or null when the server has none. */
  serverInfo: unknown;
  startedAt: Date;
  toolVersion: string;
  answersFile: string;
  labels: Record<string, string>;
}

function metricsOf(parts: EvalRunParts): Record<string, MetricValue> {
  const { summary } = parts;
  const { overall } = summary.score;
  const scored = !summary.synthetic;
  const failed = parts.outputs.filter((output) => !output.success).length;
  const metrics: EvalRunMetrics = {
    task: parts.task,
    num_shots: parts.numShots,
    questions: overall.questions,
    accuracy: scored ? accuracyOf(overall) : null,
    invalid: scored ? invalidRateOf(overall) : null,
    correct: scored ? overall.correct : null,
    answers: scored ? 'scored' : 'synthetic',
    completed: parts.outputs.length - failed,
    failed,
    latency: summary.latency,
    output_throughput: outputThroughput(summary),
    total_output_tokens: summary.outputTokens,
  };
  if (scored) for (const subject of summary.score.subjects) metrics[`accuracy.${subject.subject}`] = accuracyOf(subject);
  return metrics;
}

/** `gsm8k 5-shot: accuracy 0.875 over 200 questions`, or what the sim's synthetic answers leave of it. */
function titleOf(parts: EvalRunParts): string {
  const what = `${parts.task} ${parts.numShots}-shot`;
  const { overall } = parts.summary.score;
  if (parts.summary.synthetic) return `${what}: against servebench sim, answers synthetic, no accuracy`;
  return `${what}: accuracy ${formatFixed(accuracyOf(overall), 3)} over ${overall.questions} questions`;
}

/** The `RunInput` for `catalog.recordRun` after an eval. */
export function evalRunInput(parts: EvalRunParts): RunInput {
  const metrics = metricsOf(parts);
  const startedAt = parts.startedAt.toISOString();
  const contentHash = createHash('sha256')
    .update(JSON.stringify(['eval', startedAt, parts.model, parts.task, metrics]))
    .digest('hex');
  return {
    source: { kind: 'eval', file: parts.answersFile, contentHash, title: titleOf(parts) },
    metrics,
    args: parts.args,
    model: parts.model,
    startedAt,
    toolVersion: parts.toolVersion,
    serverInfo: parts.serverInfo,
    // The deployment the server reported, read as a bench run's is: its table row and hardware filter agree with them.
    recipe: recipeFromServerInfo(parts.serverInfo),
    labels: parts.labels,
    // Prompt lengths are unknown without the model's tokenizer: not measured, rather than 0.
    requests: requestRecordsFromOutputs(parts.outputs).map((record) => ({ ...record, promptLen: null })),
  };
}
