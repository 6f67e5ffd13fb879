/** `servebench table`: the best-practice table of catalog runs, grouped into latency classes by TPOT. */
import { writeFileSync } from 'node:fs';
import type { Command } from '../main.js';
import { UserError } from '../../core/errors.js';
import { openCatalog } from '../../catalog/index.js';
import { catalogParser, parseLabels, parseOrHelp, parseSince } from '../../catalog/cli/options.js';
import { DEFAULT_CLASSES, groupByLatencyClass, parseClasses } from '../../catalog/report/best-practice.js';
import { renderBestPractice, type TableFormat } from '../../catalog/report/best-practice-render.js';

interface TableArgs {
  db: string | null;
  format: TableFormat;
  classes: string;
  model: string | null;
  hardware: string | null;
  label: string[] | null;
  since: string | null;
  output: string | null;
}

export const command: Command = {
  summary: 'best-practice table (model, hardware, cards, TPOT, tok/s per card) as md, csv or html',
  async run(argv) {
    const parser = catalogParser('table', 'Best-practice table of catalog runs, grouped into latency classes by mean TPOT.');
    parser.add_argument('--format', { choices: ['md', 'csv', 'html'], default: 'md', help: 'output format (default md)' });
    parser.add_argument('--classes', { default: DEFAULT_CLASSES, help: `latency classes by mean TPOT ms (default "${DEFAULT_CLASSES}")` });
    parser.add_argument('--model', { help: 'only runs whose model contains this text' });
    parser.add_argument('--hardware', { help: "only runs whose 'hardware' label contains this text" });
    parser.add_argument('--label', { action: 'append', metavar: 'KEY=VALUE', help: 'only runs with this label (repeatable)' });
    parser.add_argument('--since', { help: 'only runs recorded or started at/after (date or 7d/12h)' });
    parser.add_argument('-o', '--output', { metavar: 'FILE', help: 'write the table to FILE instead of stdout' });
    const args = parseOrHelp<TableArgs>(parser, argv);
    if (!args) return 0;
    const classes = parseClasses(args.classes);
    const catalog = openCatalog(args.db, { mustExist: true });
    let text: string;
    try {
      const runs = catalog.listRuns({
        ...(args.model ? { model: args.model } : {}),
        ...(args.hardware ? { hardware: args.hardware } : {}),
        labels: parseLabels(args.label),
        ...(args.since ? { since: parseSince(args.since) } : {}),
      });
      if (runs.length === 0) throw new UserError(`no runs match in ${catalog.path}; ingest logs with 'servebench ingest' first`);
      text = renderBestPractice(groupByLatencyClass(runs.reverse(), classes), args.format);
    } finally {
      catalog.close();
    }
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
};
