/**
 * Runs the built CLI (`node bin/servebench.js`, after `tsc -p tsconfig.build.json`) as a child
 * process. Asynchronous on purpose: the loopback test servers live in the test process and must
 * keep answering while the CLI runs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ISOLATED_HUB_ENV } from './hub-isolation.js';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = fileURLToPath(new URL('../../bin/servebench.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface OutputTrigger {
  pattern: RegExp;
  delayMs: number;
  act: (child: ChildProcess) => void;
}

export interface CliOptions {
  cwd?: string;
  /** Over the inherited environment and the isolated hub settings (hub-isolation.ts). */
  env?: NodeJS.ProcessEnv;
  /** Runs `act` on the child `delayMs` after stdout first matches `pattern`: a Ctrl-C at a known point, say. */
  whenStdout?: OutputTrigger;
  /** The same on stderr (progress and notices). */
  whenStderr?: OutputTrigger;
}

/** Runs `servebench <args>` in `cwd` and collects its output. */
export function runCli(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd ?? REPO_ROOT,
      env: { ...process.env, OPENAI_API_KEY: '', API_KEY: '', ...ISOLATED_HUB_ENV, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const collected = { stdout: '', stderr: '' };
    for (const [name, trigger] of [['stdout', options.whenStdout], ['stderr', options.whenStderr]] as const) {
      let pending = trigger;
      child[name].setEncoding('utf8').on('data', (text: string) => {
        collected[name] += text;
        if (pending !== undefined && pending.pattern.test(collected[name])) {
          const { delayMs, act } = pending;
          pending = undefined;
          setTimeout(() => act(child), delayMs);
        }
      });
    }
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, ...collected }));
  });
}
