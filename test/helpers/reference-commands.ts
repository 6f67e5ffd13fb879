/**
 * The bench_serving command lines of the published reference logs, as argument lists: the
 * `python3 -m sglang.bench_serving \ ...` commands written out in a log (continuations joined,
 * `# comments` stripped, `$MASTER_ADDR` replaced), and, for logs that only print
 * `benchmark_args=Namespace(...)`, the command rebuilt from the Namespace's non-default values.
 */
import { BENCH_OPTIONS } from '../../src/bench/args/options.js';
import { parseNamespace } from '../../src/catalog/ingest/python-repr.js';
import { pyRepr, type PyValue } from '../../src/core/pyrepr.js';
import { listReferenceLogs, readReferenceLog } from './reference-logs.js';

export interface ReferenceCommand {
  /** `<log file>#<n>` */
  source: string;
  args: string[];
  /** Namespace keys this version of bench_serving no longer has (their values were defaults). */
  droppedKeys: string[];
}

/** Splits a shell-like command line on whitespace, honouring single and double quotes. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  const pattern = /'([^']*)'|"([^"]*)"|(\S+)/g;
  for (const match of line.matchAll(pattern)) words.push(match[1] ?? match[2] ?? match[3]!);
  return words;
}

function writtenCommands(file: string, text: string): ReferenceCommand[] {
  const lines = text.split('\n');
  const commands: ReferenceCommand[] = [];
  lines.forEach((line, i) => {
    if (!line.includes('-m sglang.bench_serving')) return;
    let joined = '';
    for (let j = i; j < lines.length; j++) {
      const piece = lines[j]!.replace(/\s#.*$/, '');
      const continued = piece.trimEnd().endsWith('\\');
      joined += ' ' + piece.trimEnd().replace(/\\$/, '');
      if (!continued) break;
    }
    const words = shellWords(joined.replaceAll('$MASTER_ADDR', '127.0.0.1'));
    const start = words.indexOf('sglang.bench_serving');
    commands.push({ source: `${file}#${commands.length + 1}`, args: words.slice(start + 1), droppedKeys: [] });
  });
  return commands;
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function namespaceCommand(file: string, repr: string): ReferenceCommand {
  const args: string[] = [];
  const droppedKeys: string[] = [];
  for (const [key, value] of Object.entries(parseNamespace(repr))) {
    const option = BENCH_OPTIONS.find((candidate) => candidate.dest === key);
    if (!option) {
      droppedKeys.push(`${key}=${pyRepr(value as PyValue)}`);
      continue;
    }
    if (sameValue(value, option.defaultValue) || value === null) continue;
    if (option.kind === 'flag') {
      if (value === true) args.push(option.flag);
    } else if (Array.isArray(value)) {
      args.push(option.flag, ...value.map(String));
    } else {
      args.push(option.flag, value === Infinity ? 'inf' : String(value));
    }
  }
  return { source: `${file}#namespace`, args, droppedKeys };
}

/** Every reference command line found in the published logs. */
export function referenceCommands(): ReferenceCommand[] {
  const commands: ReferenceCommand[] = [];
  for (const file of listReferenceLogs()) {
    const text = readReferenceLog(file);
    const written = writtenCommands(file, text);
    if (written.length > 0) {
      commands.push(...written);
      continue;
    }
    const dump = text.split('\n').find((line) => line.startsWith('benchmark_args=Namespace('));
    if (dump) commands.push(namespaceCommand(file, dump));
  }
  return commands;
}
