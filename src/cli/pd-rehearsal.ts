/**
 * `servebench sim --prefill "<flags>" --decode "<flags>"`: a whole PD deployment from one command
 * line, in the form `predict` takes — every prefill and decode instance a sim of its own (the shared
 * launch flags plus its own, on a free loopback port; each prefill's bootstrap server on a free port)
 * and `servebench router --pd-disaggregation` in front of them on the command's --host/--port, with
 * `--router "<launch_router flags>"` added to its line. Wiring only: the sims and the router are
 * the same as when each is started by hand.
 */
import { UsageError } from '../core/errors.js';
import { splitCommandLine } from '../core/command-line.js';
import { parseRouterArgs, startRouter, type RouterHandle } from '../router/index.js';
import { startDedicatedSim, type SimThreadHandle } from '../sim/index.js';
import { extractOptions, type OptionDef } from './exact-options.js';

export const REHEARSAL_OPTIONS: readonly OptionDef[] = [
  { name: 'prefill', takesValue: true, repeatable: true },
  { name: 'decode', takesValue: true, repeatable: true },
  { name: 'router', takesValue: true },
  { name: 'host', takesValue: true },
  { name: 'port', takesValue: true },
];

/** The instances and router of a rehearsal, parsed from `servebench sim`'s argv; null when it names no instance. */
export interface RehearsalPlan {
  shared: string[];
  prefills: string[][];
  decodes: string[][];
  routerFlags: string[];
  host: string;
  port: number;
}

export function rehearsalPlan(argv: readonly string[]): RehearsalPlan | null {
  const parsed = extractOptions(argv, REHEARSAL_OPTIONS, 'sim', true);
  const prefills = parsed.values.get('prefill') ?? [];
  const decodes = parsed.values.get('decode') ?? [];
  if (prefills.length === 0 && decodes.length === 0) return null;
  if (prefills.length === 0 || decodes.length === 0) {
    throw new UsageError('sim: a PD rehearsal needs at least one --prefill "<flags>" and one --decode "<flags>"');
  }
  const port = Number(parsed.values.get('port')?.[0] ?? 30000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`sim: --port must be a port number, not '${parsed.values.get('port')?.[0]}'`);
  return {
    shared: parsed.rest,
    prefills: prefills.map(splitCommandLine),
    decodes: decodes.map(splitCommandLine),
    routerFlags: splitCommandLine(parsed.values.get('router')?.[0] ?? ''),
    host: parsed.values.get('host')?.[0] ?? '127.0.0.1',
    port,
  };
}

/** Each instance's full sim argv: the shared flags, its own, its role, and a free port on the rehearsal's host. */
export function instanceArgs(plan: RehearsalPlan): { prefill: string[][]; decode: string[][] } {
  const own = (flags: string[], mode: string, extra: string[]) => [...plan.shared, ...flags, '--disaggregation-mode', mode, '--host', plan.host, '--port', '0', ...extra];
  return {
    prefill: plan.prefills.map((flags) => own(flags, 'prefill', ['--disaggregation-bootstrap-port', '0'])),
    decode: plan.decodes.map((flags) => own(flags, 'decode', [])),
  };
}

/** What a running rehearsal is made of; `close()` stops the router, then every sim. */
export interface Rehearsal {
  router: RouterHandle;
  prefills: SimThreadHandle[];
  decodes: SimThreadHandle[];
  /** Settles with a one-line reason if a sim's thread ends on its own. */
  stopped: Promise<string>;
  close(): Promise<void>;
}

/** Starts the sims of `plan`, then the router in front of them; a failure stops what already started. */
export async function startRehearsal(plan: RehearsalPlan, log: (line: string) => void): Promise<Rehearsal> {
  const args = instanceArgs(plan);
  const started: SimThreadHandle[] = [];
  const start = async (argv: string[]): Promise<SimThreadHandle> => {
    const sim = await startDedicatedSim(argv, { logs: true });
    started.push(sim);
    return sim;
  };
  try {
    const prefills: SimThreadHandle[] = [];
    for (const argv of args.prefill) prefills.push(await start(argv));
    const decodes: SimThreadHandle[] = [];
    for (const argv of args.decode) decodes.push(await start(argv));
    const routerArgv = [
      '--pd-disaggregation',
      ...prefills.flatMap((sim) => ['--prefill', sim.url, String(sim.bootstrapPort)]),
      ...decodes.flatMap((sim) => ['--decode', sim.url]),
      '--host', plan.host,
      '--port', String(plan.port),
      ...plan.routerFlags,
    ];
    const config = parseRouterArgs(routerArgv);
    if (config === null) throw new UsageError('sim: --router takes launch_router flags, not --help');
    const router = await startRouter(config, { log });
    return {
      router,
      prefills,
      decodes,
      stopped: Promise.race(started.map((sim) => sim.stopped)),
      close: async () => {
        await router.close();
        await Promise.all(started.map((sim) => sim.close()));
      },
    };
  } catch (error) {
    await Promise.all(started.map((sim) => sim.close()));
    throw error;
  }
}
