/** `servebench show RUN`: everything stored about one run. */
import type { Command } from '../main.js';
import { catalogCommand, withCatalog, type CatalogArgs } from '../catalog-command.js';
import { linkedRuns, formatRunDetails, encodeJson, summarizeGroup } from '../../catalog/index.js';

interface ShowArgs extends CatalogArgs {
  run: string;
  json: boolean;
  requests: boolean;
}

export const command: Command = catalogCommand<ShowArgs>({
  name: 'show',
  summary: 'show one run: metrics, arguments, recipe configuration, labels, warnings',
  description: 'Show everything stored about one run.',
  addArguments(parser) {
    parser.add_argument('run', { metavar: 'RUN', help: "run id or unique prefix (see 'servebench runs')" });
    parser.add_argument('--json', { action: 'store_true', help: 'print the run as JSON' });
    parser.add_argument('--requests', { action: 'store_true', help: 'with --json: include the per-request records' });
  },
  async run(args) {
    await withCatalog(args.db, (catalog) => {
      const run = catalog.getRun(args.run);
      if (args.json) {
        const body = args.requests ? { ...run, requests: catalog.getRequests(run.id) } : run;
        process.stdout.write(`${encodeJson(body)}\n`);
      } else {
        const group = run.repeat ? catalog.repeatGroup(run.repeat.group) : [];
        process.stdout.write(`${formatRunDetails(run, linkedRuns(run, catalog.listRuns()), group, group.length > 0 ? summarizeGroup(group) : null)}\n`);
      }
    });
    return 0;
  },
});
