/** `servebench runs`: lists catalog runs, newest first, with filters. */
import type { Command } from '../main.js';
import { openCatalog } from '../../catalog/index.js';
import { catalogParser, parseLabels, parseOrHelp, parseSince } from '../../catalog/cli/options.js';
import { formatRunList } from '../../catalog/report/run-views.js';
import { encodeJson } from '../../catalog/store/json-codec.js';

interface RunsArgs {
  db: string | null;
  model: string | null;
  hardware: string | null;
  label: string[] | null;
  since: string | null;
  limit: number;
  json: boolean;
}

export const command: Command = {
  summary: 'list runs in the catalog (filters: --model, --hardware, --label, --since, --limit)',
  async run(argv) {
    const parser = catalogParser('runs', 'List catalog runs, newest first.');
    parser.add_argument('--model', { help: 'model name contains this text (case-insensitive)' });
    parser.add_argument('--hardware', { help: "the 'hardware' label contains this text (case-insensitive)" });
    parser.add_argument('--label', { action: 'append', metavar: 'KEY=VALUE', help: 'label equals value (repeatable)' });
    parser.add_argument('--since', { help: 'recorded or started at/after: a date (2026-01-31) or look-back (7d, 12h)' });
    parser.add_argument('--limit', { type: 'int', default: 50, help: 'show at most N runs (default 50)' });
    parser.add_argument('--json', { action: 'store_true', help: 'print the runs as JSON (Infinity as {"$nonFinite":"Infinity"})' });
    const args = parseOrHelp<RunsArgs>(parser, argv);
    if (!args) return 0;
    const filter = {
      ...(args.model ? { model: args.model } : {}),
      ...(args.hardware ? { hardware: args.hardware } : {}),
      labels: parseLabels(args.label),
      ...(args.since ? { since: parseSince(args.since) } : {}),
      limit: Math.max(0, args.limit),
    };
    const catalog = openCatalog(args.db, { mustExist: true });
    try {
      const runs = catalog.listRuns(filter);
      if (args.json) process.stdout.write(`${encodeJson(runs)}\n`);
      else if (runs.length === 0) process.stdout.write(`no runs match in ${catalog.path}\n`);
      else process.stdout.write(`${formatRunList(runs)}\n`);
    } finally {
      catalog.close();
    }
    return 0;
  },
};
