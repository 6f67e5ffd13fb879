/**
 * `servebench ingest FILE...`: reads bench_serving console logs, JSONL result files and recipe
 * documents into the catalog. Every file is read before anything is stored, and all runs are
 * stored in one transaction: a bad file leaves the catalog exactly as it was.
 */
import { readFileSync } from 'node:fs';
import type { Command } from '../main.js';
import { UserError } from '../../core/errors.js';
import { catalogCommand, withCatalog, type CatalogArgs } from '../catalog-command.js';
import { parseLabels } from '../run-filter-args.js';
import { readRunsFromText } from '../../catalog/index.js';
import type { RunInput } from '../../catalog/index.js';

interface IngestArgs extends CatalogArgs {
  files: string[];
  label: string[] | null;
  launch: string[] | null;
}

function readText(file: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UserError(`${file}: no such file`);
    if (code === 'EISDIR') throw new UserError(`${file} is a directory; pass the log files in it`);
    throw new UserError(`cannot read ${file} (${code ?? (error as Error).message})`);
  }
  return bytes.toString('utf8');
}

export const command: Command = catalogCommand<IngestArgs>({
  name: 'ingest',
  summary: 'read bench_serving logs, JSONL results and recipe pages into the run catalog',
  description: 'Read bench_serving console logs, JSONL result files and recipe documents into the catalog.',
  addArguments(parser) {
    parser.add_argument('files', { nargs: '+', metavar: 'FILE', help: 'console log, JSONL result file or recipe document' });
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
    const perFile: { file: string; runs: RunInput[] }[] = args.files.map((file) => ({
      file,
      runs: readRunsFromText(readText(file), file, { labels, launchCommands: args.launch ?? [] }),
    }));
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
