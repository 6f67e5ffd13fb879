/**
 * `servebench ingest FILE...`: reads benchmark results (bench_serving logs and JSONL, vLLM,
 * GuideLLM, AIPerf, GenAI-Perf) and recipe pages into the catalog. Every file is read before
 * anything is stored, and all runs are stored in one transaction. A file that gives no run is one
 * line on stderr; the exit status is 1 only when no file gave a run.
 */
import type { Command } from '../main.js';
import { redactText } from '../../core/redact.js';
import { catalogCommand, withCatalog, type CatalogArgs } from '../catalog-command.js';
import { parseLabels } from '../run-filter-args.js';
import { readIngestFiles } from '../../catalog/index.js';

interface IngestArgs extends CatalogArgs {
  files: string[];
  label: string[] | null;
  launch: string[] | null;
}

export const command: Command = catalogCommand<IngestArgs>({
  name: 'ingest',
  summary: "read bench logs, other tools' results and recipe pages into the run catalog",
  description:
    'Read bench_serving console logs and JSONL results, vLLM, GuideLLM, AIPerf and GenAI-Perf result files, and recipe pages ' +
    '(Markdown, HTML, CSV, or saved as text) into the catalog.',
  addArguments(parser) {
    parser.add_argument('files', { nargs: '+', metavar: 'FILE', help: 'console log, result file (JSON, JSONL, CSV) or recipe page' });
    parser.add_argument('--label', {
      action: 'append',
      metavar: 'KEY=VALUE',
      help: 'label every run of the files, also runs stored before (repeatable), e.g. --label cards=16',
    });
    parser.add_argument('--launch', {
      action: 'append',
      metavar: 'CMD',
      help: 'server launch command of runs whose file has none (repeat for prefill/decode/router)',
    });
  },
  async run(args) {
    const labels = parseLabels(args.label);
    const { read: perFile, problems } = readIngestFiles(args.files, { labels, launchCommands: args.launch ?? [] });
    for (const problem of problems) process.stderr.write(`servebench ingest: error: ${redactText(problem)}\n`);
    if (perFile.length === 0) return 1;
    await withCatalog(args.db, (catalog) => {
      const outcomes = catalog.recordRuns(perFile.flatMap((f) => f.runs), { mergeLabels: Object.keys(labels).length > 0 });
      let k = 0;
      for (const { file, runs } of perFile) {
        const mine = outcomes.slice(k, k + runs.length);
        k += runs.length;
        const created = mine.filter((o) => o.created).length;
        const relabelled = Object.keys(labels).length > 0 && created < runs.length ? '; labels added to the stored ones' : '';
        process.stdout.write(`${file}: ${runs.length} run${runs.length === 1 ? '' : 's'} (${created} new, ${runs.length - created} already stored${relabelled})\n`);
        runs.forEach((run, i) => {
          process.stdout.write(`  ${mine[i]!.id}  ${run.source.title ?? run.model ?? ''}\n`);
          for (const warning of run.warnings ?? []) process.stdout.write(`    warning: ${warning}\n`);
        });
      }
      process.stdout.write(`catalog: ${catalog.path} (${catalog.countRuns()} runs)\n`);
    }, { mustExist: false });
    return 0;
  },
});
