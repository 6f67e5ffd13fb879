/**
 * `servebench sim [SGLang launch flags]`: a simulated SGLang server on 127.0.0.1:30000 by default,
 * serving from its own thread (see sim-thread.ts for why) until SIGINT/SIGTERM.
 */
import { UserError } from '../../core/errors.js';
import { startDedicatedSim } from '../../sim/index.js';
import { addHelpGroups, commandParser, wantsHelp } from '../../core/command-parser.js';
import { SGLANG_FLAGS_HELP, SIM_MODEL_FLAGS_HELP, SIM_SERVER_FLAGS_HELP, TRUTH_FLAGS_HELP } from '../launch-flags-help.js';
import type { Command } from '../main.js';
import { fetchModels, simModels } from '../model-configs.js';
import { instanceArgs, type RehearsalPlan, rehearsalPlan, startRehearsal } from '../pd-rehearsal.js';
import { stopSignal } from '../stop-signal.js';

function help(): string {
  const parser = commandParser({
    name: 'sim',
    usage: '%(prog)s --model-path MODEL [SGLang launch flags] [sim flags]',
    description:
      "Serves SGLang's native API (/generate, /get_server_info, /flush_cache, ...) and the OpenAI API " +
      '(/v1/completions, /v1/chat/completions, /v1/models) with token timing from a continuous-batching ' +
      'performance model, until SIGINT or SIGTERM. With --disaggregation-mode prefill or decode it is one side of ' +
      "SGLang's PD disaggregation, for a PD router; SGLang's SGLANG_DISAGGREGATION_BOOTSTRAP_TIMEOUT, " +
      '_WAITING_TIMEOUT, _HEARTBEAT_INTERVAL and _HEARTBEAT_MAX_FAILURE set its waits, and ' +
      "SERVEBENCH_SIM_BOOTSTRAP_RETRY_INTERVAL the seconds between a decode's bootstrap handshake tries (1).",
  });
  addHelpGroups(parser, [SGLANG_FLAGS_HELP, SIM_MODEL_FLAGS_HELP, SIM_SERVER_FLAGS_HELP, TRUTH_FLAGS_HELP]);
  const rehearsal = parser.add_argument_group({
    title: 'PD rehearsal',
    description:
      'A whole PD deployment from one command: each --prefill and --decode is one sim instance (the flags above plus ' +
      "its own, on a free loopback port) and servebench router --pd-disaggregation fronts them on --host/--port.",
  });
  rehearsal.add_argument('--prefill', { metavar: '"FLAGS"', action: 'append', help: 'one prefill instance: its own launch flags (repeatable)' });
  rehearsal.add_argument('--decode', { metavar: '"FLAGS"', action: 'append', help: 'one decode instance: its own launch flags (repeatable)' });
  rehearsal.add_argument('--router', { metavar: '"FLAGS"', help: "launch_router flags added to the router's line (--policy cache_aware, ...)" });
  return parser.format_help();
}

async function rehearse(plan: RehearsalPlan): Promise<number> {
  const args = instanceArgs(plan);
  await fetchModels('sim', [...args.prefill, ...args.decode].flatMap(simModels));
  const rehearsal = await startRehearsal(plan, (line) => process.stderr.write(`servebench router: ${line}\n`));
  rehearsal.prefills.forEach((sim, i) => process.stdout.write(`servebench sim: prefill ${i + 1} on ${sim.url}, bootstrap port ${sim.bootstrapPort}\n`));
  rehearsal.decodes.forEach((sim, i) => process.stdout.write(`servebench sim: decode ${i + 1} on ${sim.url}\n`));
  process.stdout.write(`servebench router listening on ${rehearsal.router.url}: PD, ${plan.prefills.length} prefill and ${plan.decodes.length} decode instances\n`);
  const ended = await Promise.race([stopSignal().then((name) => ({ signal: name })), rehearsal.stopped.then((reason) => ({ reason }))]);
  if ('reason' in ended) {
    await rehearsal.close();
    throw new UserError(ended.reason);
  }
  process.stdout.write(`servebench sim: ${ended.signal}, shutting down\n`);
  await rehearsal.close();
  return 0;
}

export const command: Command = {
  summary: 'run a simulated SGLang server (SGLang launch flags; OpenAI + native APIs)',
  async run(argv) {
    if (wantsHelp(argv)) {
      process.stdout.write(help());
      return 0;
    }
    const plan = rehearsalPlan(argv);
    if (plan !== null) return rehearse(plan);
    await fetchModels('sim', simModels(argv));
    const server = await startDedicatedSim(argv, { logs: true });
    const ended = await Promise.race([stopSignal().then((name) => ({ signal: name })), server.stopped.then((reason) => ({ reason }))]);
    if ('reason' in ended) throw new UserError(ended.reason);
    process.stdout.write(`servebench sim: ${ended.signal}, shutting down\n`);
    await server.close();
    return 0;
  },
};
