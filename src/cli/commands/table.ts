/** `servebench table`: the best-practice table of catalog runs, grouped into latency classes by TPOT. */
import { writeFileSync } from 'node:fs';
import type { Command } from '../main.js';
import { UserError } from '../../core/errors.js';
import { catalogCommand, withCatalog, type CatalogArgs } from '../catalog-command.js';
import { addOption } from '../../core/command-parser.js';
import { addRunFilterArguments, runFilterOf, type RunFilterArgs } from '../run-filter-args.js';
import { DEFAULT_CLASSES, groupByLatencyClass, parseClasses, renderBestPractice, type ExtraColumn, type TableFormat, accuracyColumns, isEvalRun, RUN_MODES, suspectWarnings, type RunRecord } from '../../catalog/index.js';

/** One column per task whose accuracy (`servebench eval`) was measured on the server configuration of a row. */
function accuracyOf(performanceRuns: readonly RunRecord[], allRuns: readonly RunRecord[]): ExtraColumn[] {
  return accuracyColumns(performanceRuns, allRuns).map(({ task, byRun }) => ({
    header: `${task.toUpperCase()} accuracy`,
    csvHeader: `${task}_accuracy`,
    cell: (row) => byRun.get(row.runId) ?? '-',
  }));
}

/** A Mode column, when the table holds anything but measured runs: a plan must not pass for a measurement. */
function modeColumn(runs: readonly RunRecord[]): ExtraColumn[] {
  if (runs.every((run) => run.mode === 'measured')) return [];
  const modes = new Map(runs.map((run) => [run.id, run.mode]));
  return [{ header: 'Mode', csvHeader: 'mode', cell: (row) => modes.get(row.runId) ?? '-' }];
}

/** A Suspect column, when a row's run is suspect (a self-check that warned, failed requests): what makes it so. */
function suspectColumn(runs: readonly RunRecord[]): ExtraColumn[] {
  const suspect = new Map(runs.map((run) => [run.id, suspectWarnings(run.metrics)]).filter(([, warnings]) => warnings.length > 0) as [string, string[]][]);
  if (suspect.size === 0) return [];
  return [{ header: 'Suspect', csvHeader: 'suspect', cell: (row) => suspect.get(row.runId)?.join('; ') ?? '' }];
}

interface TableArgs extends CatalogArgs, RunFilterArgs {
  format: TableFormat;
  classes: string;
  output: string | null;
}

export const command: Command = catalogCommand<TableArgs>({
  name: 'table',
  summary: 'best-practice table (model, hardware, cards, TPOT, tok/s per card, accuracy) as md, csv or html',
  description:
    'Best-practice table of catalog runs, grouped into latency classes by mean TPOT. Where servebench eval measured the accuracy of a row\'s server configuration, a column per task shows it.',
  addArguments(parser) {
    addOption(parser, ['--format'], { choices: ['md', 'csv', 'html'], default: 'md', help: 'output format' });
    addOption(parser, ['--classes'], { default: DEFAULT_CLASSES, help: 'latency classes by mean TPOT ms' });
    // Best practice is what was measured: simulations and predictions only when asked for.
    addRunFilterArguments(parser, 'measured');
    parser.add_argument('-o', '--output', { metavar: 'FILE', help: 'write the table to FILE instead of stdout' });
  },
  async run(args) {
    const classes = parseClasses(args.classes);
    const filter = runFilterOf(args);
    const text = await withCatalog(args.db, (catalog) => {
      const runs = catalog.listRuns(filter).filter((run) => !isEvalRun(run));
      if (runs.length === 0) {
        const others = catalog.listRuns({ ...filter, modes: RUN_MODES.filter((mode) => !filter.modes?.includes(mode)) }).filter((run) => !isEvalRun(run));
        const hint = others.length > 0 ? `; ${others.length} ${[...new Set(others.map((run) => run.mode))].join(' or ')} runs do: add --mode all` : "; ingest logs with 'servebench ingest' first";
        throw new UserError(`no ${filter.modes?.join(' or ')} runs match in ${catalog.path}${hint}`);
      }
      // Every eval run may sit beside a row: the filters choose rows, not accuracy figures.
      const accuracy = accuracyOf(runs, catalog.listRuns());
      return renderBestPractice(groupByLatencyClass(runs.reverse(), classes), args.format, [...accuracy, ...modeColumn(runs), ...suspectColumn(runs)]);
    });
    if (args.output) {
      try {
        writeFileSync(args.output, text);
      } catch (error) {
        throw new UserError(`cannot write ${args.output} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
      }
    } else {
      process.stdout.write(text);
    }
    return 0;
  },
});
