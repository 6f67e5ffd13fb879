/**
 * The `servebench` command: a thin dispatcher over one module per subcommand.
 * Subcommand modules are imported lazily so `servebench sim` never loads the catalog, etc.
 */
import { UsageError, UserError, describeError } from '../core/errors.js';
import { redactText } from '../core/redact.js';

export interface Command {
  /** One line for `servebench --help`. */
  summary: string;
  /** Runs the command with the arguments after its name; resolves to the exit code. */
  run(argv: string[]): Promise<number>;
}

/** Subcommands, in the order `--help` lists them; each lives in `./commands/<name>.ts`. */
export const COMMAND_NAMES = [
  'bench',
  'sim',
  'router',
  'predict',
  'sweep',
  'eval',
  'ingest',
  'runs',
  'show',
  'compare',
  'table',
  'plot',
  'dashboard',
] as const;

function loadCommand(name: string): Promise<{ command: Command }> {
  return import(`./commands/${name}.js`) as Promise<{ command: Command }>;
}

async function usage(): Promise<string> {
  const lines = ['usage: servebench <command> [options]', '', 'commands:'];
  for (const name of COMMAND_NAMES) {
    try {
      const { command } = await loadCommand(name);
      lines.push(`  ${name.padEnd(10)} ${command.summary}`);
    } catch {
      // A command whose module is not built yet is simply not listed.
    }
  }
  lines.push('', "Run 'servebench <command> --help' or 'servebench help <command>' for a command's options.");
  return lines.join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  // `servebench help CMD` is `servebench CMD --help`, as git and pip read it.
  if (name === 'help' && rest.length > 0) {
    if (rest.length === 1) return runCommand(rest[0]!, ['--help']);
    process.stderr.write(`servebench help: error: expected one command name, got ${rest.length}: ${rest.join(' ')}\n`);
    return 2;
  }
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write((await usage()) + '\n');
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-V') {
    const { TOOL_VERSION } = await import('../core/version.js');
    process.stdout.write(`servebench ${TOOL_VERSION}\n`);
    return 0;
  }
  return runCommand(name, rest);
}

/** Runs one subcommand; its errors become one stderr line and an exit code. */
async function runCommand(name: string, argv: string[]): Promise<number> {
  if (!(COMMAND_NAMES as readonly string[]).includes(name)) {
    process.stderr.write(`servebench: error: unknown command '${name}'; run 'servebench --help' for the list\n`);
    return 2;
  }
  try {
    const { command } = await loadCommand(name);
    return await command.run(argv);
  } catch (error) {
    // Messages quote the URLs they failed on; a password in one must not reach the terminal.
    if (error instanceof UsageError || error instanceof UserError) {
      process.stderr.write(`servebench ${name}: error: ${redactText(error.message)}\n`);
      return error.exitCode;
    }
    process.stderr.write(`servebench ${name}: internal error: ${redactText(describeError(error))}\n`);
    if (process.env.SERVEBENCH_DEBUG) console.error(error);
    return 1;
  }
}
