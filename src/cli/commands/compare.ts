/** `servebench compare A B [C ...]`: metrics side by side, change against A, and noise verdicts. */
import type { Command } from '../main.js';
import { UsageError } from '../../core/errors.js';
import { catalogCommand, withCatalog, type CatalogArgs } from '../catalog-command.js';
import { compareMetrics, repeatGroupChecks, noiseChecks, formatComparison } from '../../catalog/index.js';

interface CompareArgs extends CatalogArgs {
  runs: string[];
}

export const command: Command = catalogCommand<CompareArgs>({
  name: 'compare',
  summary: 'compare runs side by side; says which differences of repeated runs are beyond run-to-run noise',
  description:
    "Compare runs: metrics side by side with the relative change against the first run. A run measured with --num-runs brings its repeat group: each headline figure's mean over the group's runs is tested against the baseline group's with Welch's test, at the confidence level the baseline was measured with, and called within or beyond run-to-run noise.",
  addArguments(parser) {
    parser.add_argument('runs', { nargs: '+', metavar: 'RUN', help: 'run ids or unique prefixes; the first is the baseline' });
  },
  async run(args) {
    if (args.runs.length < 2) throw new UsageError('compare needs at least two runs (baseline first)');
    await withCatalog(args.db, (catalog) => {
      const runs = args.runs.map((id) => catalog.getRun(id));
      const checks = noiseChecks(runs.map((run) => catalog.getRequests(run.id)));
      const groupChecks = repeatGroupChecks(runs, (group) => catalog.repeatGroup(group));
      process.stdout.write(`${formatComparison(runs, compareMetrics(runs), checks, groupChecks)}\n`);
    });
    return 0;
  },
});
