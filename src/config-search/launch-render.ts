/**
 * Renders a configuration candidate as the commands a person runs: one `sglang.launch_server`
 * per instance kind (and a router for PD separation), plus the flag lists the sim parses.
 */
import { nodesFor } from '../deployment/index.js';
import type { ConfigCandidate, InstancePlan } from './config-space.js';

/** Quotes a word for a POSIX shell when it needs it. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export interface RenderOptions {
  modelPath: string;
  /** Devices in one node (8 GPUs; 16 dies of an Atlas 800I A3). */
  devicesPerNode: number;
  /** Per-instance flags to append, e.g. `--max-running-requests` found by the search. */
  extraFlags?: (instance: InstancePlan) => string[];
}

/** The SGLang flags of one replica of an instance, model path first. */
export function instanceFlags(instance: InstancePlan, options: RenderOptions): string[] {
  const nodes = nodesFor(options, instance.devices);
  return [
    '--model-path', options.modelPath,
    ...instance.flags,
    ...(nodes > 1 ? ['--nnodes', String(nodes)] : []),
    ...(options.extraFlags?.(instance) ?? []),
  ];
}

/** One shell line per instance kind (with a `# xN` note for replicas), then the PD router. */
export function renderLaunchCommands(candidate: ConfigCandidate, options: RenderOptions): string[] {
  const lines = candidate.instances.map((instance) => {
    const command = ['python', '-m', 'sglang.launch_server', ...instanceFlags(instance, options)].map(shellQuote).join(' ');
    const replicas = instance.replicas > 1 ? `  # x${instance.replicas} ${instance.role} instances` : '';
    return command + replicas;
  });
  if (candidate.mode === 'pd-separated') {
    // Host names are placeholders for wherever each instance runs, on SGLang's default port.
    const urls = (role: 'prefill' | 'decode'): string[] => {
      const count = candidate.instances.filter((i) => i.role === role).reduce((n, i) => n + i.replicas, 0);
      return Array.from({ length: count }, (_, k) => [`--${role}`, `http://${role}-${k + 1}:30000`]).flat();
    };
    lines.push(['python', '-m', 'sglang_router.launch_router', '--pd-disaggregation', ...urls('prefill'), ...urls('decode')].join(' '));
  }
  return lines;
}
