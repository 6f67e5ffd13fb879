/** `servebench dashboard`: serves the catalog as a local web app until interrupted. */
import type { Command } from '../main.js';
import { LISTEN_PORT, boundedArgType, withRangeHelp } from '../../core/flag-range.js';
import { catalogCommand, withCatalog, type CatalogArgs } from '../catalog-command.js';
import { addOption } from '../../core/command-parser.js';
import { isLoopbackHost, startDashboard } from '../../dashboard/index.js';

interface DashboardArgs extends CatalogArgs {
  host: string;
  port: number;
}

export const command: Command = catalogCommand<DashboardArgs>({
  name: 'dashboard',
  summary: 'serve a local web dashboard of the catalog: runs, run details with plots, comparison, best-practice table',
  description: 'Serve the run catalog as a local web app (read-only).',
  addArguments(parser) {
    addOption(parser, ['--host'], { default: '127.0.0.1', help: 'address to listen on; the default serves this machine only' });
    addOption(parser, ['--port'], { type: boundedArgType('int', LISTEN_PORT), default: 8040, help: withRangeHelp('port to listen on', 'int', LISTEN_PORT) }, 'int');
  },
  async run(args) {
    await withCatalog(args.db, async (catalog) => {
      const dashboard = await startDashboard({ catalog, host: args.host, port: args.port });
      process.stdout.write(`servebench dashboard: ${dashboard.url}/  (catalog ${catalog.path}, ${catalog.countRuns()} runs; Ctrl-C stops)\n`);
      if (!isLoopbackHost(args.host)) {
        process.stderr.write(`servebench dashboard: warning: listening on ${args.host}: anyone who can reach this address can read the catalog\n`);
      }
      await new Promise<void>((resolve) => {
        const stop = (): void => resolve();
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
      await dashboard.close();
    });
    return 0;
  },
});
