/**
 * `servebench eval gsm8k|mmlu|gpqa`: the served model's accuracy, measured as SGLang's few-shot
 * GSM8K / MMLU and simple-evals GPQA do, through bench's backends and transport. Orchestration
 * only: the task logic lives in src/eval.
 */
import { ArgumentTypeError } from 'argparse';
import { describeError, UserError } from '../../core/errors.js';
import { AT_LEAST_ONE, CONNECT_PORT, NON_NEGATIVE, SEED, boundedArgType, withRangeHelp } from '../../core/flag-range.js';
import { splitHeaderEntry } from '../../core/header-entry.js';
import { redactText } from '../../core/redact.js';
import { TOOL_VERSION } from '../../core/version.js';
import { BACKEND_CHOICES, type BackendName, runHeaders, checkOutputFile, createProgressBar, ModelDiscoveryError, InterruptWatch, signalExitCode, signalName, fetchRouterWorkersInfo, fetchServerInfo, HttpPool, resolveTarget, type BenchTarget } from '../../bench/index.js';
import { catalogCommand, withCatalog, type CatalogArgs } from '../catalog-command.js';
import { parseLabels } from '../run-filter-args.js';
import { reportsSimServer, serverInfoWithWorkers, type RunInput } from '../../catalog/index.js';
import { answerRecord, defaultAnswersFileName, writeAnswersFile, askQuestions, evalRunInput, DATA_EXPECTED, loadQuestions, evalBackendAdapter, samplingBody, formatFailureNotice, formatResultLines, formatSubjectTable, gradeRun, evalTask, EVAL_TASKS, type EvalTaskName } from '../../eval/index.js';

interface EvalArgs extends CatalogArgs {
  task: EvalTaskName;
  data_path: string;
  num_shots: number | undefined;
  num_questions: number | undefined;
  max_new_tokens: number | undefined;
  parallel: number;
  seed: number;
  backend: BackendName;
  host: string;
  port: number | undefined;
  base_url: string | undefined;
  header: string[] | undefined;
  model: string | undefined;
  output_file: string | undefined;
  label: string[] | undefined;
  no_catalog: boolean;
}

/**
 * `--header` values: an entry with neither separator is a typo whose header would silently not be
 * sent (bench refuses it too), so it is refused, without echoing it: it may hold a secret.
 */
function headerEntryArgType(entry: string): string {
  if (splitHeaderEntry(entry) === null) {
    throw new ArgumentTypeError(`entry without ':' or '=' (${entry.length} characters, not shown: it may hold a secret); write it as 'Key: Value' or Key=Value`);
  }
  return entry;
}

/** bench's default: a stream silent this long has stalled, however slow the model. */
const STREAM_IDLE_TIMEOUT_S = 600;

const print = (line: string): void => {
  process.stdout.write(`${line}\n`);
};
const notice = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

/** The options as the catalog keeps them, defaults resolved (the store redacts the header values). */
function storedOptions(args: EvalArgs, resolved: { num_shots: number; num_questions: number | null; max_new_tokens: number; model: string }): Record<string, unknown> {
  return {
    task: args.task,
    data_path: args.data_path,
    ...resolved,
    parallel: args.parallel,
    seed: args.seed,
    backend: args.backend,
    base_url: args.base_url ?? null,
    host: args.host,
    port: args.port ?? null,
    header: args.header ?? null,
  };
}

/** Keeps the run in the catalog; a catalog that cannot be written costs a warning, not the answers (they are in the answers file). */
async function recordInCatalog(input: RunInput, db: string | null): Promise<void> {
  try {
    const { id, path } = await withCatalog(db, (catalog) => ({ id: catalog.recordRun(input), path: catalog.path }), {});
    notice(`Run ${id} recorded in ${path}`);
  } catch (error) {
    notice(`warning: the run was not recorded in the catalog (${describeError(error)}); its answers are in ${input.source.file}`);
  }
}

async function run(args: EvalArgs): Promise<number> {
  const task = evalTask(args.task);
  const numShots = args.num_shots ?? task.defaultNumShots;
  const numQuestions = args.num_questions ?? task.defaultNumQuestions;
  const maxNewTokens = args.max_new_tokens ?? task.defaultMaxNewTokens;
  const labels = parseLabels(args.label);
  const adapter = evalBackendAdapter(args.backend);
  const questions = loadQuestions(task.name, args.data_path, { numShots, numQuestions, seed: args.seed });
  const startedAt = new Date();
  const answersFile = args.output_file ?? defaultAnswersFileName(task.name, startedAt);
  checkOutputFile(answersFile);

  const pool = new HttpPool({ streamIdleTimeout: STREAM_IDLE_TIMEOUT_S });
  try {
    const headers = runHeaders(process.env, args.header ?? null);
    // The server as bench resolves it: port, URLs (anything but http(s) refused) and, without --model, the model it lists.
    let target: BenchTarget;
    try {
      target = await resolveTarget(
        { backend: args.backend, model: args.model ?? null, servedModelName: null },
        { baseUrl: args.base_url ?? null, host: args.host, port: args.port ?? null },
        pool,
        headers.withAuth,
      );
    } catch (error) {
      if (!(error instanceof ModelDiscoveryError)) throw error;
      error.lines.forEach(print);
      return 1;
    }
    const { model, urls } = target;
    // Through a router, the deployment is what its workers report, as for bench.
    const answer = await fetchServerInfo(pool, urls.baseUrl, headers.withAuth);
    const serverInfo = serverInfoWithWorkers(answer, await fetchRouterWorkersInfo(pool, urls.baseUrl, headers.withAuth, answer, JSON.parse));
    const synthetic = reportsSimServer(serverInfo);
    if (synthetic) {
      print('The server is servebench sim: it answers with synthetic text, so accuracy and invalid rate are meaningless here; latency and throughput are the sim\'s.');
    }
    notice(
      `eval ${task.name}: ${questions.length} questions, ${numShots}-shot, at most ${maxNewTokens} new tokens, ${args.parallel} in parallel, model ${model} at ${redactText(urls.apiUrl)}`,
    );

    const progress = createProgressBar(questions.length, false, { silentTransfers: () => pool.silentTransfers() });
    // From the first question until the answers are saved, a stop signal ends sending and what was
    // answered is still graded, printed and kept.
    const interrupts = new InterruptWatch();
    try {
      const { asked, outputs, latency } = await askQuestions(
        {
          pool,
          adapter,
          headers,
          apiUrl: urls.apiUrl,
          model,
          maxNewTokens,
          extraRequestBody: samplingBody(adapter, { maxNewTokens, stop: task.stop }),
          parallel: args.parallel,
          interrupts,
          notice,
          onAnswered: () => progress?.update(1),
        },
        questions,
      );
      progress?.close();

      const { graded, summary } = gradeRun(task, asked, outputs, latency, synthetic);
      formatResultLines(summary).forEach(print);
      const table = formatSubjectTable(summary);
      if (table !== null) print(`\n${table}`);
      const failures = formatFailureNotice(outputs);
      if (failures !== null) notice(`warning: ${failures}`);

      writeAnswersFile(answersFile, asked.map((question, i) => answerRecord(i, question, outputs[i]!, graded[i]!, synthetic)));
      notice(`Answers written to ${answersFile}`);
      if (!args.no_catalog) {
        const input = evalRunInput({
          task: task.name,
          numShots,
          summary,
          outputs,
          args: storedOptions(args, { num_shots: numShots, num_questions: numQuestions, max_new_tokens: maxNewTokens, model }),
          model,
          serverInfo,
          startedAt,
          toolVersion: `servebench ${TOOL_VERSION}`,
          answersFile,
          labels,
        });
        await recordInCatalog(input, args.db);
      }
      const signal = interrupts.signal;
      if (signal !== null) {
        notice(`servebench eval: stopped by ${signalName(signal)}; the ${asked.length} of ${questions.length} questions asked are graded and saved (exit status ${signalExitCode(signal)})`);
        return signalExitCode(signal);
      }
      if (outputs.every((output) => !output.success)) {
        throw new UserError(`all ${outputs.length} requests failed (causes above; each error is in ${answersFile}); check the server and the eval arguments`);
      }
      return 0;
    } finally {
      interrupts.dispose();
    }
  } finally {
    await pool.close();
  }
}

export const command = catalogCommand<EvalArgs>({
  name: 'eval',
  summary: "the served model's accuracy (few-shot GSM8K, MMLU, GPQA) against a running server",
  description:
    "Ask a running server the questions of a local GSM8K, MMLU or GPQA file, as SGLang's few-shot GSM8K / MMLU benchmarks and simple-evals GPQA do, " +
    'and print their Accuracy, Invalid, Latency and Output throughput lines (MMLU and GPQA also per subject). Every question and answer goes to a JSONL ' +
    'file and the run into the catalog, beside the performance runs of the same server configuration. API keys come from OPENAI_API_KEY or API_KEY as in bench.',
  addArguments(parser) {
    parser.add_argument('task', { choices: [...EVAL_TASKS], help: 'the benchmark to ask' });
    parser.add_argument('--data-path', {
      required: true,
      metavar: 'PATH',
      help: `the task's local data: gsm8k: ${DATA_EXPECTED.gsm8k}; mmlu: ${DATA_EXPECTED.mmlu}; gpqa: ${DATA_EXPECTED.gpqa}`,
    });
    parser.add_argument('--num-shots', { type: boundedArgType('int', NON_NEGATIVE), help: withRangeHelp('worked examples before each question (default 5; gpqa is zero-shot)', 'int', NON_NEGATIVE) });
    parser.add_argument('--num-questions', {
      type: boundedArgType('int', AT_LEAST_ONE),
      help: withRangeHelp('gsm8k: the first N questions (default 200); mmlu: the first N of each subject (default all); gpqa: N drawn with --seed (default all)', 'int', AT_LEAST_ONE),
    });
    parser.add_argument('--max-new-tokens', { type: boundedArgType('int', AT_LEAST_ONE), help: withRangeHelp('token limit per answer (default gsm8k 512, mmlu 1, gpqa 2048)', 'int', AT_LEAST_ONE) });
    parser.add_argument('--parallel', { type: boundedArgType('int', AT_LEAST_ONE), default: 128, help: withRangeHelp('questions in flight at once (default 128)', 'int', AT_LEAST_ONE) });
    parser.add_argument('--seed', { type: boundedArgType('int', SEED), default: 0, help: withRangeHelp("gpqa: seed of the question draw and answer order (default 0, SGLang's)", 'int', SEED) });
    parser.add_argument('--backend', { choices: [...BACKEND_CHOICES], default: 'sglang', help: "request protocol, as bench's: sglang (/generate), completions or chat backends (default sglang)" });
    parser.add_argument('--host', { default: '127.0.0.1', help: 'server host when --base-url is not set (default 127.0.0.1)' });
    parser.add_argument('--port', { type: boundedArgType('int', CONNECT_PORT), help: withRangeHelp("server port (default: the backend's, as bench)", 'int', CONNECT_PORT) });
    parser.add_argument('--base-url', { metavar: 'URL', help: 'URL prefix used instead of http://HOST:PORT' });
    parser.add_argument('--header', { nargs: '+', type: headerEntryArgType, metavar: 'HEADER', help: "extra request headers, each 'Key: Value' or Key=Value (never printed or stored)" });
    parser.add_argument('--model', { help: 'model id sent in requests (default: the first of /v1/models)' });
    parser.add_argument('--output-file', { metavar: 'FILE', help: 'answers JSONL, one line per question (default eval-<task>-<date>-<time>.jsonl)' });
    parser.add_argument('--label', { action: 'append', metavar: 'KEY=VALUE', help: 'label stored with the run in the catalog (repeatable)' });
    parser.add_argument('--no-catalog', { action: 'store_true', help: 'do not record the run in the catalog' });
  },
  run,
});
