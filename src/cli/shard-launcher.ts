/**
 * `bench --shards K` on one host: the K shard processes, each this same command with its rank and
 * the coordinator's loopback port. Each runs in its own process group, so a Ctrl-C reaches only the
 * coordinator, which passes it on; their notices come through on stderr under their rank.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { LaunchedShards } from '../bench/index.js';

/** How long a shard gets to end after SIGTERM before it is killed (ms). */
const STOP_GRACE_MS = 5000;

export function launchLocalShards(benchArgv: readonly string[], shards: number, port: number, notice: (line: string) => void): LaunchedShards {
  const exitHandlers: Array<(rank: number, how: string) => void> = [];
  const children: Array<{ rank: number; child: ChildProcess; exited: Promise<unknown> }> = [];
  for (let rank = 1; rank <= shards; rank++) {
    const child = spawn(process.execPath, [process.argv[1]!, 'bench', ...benchArgv, '--shard-rank', String(rank), '--coordinator', `127.0.0.1:${port}`], {
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    });
    let lastLine = '';
    createInterface({ input: child.stderr! }).on('line', (line) => {
      lastLine = line;
      notice(`shard ${rank}: ${line}`);
    });
    const exited = once(child, 'close');
    void exited.then(([code, signal]) => {
      const how = signal !== null ? `was killed by ${String(signal)}` : `exited with status ${String(code)}`;
      for (const handler of exitHandlers) handler(rank, lastLine === '' ? how : `${how} (${lastLine})`);
    });
    children.push({ rank, child, exited });
  }
  return {
    onExit: (handler) => {
      exitHandlers.push(handler);
    },
    stop: async () => {
      await Promise.all(
        children.map(async ({ child, exited }) => {
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.kill('SIGTERM');
          const killer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
          await exited;
          clearTimeout(killer);
        }),
      );
    },
  };
}
