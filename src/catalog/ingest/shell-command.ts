/**
 * The word-level pieces of reading pasted shell text: `\` continuations joined, words split as a
 * shell would, an SGLang command recognised among words (`python -m sglang.launch_server ...`,
 * `sglang serve ...`, `X=$(echo serve ...)` wrappers, routers, `python -m sglang.bench_serving ...`),
 * `export` lines and flags. shell-script.ts runs the script these make up.
 */

import { readShellWords } from '../../core/command-line.js';
import { redactSetting } from '../../core/redact.js';

export type CommandKind = 'launch' | 'router' | 'bench';

/** A command found in the text, its arguments split like a shell would (values the script does not determine left as written). */
export interface FoundCommand {
  kind: CommandKind;
  /** The launcher as written, e.g. `python3 -m sglang.launch_server` or `sglang serve`. */
  launcher: string;
  /** The arguments of its first run. */
  args: string[];
  /** The arguments of each time a script runs it (several when a loop runs it once per node); absent: once, with `args`. */
  runs?: string[][];
  /** 0-based line range the command spans (end exclusive). */
  startLine: number;
  endLine: number;
}

/** A logical line: physical lines joined where they end in a backslash. */
export interface LogicalLine {
  text: string;
  startLine: number;
  endLine: number;
}

/** Joins `\`-continued lines; a trailing backslash followed only by spaces still continues. */
export function logicalLines(lines: readonly string[], from = 0, to = lines.length): LogicalLine[] {
  const out: LogicalLine[] = [];
  for (let i = from; i < to; i++) {
    const start = i;
    let text = lines[i]!;
    while (/\\\s*$/.test(text) && i + 1 < to) text = text.replace(/\\\s*$/, ' ') + lines[++i]!;
    out.push({ text: text.replace(/\\\s*$/, ''), startLine: start, endLine: i + 1 });
  }
  return out;
}

const PYTHON = /^(python[0-9.]*|.*\/python[0-9.]*)$/;
const MODULES: Readonly<Record<string, CommandKind>> = {
  'sglang.launch_server': 'launch',
  'sglang_router.launch_router': 'router',
  'sglang.bench_serving': 'bench',
};

/** Recognises the SGLang command in a list of words; null when the words hold none. */
export function detectCommand(words: readonly string[]): { kind: CommandKind; launcher: string; args: string[] } | null {
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (PYTHON.test(w) && words[i + 1] === '-m' && words[i + 2]! in MODULES) {
      return { kind: MODULES[words[i + 2]!]!, launcher: words.slice(i, i + 3).join(' '), args: words.slice(i + 3) };
    }
    const bare = w.replace(/^.*=\$\(/, '').replace(/^\$\(/, '');
    if ((bare === 'sglang' || bare === 'echo') && words[i + 1] === 'serve') {
      return { kind: 'launch', launcher: `sglang serve`, args: words.slice(i + 2).filter((a) => a !== ')') };
    }
    if (w === 'servebench' && words[i + 1] === 'bench') {
      return { kind: 'bench', launcher: 'servebench bench', args: words.slice(i + 2) };
    }
  }
  return null;
}

/** `export NAME=value` assignments in a range of lines; values of secret-looking names are redacted. */
export function findExports(lines: readonly string[], from = 0, to = lines.length): Record<string, string> {
  const env: Record<string, string> = {};
  for (const logical of logicalLines(lines, from, to)) {
    if (!/^\s*export\s/.test(logical.text)) continue;
    const { words } = readShellWords(logical.text);
    for (const assignment of words.slice(1)) {
      const eq = assignment.indexOf('=');
      if (eq <= 0) continue;
      const name = assignment.slice(0, eq);
      env[name] = redactSetting(name, assignment.slice(eq + 1));
    }
  }
  return env;
}

const FLAG = /^--?[A-Za-z]/;

/** Splits `--flag value`, `--flag=value` and bare `--flag` (→ `true`); several values are joined by a space. */
export function parseFlags(args: readonly string[]): { flags: Record<string, string | true>; positionals: string[] } {
  const flags: Record<string, string | true> = {};
  const positionals: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!FLAG.test(arg)) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    if (eq > 0) {
      flags[arg.slice(0, eq)] = arg.slice(eq + 1);
      continue;
    }
    const values: string[] = [];
    while (i + 1 < args.length && !FLAG.test(args[i + 1]!)) values.push(args[++i]!);
    flags[arg] = values.length ? values.join(' ') : true;
  }
  return { flags, positionals };
}
