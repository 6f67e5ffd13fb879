/**
 * `servebench plot RUN [RUN...] --kind KIND --out FILE.svg|.png`: exports a chart of catalog runs.
 * Per-run kinds (throughput, concurrency, ttft, itl, timeline) need exactly one run with per-request records;
 * `tput-vs-tpot` places every given run by its mean TPOT and output throughput.
 */
import type { Command } from '../main.js';
import { UsageError } from '../../core/errors.js';
import { boundedArgType, withRangeHelp } from '../../core/flag-range.js';
import { catalogCommand, withCatalog, type CatalogArgs } from '../catalog-command.js';
import { addOption } from '../../core/command-parser.js';
import { PLOT_KINDS, comparisonChartOption, runChartOption, type PlotKind, imageFormatOf, writeChart, DEFAULT_SIZE } from '../../plots/index.js';

interface PlotArgs extends CatalogArgs {
  runs: string[];
  kind: PlotKind;
  out: string;
  per_card: boolean;
  width: number;
  height: number;
}

/** Chart sizes in pixels: below these the axes and labels overlap, above them the renderer runs out of memory. */
const WIDTH_RANGE = { min: 200, max: 8000 };
const HEIGHT_RANGE = { min: 150, max: 8000 };

export const command: Command = catalogCommand<PlotArgs>({
  name: 'plot',
  summary: 'export a chart of catalog runs as SVG or PNG (throughput, concurrency, ttft, itl, timeline, server, tput-vs-tpot)',
  description: 'Export a chart of catalog runs; the format follows the --out extension (.svg or .png).',
  addArguments(parser) {
    parser.add_argument('runs', { nargs: '+', metavar: 'RUN', help: "run id or unique prefix, as listed by 'servebench runs'" });
    parser.add_argument('--kind', {
      choices: [...PLOT_KINDS],
      required: true,
      help: "throughput / concurrency: per-second series of one run; ttft / itl: latency histograms of one run; timeline: its requests; server: the server's own /metrics over one run (running and queued requests, KV-cache usage, generation throughput); tput-vs-tpot: several runs",
    });
    parser.add_argument('--out', { metavar: 'FILE', required: true, help: 'output file, .svg or .png' });
    parser.add_argument('--per-card', { action: 'store_true', help: 'tput-vs-tpot: output tok/s per card instead of in total' });
    addOption(parser, ['--width'], { type: boundedArgType('int', WIDTH_RANGE), default: DEFAULT_SIZE.width, help: withRangeHelp('chart width in pixels', 'int', WIDTH_RANGE) }, 'int');
    addOption(parser, ['--height'], { type: boundedArgType('int', HEIGHT_RANGE), default: DEFAULT_SIZE.height, help: withRangeHelp('chart height in pixels', 'int', HEIGHT_RANGE) }, 'int');
  },
  async run(args) {
    imageFormatOf(args.out);
    if (args.kind !== 'tput-vs-tpot' && args.runs.length !== 1) {
      throw new UsageError(`--kind ${args.kind} plots one run; give one RUN, or use --kind tput-vs-tpot for several`);
    }
    await withCatalog(args.db, (catalog) => {
      const runs = args.runs.map((id) => catalog.getRun(id));
      const size = { width: args.width, height: args.height };
      if (args.kind === 'tput-vs-tpot') {
        const { option, skipped } = comparisonChartOption(runs, args.per_card);
        for (const line of skipped) process.stderr.write(`servebench plot: warning: ${line}; left out\n`);
        writeChart(option, args.out, size);
      } else {
        const run = runs[0]!;
        writeChart(runChartOption(args.kind, run, catalog.getRequests(run.id)), args.out, size);
      }
    });
    process.stdout.write(`${args.out}\n`);
    return 0;
  },
});
