/**
 * A tcpdump capture of one server port on the loopback interface, for the wire referee: started
 * before a run, stopped after it, with the kernel's count of segments it dropped (a capture that
 * dropped any cannot referee every request). tcpdump needs root or CAP_NET_RAW; `captureRefusal`
 * says in one line why a capture cannot run here.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';

/** libpcap's default buffer timeout on Linux, after which a partly filled ring block is handed over. */
const BLOCK_TIMEOUT_MS = 1000;

export interface Capture {
  /** Stops the capture and returns how many segments the kernel dropped. */
  stop(): Promise<{ dropped: number }>;
}

/** Null when tcpdump can capture on `lo` here; otherwise why not and the fix, in one line. */
export function captureRefusal(): string | null {
  const probe = spawnSync('tcpdump', ['-i', 'lo', '-c', '1', '-w', '/dev/null', 'port', '1'], { timeout: 1000, encoding: 'utf8' });
  if ((probe.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') return 'no tcpdump on PATH: apt-get install -y tcpdump';
  if (/permission|not permitted/i.test(probe.stderr ?? '')) return 'tcpdump may not capture here: run as root or give it CAP_NET_RAW';
  return null;
}

/** Waits for tcpdump's "listening on" line: segments before it are not captured. */
async function listening(child: ChildProcess): Promise<string[]> {
  const lines: string[] = [];
  await new Promise<void>((resolve, reject) => {
    child.stderr!.setEncoding('utf8').on('data', (text: string) => {
      lines.push(text);
      if (lines.join('').includes('listening on')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`tcpdump exited with ${code}: ${lines.join('').trim()}`)));
  });
  return lines;
}

/** Captures every TCP segment to or from `port` on `lo` into `file`, stamped to the ns. */
export async function startCapture(port: number, file: string): Promise<Capture> {
  // -s 0: whole segments (the events are read from them); -B: a 256 MiB kernel buffer so that
  // thousands of streams' segments are not dropped while tcpdump writes. Segments reach tcpdump
  // in ring blocks, a block once full or BLOCK_TIMEOUT_MS old: batches cost it far less CPU than
  // one wake-up per segment (--immediate-mode) on a box the run already keeps busy.
  const args = ['-i', 'lo', '-n', '-s', '0', '-B', '262144', '--time-stamp-precision=nano', '-w', file, 'tcp', 'port', String(port)];
  const child = spawn('tcpdump', args, {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const stderr = await listening(child);
  return {
    async stop() {
      // A block still filling when tcpdump stops never reaches the file: wait until it has timed out.
      await sleep(BLOCK_TIMEOUT_MS * 1.5);
      const exited = once(child, 'exit');
      child.kill('SIGINT');
      await exited;
      const dropped = /(\d+) packets? dropped by kernel/.exec(stderr.join(''));
      return { dropped: dropped ? Number(dropped[1]) : 0 };
    },
  };
}
