/**
 * `servebench router [launch_router flags]`: SGLang's router (`python -m sglang_router.launch_router`)
 * over HTTP in front of SGLang servers or sims, until SIGINT/SIGTERM.
 */
import { parseRouterArgs, startRouter } from '../../router/index.js';
import type { Command } from '../main.js';
import { stopSignal } from '../stop-signal.js';

export const command: Command = {
  summary: "route requests over SGLang servers or sims, plain or PD-disaggregated (sglang_router's launch_router flags)",
  async run(argv) {
    const config = parseRouterArgs(argv);
    if (config === null) return 0;
    const router = await startRouter(config, { log: (line) => process.stderr.write(`servebench router: ${line}\n`) });
    const mode = config.pdDisaggregation ? `PD (prefill ${config.prefillPolicy}, decode ${config.decodePolicy})` : `plain (${config.policy})`;
    process.stdout.write(`servebench router listening on ${router.url}: ${mode}, ${config.workers.length} workers${config.miniLb ? ', --mini-lb: random' : ''}\n`);
    if (config.ignoredFlags.length > 0) process.stdout.write(`ignored flags (no effect here): ${config.ignoredFlags.join(' ')}\n`);
    const signal = await stopSignal();
    process.stdout.write(`servebench router: ${signal}, shutting down\n`);
    await router.close();
    return 0;
  },
};
