/**
 * Turns the text of one input file into catalog runs, the format told from the content, never
 * the file name: JSON results (bench_serving/servebench JSONL, `vllm bench serve`, GuideLLM,
 * AIPerf, GenAI-Perf), CSV (AIPerf/GenAI-Perf exports, summary tables), HTML pages, and console
 * logs or recipe documents (Markdown, or pages saved as text). Pure: the caller reads the file.
 * Bad input is a `UserError` naming the file.
 */
import { readShellWords } from '../../core/command-line.js';
import { UserError } from '../../core/errors.js';
import type { RecipeConfig, RunInput } from '../types.js';
import { capWarnings } from '../warnings.js';
import { boundMetrics, boundRequests } from './bounds.js';
import { parseCsv } from './csv-table.js';
import { readDocumentRuns, readSummaryCsvRuns } from './document-runs.js';
import { labelsFromFileName } from './file-name.js';
import { htmlToDocumentText, looksLikeHtml } from './html-page.js';
import { parseDeploymentInstance } from './launch-config.js';
import { profileExportCsvTool, readProfileExportCsv } from './profile-export.js';
import { readResultRecords } from './result-records.js';
import { detectCommand } from './shell-command.js';

export interface ReadOptions {
  /** User labels; they win over labels read from the file. */
  labels?: Record<string, string>;
  /** Launch commands to attach to runs whose file states no deployment. */
  launchCommands?: string[];
}

function looksBinary(text: string): boolean {
  const sample = text.slice(0, 8192);
  if (sample.includes('\u0000')) return true;
  const control = sample.match(/[\u0001-\u0008\u000e-\u001f\ufffd]/g)?.length ?? 0;
  return control > sample.length * 0.05;
}

/** The deployment given with `--launch` (one command per instance). */
export function recipeFromLaunchCommands(commands: readonly string[], warnings: string[]): RecipeConfig {
  const instances = commands.map((text) => {
    const { words } = readShellWords(text);
    const found = detectCommand(words) ?? { kind: 'launch' as const, launcher: 'sglang serve', args: words };
    if (found.kind === 'bench') throw new UserError(`--launch '${text}' is a bench command; give the server launch command`);
    return parseDeploymentInstance({ ...found, startLine: 0, endLine: 1 }, warnings);
  });
  return { instances, env: {}, origin: 'command line (--launch)' };
}

/** The runs of a CSV file: an AIPerf or GenAI-Perf export, or a summary table; null when it is neither. */
function csvRuns(text: string, file: string): RunInput[] | null {
  if (!text.split('\n', 1)[0]!.includes(',')) return null;
  const records = parseCsv(text);
  const tool = profileExportCsvTool(records);
  if (tool) return [readProfileExportCsv(records, tool, text, file)];
  const summary = readSummaryCsvRuns(records, file);
  return summary.length ? summary : null;
}

/** The runs of a file's text in whatever format it is. */
function runsOf(text: string, file: string): RunInput[] {
  const trimmed = text.trim();
  // A JSONL file whose first line is the bad one is still read as JSONL.
  if (trimmed.startsWith('{') || /\.jsonl?$/i.test(file)) return readResultRecords(text, file);
  if (looksLikeHtml(trimmed)) return readDocumentRuns(htmlToDocumentText(text), file);
  return csvRuns(trimmed, file) ?? readDocumentRuns(text, file);
}

/** A run with its out-of-bounds values nulled (see bounds.ts) and its warnings capped in size. */
function withinBounds(run: RunInput): RunInput {
  const metrics = boundMetrics(run.metrics);
  const requests = boundRequests(run.requests ?? []);
  const warnings = [...(run.warnings ?? []), ...[metrics.warning, requests.warning].filter((w): w is string => w !== null)];
  return { ...run, metrics: metrics.metrics, requests: requests.requests, warnings: capWarnings(warnings) };
}

/**
 * Every run in a file's text. Throws `UserError` for binary, empty or unrecognised input; values
 * no run can produce are stored as null with a warning (bounds.ts). A run gets the file name's
 * labels under its own, the user's over both, and the `--launch` deployment when it has none.
 */
export function readRunsFromText(text: string, file: string, options: ReadOptions = {}): RunInput[] {
  if (looksBinary(text)) throw new UserError(`${file} is a binary file, not a bench log; pass a console log, result file (JSON, CSV) or recipe page`);
  if (text.trim() === '') throw new UserError(`${file} is empty; nothing ingested`);
  const launchWarnings: string[] = [];
  const given = options.launchCommands?.length ? recipeFromLaunchCommands(options.launchCommands, launchWarnings) : null;
  return runsOf(text, file).map((run) =>
    withinBounds({
      ...run,
      labels: { ...labelsFromFileName(file), ...run.labels, ...(options.labels ?? {}) },
      recipe: run.recipe ?? given,
      warnings: [...(run.warnings ?? []), ...(!run.recipe && given ? launchWarnings : [])],
    }),
  );
}
