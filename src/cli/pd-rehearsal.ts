/**
 * `servebench sim --prefill "<flags>" --decode "<flags>"`: a whole PD deployment from one command
 * line, in the form `predict` takes — every prefill and decode instance a sim of its own (the shared
 * launch flags plus its own, on a free loopback port; each prefill's bootstrap server on a free port)
 * and `servebench router --pd-disaggregation` in front of them on the command's --host/--port, with
 * `--router "<launch_router flags>"` added to its line. `bench --sim` takes the same flags in its
 * `--sim "<flags>"` and measures the deployment through its router, every instance on the run's
 * time scale. Wiring only: the sims and the router are the same as when each is started by hand.
 */
import type { SimTarget } from '../bench/index.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { UsageError, UserError } from '../core/errors.js';
import { splitCommandLine } from '../core/command-line.js';
import { parseLaunchArgs, type LaunchDeployment } from '../deployment/index.js';
import { deploymentDemand } from '../predict/index.js';
import { parseRouterArgs, startRouter, type RouterHandle } from '../router/index.js';
import { judgeSimWrites, startDedicatedSim, startEmbeddedSim, worstLateness, type SimThreadHandle } from '../sim/index.js';
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

/** `where` names the flags in errors: `sim` for `servebench sim`'s own, `--sim` for those inside bench's option. */
export function rehearsalPlan(argv: readonly string[], where = 'sim'): RehearsalPlan | null {
  const parsed = extractOptions(argv, REHEARSAL_OPTIONS, where, true);
  const prefills = parsed.values.get('prefill') ?? [];
  const decodes = parsed.values.get('decode') ?? [];
  if (prefills.length === 0 && decodes.length === 0) return null;
  if (prefills.length === 0 || decodes.length === 0) {
    throw new UsageError(`${where}: a PD rehearsal needs at least one --prefill "<flags>" and one --decode "<flags>"`);
  }
  const port = Number(parsed.values.get('port')?.[0] ?? 30000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`${where}: --port must be a port number, not '${parsed.values.get('port')?.[0]}'`);
  return {
    shared: parsed.rest,
    prefills: prefills.map(splitCommandLine),
    decodes: decodes.map(splitCommandLine),
    routerFlags: splitCommandLine(parsed.values.get('router')?.[0] ?? ''),
    host: parsed.values.get('host')?.[0] ?? '127.0.0.1',
    port,
  };
}

/** The launch argv of every sim `argv` starts: each PD instance's when it names instances, else its own. */
export function simArgvs(argv: readonly string[], where = 'sim'): string[][] {
  const plan = rehearsalPlan(argv, where);
  if (plan === null) return [[...argv]];
  const args = instanceArgs(plan);
  return [...args.prefill, ...args.decode];
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

/** How long the router may take to see every sim of a rehearsal answer its health check. */
const WORKERS_READY_TIMEOUT_MS = 30_000;
const WORKERS_READY_POLL_MS = 10;

/** Resolves once the router has registered every worker: a client sent before would be refused (503, no worker yet). */
async function everyWorkerActive(router: RouterHandle): Promise<void> {
  const deadline = Date.now() + WORKERS_READY_TIMEOUT_MS;
  while (!router.workers.every((worker) => worker.active)) {
    if (Date.now() > deadline) {
      await router.close();
      const waiting = router.workers.filter((worker) => !worker.active).map((worker) => worker.url);
      throw new UserError(`the PD router did not register ${waiting.join(', ')} within ${WORKERS_READY_TIMEOUT_MS / 1000} s: see the sims' lines above`);
    }
    await sleep(WORKERS_READY_POLL_MS);
  }
}

/** How a rehearsal starts one instance's sim: `servebench sim` in its own process, with its logs. */
const dedicatedSim = (argv: readonly string[]): Promise<SimThreadHandle> => startDedicatedSim(argv, { logs: true });

/** Starts the sims of `plan` (each with `startSim`), then the router in front of them; a failure stops what already started. */
export async function startRehearsal(plan: RehearsalPlan, log: (line: string) => void, startSim = dedicatedSim): Promise<Rehearsal> {
  const args = instanceArgs(plan);
  const started: SimThreadHandle[] = [];
  const start = async (argv: string[]): Promise<SimThreadHandle> => {
    const sim = await startSim(argv);
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
    await everyWorkerActive(router);
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

/** The deployment each instance of `plan` is launched as: the flags its sim gets. */
function rehearsalDeployment(plan: RehearsalPlan): LaunchDeployment {
  const args = instanceArgs(plan);
  return {
    instances: [
      ...args.prefill.map((argv) => ({ role: 'prefill' as const, config: parseLaunchArgs(argv).launch })),
      ...args.decode.map((argv) => ({ role: 'decode' as const, config: parseLaunchArgs(argv).launch })),
    ],
  };
}

/**
 * The PD deployment of a `bench --sim "<flags>"` whose flags name `--prefill` and `--decode`
 * instances, as bench starts, plans and measures it: the sims inside the benchmarking process on
 * loopback, the router in front, the time scale planned from the deployment's composed engine and
 * set on every instance, and the worst instance's writes judged. Null when the flags name no instance.
 */
export function pdSimTarget(flags: string, log: (line: string) => void): SimTarget | null {
  const found = rehearsalPlan(splitCommandLine(flags), '--sim');
  if (found === null) return null;
  const plan: RehearsalPlan = { ...found, host: '127.0.0.1', port: 0 };
  const deployment = rehearsalDeployment(plan);
  return {
    flags,
    async start(dataset) {
      const rehearsal = await startRehearsal(plan, log, (argv) => startEmbeddedSim(argv, dataset));
      const sims = [...rehearsal.prefills, ...rehearsal.decodes];
      return {
        port: Number(new URL(rehearsal.router.url).port),
        demand: (rows, load) => deploymentDemand(deployment, dataset, rows, load),
        setTimeScale: async (timeScale) => {
          await Promise.all(sims.map((sim) => sim.setTimeScale(timeScale)));
        },
        selfCheck: async (timeScale) => judgeSimWrites(worstLateness(await Promise.all(sims.map((sim) => sim.writeLateness()))), timeScale).line,
        close: () => rehearsal.close(),
      };
    },
  };
}
