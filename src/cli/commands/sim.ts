/**
 * `servebench sim [SGLang launch flags]`: a simulated SGLang server on 127.0.0.1:30000 by default,
 * serving from its own thread (see sim-thread.ts for why) until SIGINT/SIGTERM.
 */
import type { Command } from '../main.js';
import { UserError } from '../../core/errors.js';
import { hardwareNames } from '../../sim/model/catalog.js';
import { FAMILY_REFERENCE } from '../../sim/model/hardware-spec.js';
import { startDedicatedSim } from '../../sim/server/sim-thread.js';

const HELP = `usage: servebench sim --model-path MODEL [SGLang launch flags] [sim flags]

Serves SGLang's native API (/generate, /get_server_info, /flush_cache, ...) and the OpenAI API
(/v1/completions, /v1/chat/completions, /v1/models) with token timing from a continuous-batching
performance model. Any SGLang server flag is accepted; those without effect are listed as ignored.
A pasted 'sglang serve ...' or 'python -m sglang.launch_server ...' command works as is.

sim flags:
  --hardware NAME            device profile: ${hardwareNames().join(', ')} (default h100)
  --hardware-spec FILE.json  a device that is not listed, described by a JSON object with the fields of a
                             hardware.json entry; wins over --hardware. Required: name, family (nvidia, amd,
                             ascend), bf16Tflops, hbmGB, hbmTBs, scaleUpGBs (GB/s per device, one direction).
                             Optional: fp8Tflops (0), int8Tops (2 x bf16Tflops), fp4Tflops (0), devicesPerNode
                             (8), devicesPerCard (1), interNodeGBs (50), arch, allReduceUs, allToAllUs,
                             kernelFloorUs (those four: the family's reference device, one of
                             ${Object.values(FAMILY_REFERENCE).join(', ')}), aliases, source. Peaks are dense TFLOPS/TOPS.
  --sim-model NAME           model catalog key when --model-path does not name a known model
  --sim-seed N               seed of every draw the sim makes (default 0)
  --truth-ttft-ms X          truth mode: first chunk exactly X ms after arrival ...
  --truth-itl-ms Y           ... then one chunk every Y ms; actual write times at GET /sim/truth
  --truth-tokens-per-chunk K tokens per truth-mode chunk (default 1)
  --truth-shared-steps       truth mode on one step clock: every chunk of every request on a multiple
                             of Y ms, the first at the first step X ms after arrival, so each step is
                             written to all running streams at once, as a continuous-batching engine does
  --sim-realtime             run the sim's event loop under the real-time scheduler (SCHED_FIFO via
                             chrt; needs root or CAP_SYS_NICE): on a small machine shared with the
                             load generator, a thread woken for a due chunk then gets a core at once
`;

export const command: Command = {
  summary: 'run a simulated SGLang server (SGLang launch flags; OpenAI + native APIs)',
  async run(argv) {
    if (argv.includes('--help') || argv.includes('-h')) {
      process.stdout.write(HELP);
      return 0;
    }
    const server = await startDedicatedSim(argv);
    const signal = new Promise<NodeJS.Signals>((resolve) => {
      process.once('SIGINT', () => resolve('SIGINT'));
      process.once('SIGTERM', () => resolve('SIGTERM'));
    });
    const ended = await Promise.race([signal.then((name) => ({ signal: name })), server.stopped.then((reason) => ({ reason }))]);
    if ('reason' in ended) throw new UserError(ended.reason);
    process.stdout.write(`servebench sim: ${ended.signal}, shutting down\n`);
    await server.close();
    return 0;
  },
};
