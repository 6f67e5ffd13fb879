/** `servebench show RUN`: everything stored about one run. */
import type { Command } from '../main.js';
import { openCatalog } from '../../catalog/index.js';
import { catalogParser, parseOrHelp } from '../../catalog/cli/options.js';
import { formatRunDetails } from '../../catalog/report/run-views.js';
import { encodeJson } from '../../catalog/store/json-codec.js';

interface ShowArgs {
  db: string | null;
  run: string;
  json: boolean;
  requests: boolean;
}

export const command: Command = {
  summary: 'show one run: metrics, arguments, recipe configuration, labels, warnings',
  async run(argv) {
    const parser = catalogParser('show', 'Show everything stored about one run.');
    parser.add_argument('run', { metavar: 'RUN', help: "run id or unique prefix (see 'servebench runs')" });
    parser.add_argument('--json', { action: 'store_true', help: 'print the run as JSON' });
    parser.add_argument('--requests', { action: 'store_true', help: 'with --json: include the per-request records' });
    const args = parseOrHelp<ShowArgs>(parser, argv);
    if (!args) return 0;
    const catalog = openCatalog(args.db, { mustExist: true });
    try {
      const run = catalog.getRun(args.run);
      if (args.json) {
        const body = args.requests ? { ...run, requests: catalog.getRequests(run.id) } : run;
        process.stdout.write(`${encodeJson(body)}\n`);
      } else {
        process.stdout.write(`${formatRunDetails(run)}\n`);
      }
    } finally {
      catalog.close();
    }
    return 0;
  },
};
