/**
 * Reads the SGLang commands of a recipe script the way the script determines them: variables and
 * arrays it assigns (`IPs=(a b)`, `nnodes=${#IPs[@]}`, `tp=$(expr 16 \* ${nnodes})`), `for` loops
 * over values it knows (a per-node loop runs its launch once per node, giving each `--node-rank`),
 * and `if` branches, all of which may run. Conditions are not evaluated: which branch or node a
 * machine takes is the runtime's business. A value the runtime alone knows stays as written.
 *
 * Each command comes back once per time the script would run it: a command in a loop over two
 * nodes has two argument lists.
 */
import { closingBracketIndex, closingQuoteIndex } from '../../core/command-line.js';
import { detectCommand, logicalLines, type FoundCommand } from './shell-command.js';
import { arithmetic, expandText, expandWord, rawWords, type ShellVariables } from './shell-expansion.js';

/** At most this many iterations of one loop are followed (a runaway loop is not a recipe). */
const MAX_ITERATIONS = 256;
/** At most this many lines continue a `$(` or `NAME=(` left open (a stray parenthesis in prose must not swallow the page). */
const MAX_OPEN_LINES = 64;

interface Statement {
  text: string;
  startLine: number;
  endLine: number;
}

type Node =
  | { kind: 'simple'; statement: Statement }
  | { kind: 'for'; variable: string; values: string[]; body: Node[] }
  | { kind: 'c-for'; init: string; condition: string; step: string; body: Node[] }
  /** `while`/`until`: how often it runs is not known; its body is read once. */
  | { kind: 'loop'; body: Node[] };

/** Splits a line at `;`, `&&`, `||`, `|` and a trailing `&`, outside quotes and brackets; a comment ends it. */
function splitStatements(text: string): string[] {
  const parts: string[] = [];
  let current = '';
  const push = (): void => {
    if (current.trim()) parts.push(current.trim());
    current = '';
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    // An open quote runs to the end of the line; an unclosed bracket is read on as plain text.
    let end = -1;
    if (ch === '\\') {
      end = i + 1;
    } else if (ch === "'" || ch === '"' || ch === '`') {
      const close = closingQuoteIndex(text, i);
      end = close < 0 ? text.length : close;
    } else if ((ch === '$' && (text[i + 1] === '(' || text[i + 1] === '{')) || (ch === '(' && text[i + 1] === '(')) {
      end = closingBracketIndex(text, ch === '$' ? i + 1 : i);
    }
    if (end !== -1) {
      current += text.slice(i, end + 1);
      i = end;
    } else if (ch === '#' && /(^|\s)$/.test(current)) {
      break;
    } else if (text.startsWith('&&', i) || text.startsWith('||', i)) {
      push();
      i++;
    } else if (ch === ';' || ch === '|' || (ch === '&' && text[i - 1] !== '>' && text[i + 1] !== '>')) {
      push();
    } else {
      current += ch;
    }
  }
  push();
  return parts;
}

const NAME = /^[A-Za-z_]\w*$/;
const KEYWORDS_BEFORE_A_COMMAND = new Set(['then', 'else', 'do', '{', '}', '!']);
const IGNORED = new Set(['if', 'elif', 'fi', 'esac', 'case', 'break', 'continue', 'return', 'exit']);

/** The words of a statement with the keywords that only open a block (`then`, `do`, `else`) dropped. */
function commandWords(statement: Statement): string[] {
  const words = rawWords(statement.text);
  while (words.length && KEYWORDS_BEFORE_A_COMMAND.has(words[0]!)) words.shift();
  return words;
}

/** Parses statements into nodes up to the `done` that closes the block (or the end). */
function parseBlock(statements: readonly Statement[], at: { index: number }, closesWithDone: boolean): Node[] {
  const nodes: Node[] = [];
  while (at.index < statements.length) {
    const statement = statements[at.index++]!;
    const words = commandWords(statement);
    const first = words[0];
    if (first === undefined || IGNORED.has(first)) continue;
    if (first === 'done') {
      if (closesWithDone) return nodes;
      continue;
    }
    const cStyle = first === 'for' ? /^for\s*\(\((.*)\)\)\s*$/.exec(statement.text.replace(/^\s*(do|then|else)\s+/, '')) : null;
    if (cStyle) {
      const [init = '', condition = '', step = ''] = cStyle[1]!.split(';');
      nodes.push({ kind: 'c-for', init, condition, step, body: parseBlock(statements, at, true) });
    } else if (first === 'for' && NAME.test(words[1] ?? '')) {
      const values = words[2] === 'in' ? words.slice(3) : ['"$@"'];
      nodes.push({ kind: 'for', variable: words[1]!, values, body: parseBlock(statements, at, true) });
    } else if (first === 'while' || first === 'until') {
      nodes.push({ kind: 'loop', body: parseBlock(statements, at, true) });
    } else {
      nodes.push({ kind: 'simple', statement: { ...statement, text: words.join(' ') } });
    }
  }
  return nodes;
}

const ASSIGNMENT = /^([A-Za-z_]\w*)=([\s\S]*)$/;
const DECLARATION = new Set(['export', 'declare', 'local', 'readonly', 'typeset']);
/** `> log`, `>>out.txt`, `2>&1`, `&>x`. An input `<` only alone: `<PREFILL_IP>` is a page's placeholder, not a redirection. */
const OUTPUT_REDIRECTION = /^(\d*|&)>>?(&?)(.*)$/;

/** Raw words without redirections: they are not arguments. */
function withoutRedirections(words: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const m = OUTPUT_REDIRECTION.exec(words[i]!);
    if (words[i] === '<' || (m && m[2] === '' && m[3] === '')) i++;
    else if (!m) kept.push(words[i]!);
  }
  return kept;
}

/** Expands raw words; an unknown expansion stays as written in its word. */
function expandAll(words: readonly string[], variables: ShellVariables): string[] {
  return words.flatMap((w) => expandWord(w, variables).words);
}

/** Assigns `NAME=value` or `NAME=(a b c)`; a value the script cannot determine makes the variable unknown. */
function assign(name: string, value: string, variables: ShellVariables): void {
  if (value.startsWith('(') && value.endsWith(')')) {
    const elements = rawWords(value.slice(1, -1)).map((w) => expandWord(w, variables));
    if (elements.some((e) => e.unknown.length)) variables.delete(name);
    else variables.set(name, elements.flatMap((e) => e.words));
    return;
  }
  const expanded = expandWord(value, variables);
  if (expanded.unknown.length) variables.delete(name);
  else variables.set(name, expanded.words.join(' '));
}

/** `i++`, `i+=2`, `i=0`, `++i` as `(( ))` and C-style `for` headers write them. */
function arithmeticAssignment(text: string, variables: ShellVariables): void {
  const t = text.trim();
  const step = /^(?:\+\+([A-Za-z_]\w*)|([A-Za-z_]\w*)\+\+|--([A-Za-z_]\w*)|([A-Za-z_]\w*)--)$/.exec(t);
  const compound = /^([A-Za-z_]\w*)\s*([-+*/%]?)=\s*(.+)$/.exec(t);
  let name: string | undefined;
  let value: number | null = null;
  if (step) {
    name = step[1] ?? step[2] ?? step[3] ?? step[4];
    const delta = step[1] ?? step[2] ? 1 : -1;
    value = arithmetic(`${name} + ${delta}`, variables);
  } else if (compound) {
    name = compound[1];
    value = arithmetic(compound[2] ? `${name} ${compound[2]} (${compound[3]})` : compound[3]!, variables);
  }
  if (name === undefined) return;
  if (value === null) variables.delete(name);
  else variables.set(name, String(value));
}

type Recorder = (statement: Statement, command: NonNullable<ReturnType<typeof detectCommand>>) => void;

/** A `$(echo serve ...)` value prints an SGLang command line that the script runs later: it is read as that command. */
function substitutedCommand(value: string, variables: ShellVariables): ReturnType<typeof detectCommand> {
  if (!value.startsWith('$(') || !value.endsWith(')')) return null;
  return detectCommand(expandAll(withoutRedirections(rawWords(value.slice(2, -1))), variables));
}

function runSimple(statement: Statement, variables: ShellVariables, record: Recorder): void {
  let words = rawWords(statement.text);
  if (words[0] === 'unset') {
    words.slice(1).forEach((w) => variables.delete(w));
    return;
  }
  if (words[0]?.startsWith('((')) {
    words.join(' ').slice(2, -2).split(',').forEach((part) => arithmeticAssignment(expandText(part, variables).text, variables));
    return;
  }
  if (DECLARATION.has(words[0] ?? '')) words = words.slice(1).filter((w) => !w.startsWith('-'));
  const assignments = words.map((w) => ASSIGNMENT.exec(w));
  if (assignments.length > 0 && assignments.every((a) => a !== null)) {
    for (const a of assignments) {
      const command = substitutedCommand(a![2]!, variables);
      if (command) record(statement, command);
      assign(a![1]!, a![2]!, variables);
    }
    return;
  }
  const command = detectCommand(expandAll(withoutRedirections(words), variables));
  if (command) record(statement, command);
}

/** Variables after a loop: what every pass left the same keeps its value; what differed is unknown. */
function mergePasses(variables: ShellVariables, passes: readonly ShellVariables[]): void {
  const names = new Set(passes.flatMap((p) => [...p.keys()]));
  for (const name of names) {
    const values = new Set(passes.map((p) => JSON.stringify(p.get(name) ?? null)));
    const value = passes[0]!.get(name);
    if (values.size === 1 && value !== undefined) variables.set(name, value);
    else variables.delete(name);
  }
}

function run(nodes: readonly Node[], variables: ShellVariables, record: Recorder): void {
  for (const node of nodes) {
    if (node.kind === 'simple') {
      runSimple(node.statement, variables, record);
      continue;
    }
    const passes: ShellVariables[] = [];
    const pass = (bind: (v: ShellVariables) => void): void => {
      const scope = new Map(variables);
      bind(scope);
      run(node.body, scope, record);
      passes.push(scope);
    };
    if (node.kind === 'for') {
      const values = node.values.map((w) => expandWord(w, variables));
      if (values.some((v) => v.unknown.length)) pass((v) => v.delete(node.variable));
      else for (const value of values.flatMap((v) => v.words).slice(0, MAX_ITERATIONS)) pass((v) => v.set(node.variable, value));
    } else if (node.kind === 'c-for') {
      const counter = new Map(variables);
      const evaluate = (text: string): number | null => arithmetic(expandText(text, counter).text, counter);
      arithmeticAssignment(expandText(node.init, counter).text, counter);
      for (let i = 0; i < MAX_ITERATIONS && evaluate(node.condition) === 1; i++) {
        const state = new Map(counter);
        pass((v) => state.forEach((value, name) => v.set(name, value)));
        arithmeticAssignment(expandText(node.step, counter).text, counter);
      }
      if (passes.length === 0 && evaluate(node.condition) === null) pass(() => {});
    } else {
      pass(() => {});
    }
    if (passes.length) mergePasses(variables, passes);
  }
}

export interface ScriptOptions {
  /** Lines that are not script (result blocks). */
  skip?: ReadonlySet<number>;
  /** Lines where a new recipe starts: the variables of the previous one are forgotten there. */
  resets?: ReadonlySet<number>;
}

/** True when the text opens a `$(` or an array `NAME=(` that it does not close: the shell reads on to the next line. */
function opensGroup(text: string): boolean {
  for (const m of text.matchAll(/\$\(|[A-Za-z_]\w*=\(/g)) {
    if (closingBracketIndex(text, m.index + m[0].length - 1) < 0) return true;
  }
  return false;
}

/** Logical lines of a range, a `$(...)` or `NAME=(...)` spanning lines joined into the line that opens it. */
function scriptLines(lines: readonly string[], from: number, to: number, skip: ReadonlySet<number>): Statement[] {
  const logical = logicalLines(lines, from, to).filter((l) => !skip.has(l.startLine));
  const joined: Statement[] = [];
  for (let i = 0; i < logical.length; i++) {
    const line = { text: logical[i]!.text, startLine: logical[i]!.startLine, endLine: logical[i]!.endLine };
    for (let k = 0; opensGroup(line.text) && k < MAX_OPEN_LINES && i + 1 < logical.length; k++) {
      const next = logical[++i]!;
      line.text += `\n${next.text}`;
      line.endLine = next.endLine;
    }
    joined.push(line);
  }
  return joined;
}

/** Every SGLang command of the text, in order, each with one argument list per time the script runs it. */
export function findCommands(lines: readonly string[], options: ScriptOptions = {}): FoundCommand[] {
  const skip = options.skip ?? new Set<number>();
  const resets = [...(options.resets ?? [])].sort((a, b) => a - b);
  // A command is its statement: each pass of a loop adds a run to it; two commands on one line stay two.
  const found = new Map<string, FoundCommand>();
  const record: Recorder = (statement, command) => {
    const key = `${statement.startLine}:${statement.text}`;
    const known = found.get(key);
    if (known) known.runs!.push(command.args);
    else found.set(key, { ...command, runs: [command.args], startLine: statement.startLine, endLine: statement.endLine });
  };
  // Each recipe (between resets) is a script of its own.
  const bounds = [0, ...resets.filter((r) => r > 0), lines.length];
  for (let b = 0; b + 1 < bounds.length; b++) {
    const statements: Statement[] = [];
    for (const line of scriptLines(lines, bounds[b]!, bounds[b + 1]!, skip)) {
      for (const text of splitStatements(line.text)) statements.push({ ...line, text });
    }
    run(parseBlock(statements, { index: 0 }, false), new Map(), record);
  }
  return [...found.values()].sort((a, b) => a.startLine - b.startLine);
}
