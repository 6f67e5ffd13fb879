/**
 * Runs the built CLI (`node bin/servebench.js`, after `tsc -p tsconfig.build.json`) as a child
 * process. Asynchronous on purpose: the loopback test servers live in the test process and must
 * keep answering while the CLI runs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = fileURLToPath(new URL('../../bin/servebench.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Runs `act` on the child `delayMs` after stdout first matches `pattern`: a Ctrl-C at a known point, say. */
  whenStdout?: { pattern: RegExp; delayMs: number; act: (child: ChildProcess) => void };
}

/** Runs `servebench <args>` in `cwd` and collects its output. */
export function runCli(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd ?? REPO_ROOT,
      env: { ...process.env, OPENAI_API_KEY: '', API_KEY: '', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let trigger = options.whenStdout;
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      stdout += text;
      if (trigger !== undefined && trigger.pattern.test(stdout)) {
        const { delayMs, act } = trigger;
        trigger = undefined;
        setTimeout(() => act(child), delayMs);
      }
    });
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
