/**
 * `servebench sweep [options] -- [bench flags]`: a load sweep, an SLO search, or a configuration
 * search, against a real server, the in-process sim in real time, or predictions in virtual time.
 */
import { runConfigSearch } from '../../config-search/index.js';
import { runLoadSweep } from '../../sweep/index.js';
import { parseEmbeddedBenchArgs, resolveRunConfig } from '../../bench/index.js';
import { addHelpGroups, commandParser, wantsHelp } from '../../core/command-parser.js';
import { helpGroups, splitAtDoubleDash } from '../exact-options.js';
import type { Command } from '../main.js';
import { fetchModels, sweepModels } from '../model-configs.js';
import { SWEEP_OPTION_GROUPS, parseSweepCommand } from '../sweep-args.js';

function help(): string {
  const parser = commandParser({
    name: 'sweep',
    usage:
      '%(prog)s LOADS [TARGET] [--slo SPEC] [output options] -- [bench flags]\n' +
      '       %(prog)s --slo SPEC [--search concurrency|rate] [TARGET] ... -- [bench flags]\n' +
      '       %(prog)s --search-configs --model-path M (--hardware H | --hardware-spec FILE.json) --devices N ... -- [bench flags]',
    description:
      "Runs one 'servebench bench' per load and prints a table of throughput and latency per load, the peak, " +
      'and with an SLO the highest load that meets it and its goodput. Every point is a normal run in the catalog, labelled sweep=<id>.',
  });
  addHelpGroups(parser, [
    ...helpGroups(SWEEP_OPTION_GROUPS),
    {
      title: 'bench flags (after --)',
      description: "As 'servebench bench': the workload of every point, and without a TARGET option the server under test.",
      entries: [],
    },
  ]);
  return parser.format_help();
}

async function run(argv: string[]): Promise<number> {
  const { before } = splitAtDoubleDash(argv);
  if (argv.length === 0 || wantsHelp(before)) {
    process.stdout.write(help());
    return argv.length === 0 ? 2 : 0;
  }
  const print = (line: string): void => {
    process.stdout.write(`${line}\n`);
  };
  const plan = parseSweepCommand(argv);
  await fetchModels('sweep', sweepModels(plan));
  const simTarget = plan.kind !== 'configs' && plan.target.mode === 'sim';
  const parseBench = (benchArgv: readonly string[], defaultModel: string | null) =>
    resolveRunConfig(parseEmbeddedBenchArgs(benchArgv, 'sweep', simTarget), { defaultModel });
  return plan.kind === 'configs' ? runConfigSearch(plan, print, parseBench) : runLoadSweep(plan, print, parseBench);
}

export const command: Command = {
  summary: 'sweep concurrency or request rate, search the SLO knee, or search launch configurations',
  run,
};
