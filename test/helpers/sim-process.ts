/**
 * `servebench sim` as a real child process (the built CLI), for tests that drive it from outside
 * the test process the way a user does.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ISOLATED_HUB_ENV } from './hub-isolation.js';

const BIN = fileURLToPath(new URL('../../bin/servebench.js', import.meta.url));

export interface SimProcess {
  child: ChildProcessWithoutNullStreams;
  /** The address the sim printed, e.g. `http://127.0.0.1:40123`. */
  url: string;
  /** Everything it wrote so far, stdout and stderr. */
  output: () => string;
}

/** Spawns `servebench sim <args>` and resolves with its printed address once it listens. */
export async function spawnSim(args: string[]): Promise<SimProcess> {
  const child = spawn(process.execPath, [BIN, 'sim', ...args], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...ISOLATED_HUB_ENV } });
  let output = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => (output += text));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      output += text;
      const match = /listening on (http:\/\/\S+)/.exec(output);
      // The ignored-flags line ends the start-up block: waiting for it makes the whole block readable.
      if (match && output.includes('ignored flags')) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`sim exited with ${code}: ${output}`)));
  });
  return { child, url, output: () => output };
}
