/** `servebench table`: the best-practice table of catalog runs, grouped into latency classes by TPOT. */
import { writeFileSync } from 'node:fs';
import type { Command } from '../main.js';
import { UserError } from '../../core/errors.js';
import { catalogCommand, withCatalog, type CatalogArgs } from '../catalog-command.js';
import { addOption } from '../command-parser.js';
import { runFilterOf, type RunFilterArgs } from '../run-filter-args.js';
import { DEFAULT_CLASSES, groupByLatencyClass, parseClasses } from '../../catalog/report/best-practice.js';
import { renderBestPractice, type TableFormat } from '../../catalog/report/best-practice-render.js';

interface TableArgs extends CatalogArgs, RunFilterArgs {
  format: TableFormat;
  classes: string;
  output: string | null;
}

export const command: Command = catalogCommand<TableArgs>({
  name: 'table',
  summary: 'best-practice table (model, hardware, cards, TPOT, tok/s per card) as md, csv or html',
  description: 'Best-practice table of catalog runs, grouped into latency classes by mean TPOT.',
  addArguments(parser) {
    addOption(parser, ['--format'], { choices: ['md', 'csv', 'html'], default: 'md', help: 'output format' });
    addOption(parser, ['--classes'], { default: DEFAULT_CLASSES, help: 'latency classes by mean TPOT ms' });
    parser.add_argument('--model', { help: 'only runs whose model contains this text' });
    parser.add_argument('--hardware', { help: "only runs whose 'hardware' label contains this text" });
    parser.add_argument('--label', { action: 'append', metavar: 'KEY=VALUE', help: 'only runs with this label (repeatable)' });
    parser.add_argument('--since', { help: 'only runs recorded or started at/after (date or 7d/12h)' });
    parser.add_argument('-o', '--output', { metavar: 'FILE', help: 'write the table to FILE instead of stdout' });
  },
  async run(args) {
    const classes = parseClasses(args.classes);
    const text = await withCatalog(args.db, (catalog) => {
      const runs = catalog.listRuns(runFilterOf(args));
      if (runs.length === 0) throw new UserError(`no runs match in ${catalog.path}; ingest logs with 'servebench ingest' first`);
      return renderBestPractice(groupByLatencyClass(runs.reverse(), classes), args.format);
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
