/**
 * The ranks of a sharded run started as separate processes, as on separate machines: a coordinator
 * told to listen on any free port says which, and the shards are pointed at it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from './cli.js';
import { ISOLATED_HUB_ENV } from './hub-isolation.js';

export interface BenchProcess {
  child: ChildProcess;
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

/** Starts `servebench bench <args>` as a process of its own, collecting its output. */
export function startBench(args: readonly string[], env: NodeJS.ProcessEnv = {}): BenchProcess {
  const child = spawn(process.execPath, [join(REPO_ROOT, 'bin/servebench.js'), 'bench', ...args], {
    env: { ...process.env, OPENAI_API_KEY: '', API_KEY: '', ...ISOLATED_HUB_ENV, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = { stdout: '', stderr: '' };
  child.stdout!.setEncoding('utf8').on('data', (text: string) => (out.stdout += text));
  child.stderr!.setEncoding('utf8').on('data', (text: string) => (out.stderr += text));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => child.on('close', (code) => resolve({ code, ...out })));
  return { child, done };
}

/** The port a coordinator started with `--coordinator HOST:0` says it listens on. */
export function listeningPort(coordinator: BenchProcess): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    let text = '';
    coordinator.child.stderr!.on('data', (chunk: string) => {
      text += chunk;
      const found = /listening on port (\d+)/.exec(text);
      if (found) resolve(Number(found[1]));
    });
    void coordinator.done.then((result) => reject(new Error(`the coordinator ended first: ${result.stderr}`)));
  });
}
