/** `servebench compare A B [C ...]`: metrics side by side, change against A, and noise verdicts. */
import type { Command } from '../main.js';
import { UsageError } from '../../core/errors.js';
import { openCatalog } from '../../catalog/index.js';
import { catalogParser, parseOrHelp } from '../../catalog/cli/options.js';
import { compareMetrics, noiseChecks } from '../../catalog/report/compare.js';
import { formatComparison } from '../../catalog/report/run-views.js';

interface CompareArgs {
  db: string | null;
  runs: string[];
}

export const command: Command = {
  summary: 'compare runs side by side; flags TTFT/TPOT changes beyond run-to-run noise',
  async run(argv) {
    const parser = catalogParser('compare', 'Compare runs: metrics side by side with the relative change against the first run.');
    parser.add_argument('runs', { nargs: '+', metavar: 'RUN', help: 'run ids or unique prefixes; the first is the baseline' });
    const args = parseOrHelp<CompareArgs>(parser, argv);
    if (!args) return 0;
    if (args.runs.length < 2) throw new UsageError('compare needs at least two runs (baseline first)');
    const catalog = openCatalog(args.db, { mustExist: true });
    try {
      const runs = args.runs.map((id) => catalog.getRun(id));
      const checks = noiseChecks(runs.map((run) => catalog.getRequests(run.id)));
      process.stdout.write(`${formatComparison(runs, compareMetrics(runs), checks)}\n`);
    } finally {
      catalog.close();
    }
    return 0;
  },
};
