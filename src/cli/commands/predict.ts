/**
 * `servebench predict [SGLang launch flags] -- [bench flags]`: the bench result block of a run
 * against the simulated deployment, computed in virtual time (seconds of CPU, no server).
 */
import { performance } from 'node:perf_hooks';
import { resolvedNamespace, resolveRunConfig, formatNamespace, parseEmbeddedBenchArgs, formatResultBlock, formatExtendedBlock, appendJsonl, checkOutputFile, buildResultRecord } from '../../bench/index.js';
import { storedCrossValidation, describeDeployment, parseDeployment } from '../../sim/index.js';
import { lengthOnlyWorkload, predictionWorkloads, formatExpectedErrorSection, predictBench } from '../../predict/index.js';
import { addHelpGroups, commandParser, wantsHelp } from '../../core/command-parser.js';
import { extractOptions, helpGroups, optionsOf, splitAtDoubleDash, type OptionGroup } from '../exact-options.js';
import { SGLANG_FLAGS_HELP, SIM_MODEL_FLAGS_HELP } from '../launch-flags-help.js';
import type { Command } from '../main.js';
import { fetchModels } from '../model-configs.js';

const PREDICT_OPTIONS: readonly OptionGroup[] = [
  {
    title: 'predict options',
    options: [
      {
        name: 'prefill',
        takesValue: true,
        repeatable: true,
        metavar: '"FLAGS"',
        help: "PD separation: one prefill instance's launch flags; flags outside --prefill and --decode (e.g. --model-path, --hardware) are shared, an instance's own win",
      },
      { name: 'decode', takesValue: true, repeatable: true, metavar: '"FLAGS"', help: "PD separation: the decode instance's launch flags" },
      {
        name: 'explain',
        takesValue: false,
        help: 'after the result block, what a typical decode and prefill step of the run is made of (weight and KV bytes, GEMM and attention math, collectives, kernel latency, launch floor, host)',
      },
    ],
  },
];

const OPTIONS = optionsOf(PREDICT_OPTIONS);

function help(): string {
  const parser = commandParser({
    name: 'predict',
    usage:
      '%(prog)s [SGLang launch flags] -- [bench flags]\n' +
      '       %(prog)s [shared flags] --prefill "FLAGS" ... --decode "FLAGS" -- [bench flags]',
    description:
      "Predicts what 'servebench bench [bench flags]' would print against 'servebench sim [launch flags]': " +
      "the same dataset, seed and arrival process, run through the sim's performance model and scheduler " +
      "in virtual time. The result block is bench_serving's; servebench's extras after it end with the " +
      "headline figures and their expected error (±, the model's cross-validated error on published runs), " +
      'and a last line marks it all as a prediction.',
  });
  addHelpGroups(parser, [
    ...helpGroups(PREDICT_OPTIONS),
    SGLANG_FLAGS_HELP,
    SIM_MODEL_FLAGS_HELP,
    {
      title: 'bench flags (after --)',
      description:
        "As 'servebench bench' (--dataset-name, --random-input-len, --num-prompts, --max-concurrency, " +
        '--request-rate, --seed, ...); --output-file appends the JSONL record; host and port are unused.',
      entries: [],
    },
  ]);
  return parser.format_help();
}

const print = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

async function run(argv: string[]): Promise<number> {
  const { before, after } = splitAtDoubleDash(argv);
  if (wantsHelp(before) || argv.length === 0) {
    process.stdout.write(help());
    return argv.length === 0 ? 2 : 0;
  }
  const options = extractOptions(before, OPTIONS, 'predict', true);
  const deployment = parseDeployment(options.rest, options.values.get('prefill') ?? [], options.values.get('decode') ?? []);
  await fetchModels('predict', deployment.instances.map((instance) => instance.config));
  const first = deployment.instances[0]!.config;
  const config = resolveRunConfig(parseEmbeddedBenchArgs(after, 'predict'), { defaultModel: first.servedModelName ?? first.modelPath });
  const args = resolvedNamespace(config);
  const outputFile = config.output.file;
  if (outputFile !== null) checkOutputFile(outputFile);
  print(`benchmark_args=${formatNamespace(args)}`);
  print(`servebench predict: ${describeDeployment(deployment)}; virtual time, no server contacted`);
  const lengthOnly = lengthOnlyWorkload(config);
  if (lengthOnly !== null) print(lengthOnly.note);
  const workloads = await predictionWorkloads(config, lengthOnly, print);

  const started = performance.now();
  const prediction = await predictBench(deployment, config, workloads, { explain: options.values.has('explain') });
  const wallSeconds = (performance.now() - started) / 1000;

  process.stdout.write(formatResultBlock(prediction.metrics, config));
  const expectedError = storedCrossValidation();
  process.stdout.write(formatExtendedBlock(prediction.extras, formatExpectedErrorSection(prediction.metrics, expectedError)));
  prediction.notes.forEach(print);
  prediction.explanation.forEach(print);
  print(`Prediction (servebench performance model, not a measurement): ${prediction.durationS.toFixed(2)} s of virtual time computed in ${wallSeconds.toFixed(2)} s`);
  if (outputFile !== null) {
    appendJsonl(outputFile, buildResultRecord({ args, metrics: prediction.metrics, serverInfo: null, outputs: prediction.outputs, extras: prediction.extras, prediction: { expectedError } }));
  }
  return 0;
}

export const command: Command = {
  summary: 'predict a bench run against a simulated deployment in virtual time (seconds, no server)',
  run,
};
