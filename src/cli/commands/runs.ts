/** `servebench runs`: lists catalog runs, newest first, with filters. */
import type { Command } from '../main.js';
import { AT_LEAST_ONE, boundedArgType, withRangeHelp } from '../../core/flag-range.js';
import { catalogCommand, withCatalog, type CatalogArgs } from '../catalog-command.js';
import { addOption } from '../../core/command-parser.js';
import { addRunFilterArguments, runFilterOf, type RunFilterArgs } from '../run-filter-args.js';
import { formatRunList, encodeJson, summarizeGroup } from '../../catalog/index.js';

interface RunsArgs extends CatalogArgs, RunFilterArgs {
  limit: number;
  json: boolean;
}

export const command: Command = catalogCommand<RunsArgs>({
  name: 'runs',
  summary: 'list runs in the catalog (filters: --model, --hardware, --label, --since, --mode, --limit)',
  description: 'List catalog runs, newest first.',
  addArguments(parser) {
    addRunFilterArguments(parser, 'all');
    addOption(parser, ['--limit'], { type: boundedArgType('int', AT_LEAST_ONE), default: 50, help: withRangeHelp('show at most N runs', 'int', AT_LEAST_ONE) }, 'int');
    parser.add_argument('--json', { action: 'store_true', help: 'print the runs as JSON (Infinity as {"$nonFinite":"Infinity"})' });
  },
  async run(args) {
    const filter = { ...runFilterOf(args), limit: args.limit };
    await withCatalog(args.db, (catalog) => {
      const runs = catalog.listRuns(filter);
      if (args.json) process.stdout.write(`${encodeJson(runs)}\n`);
      else if (runs.length === 0) process.stdout.write(`no runs match in ${catalog.path}\n`);
      else {
        // Each group's summary is over all its runs, listed or not.
        const groups = new Set(runs.flatMap((run) => (run.repeat && run.repeat.runs > 1 ? [run.repeat.group] : [])));
        const summaries = new Map([...groups].map((group) => [group, summarizeGroup(catalog.repeatGroup(group))] as const));
        process.stdout.write(`${formatRunList(runs, summaries)}\n`);
      }
    });
    return 0;
  },
});
