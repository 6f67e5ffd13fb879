/**
 * What a `servebench sweep` command line asks for (parsed by src/cli/sweep-args.ts): a load sweep,
 * an SLO search, or a configuration search, each with its target and outputs.
 */
import type { BenchRunConfig } from '../bench/index.js';
import type { LoadKind, LoadSeries } from './load-series.js';
import type { Slo } from './slo.js';

export type TargetSpec =
  | { mode: 'predict'; shared: string | null; prefills: string[]; decodes: string[] }
  | { mode: 'sim'; flags: string }
  | { mode: 'server' };

export interface SearchSpec {
  start: number;
  limit: number;
  tolerance: number;
}

export interface OutputSpec {
  plot: string | null;
  json: string | null;
  db: string | null;
  noCatalog: boolean;
  labels: Record<string, string>;
}

export interface LoadSweepPlan {
  kind: 'sweep';
  loadKind: LoadKind;
  /** The loads to visit, or null for an SLO search. */
  series: LoadSeries | null;
  slo: Slo | null;
  search: SearchSpec;
  target: TargetSpec;
  cards: number | null;
  promptsPerLoad: number | null;
  output: OutputSpec;
  /** The bench flags (after `--`): every point's workload, and without a target option the server. */
  benchArgv: string[];
}

/** The device of a configuration search: a catalogued profile, or a spec file describing one (it wins). */
export type HardwareChoice = { kind: 'name'; name: string } | { kind: 'spec'; file: string };

export interface ConfigSearchPlan {
  kind: 'configs';
  modelPath: string;
  hardware: HardwareChoice;
  devices: number;
  includePd: boolean;
  top: number;
  slo: Slo | null;
  search: SearchSpec;
  /** Prompts per unit of concurrency at every prediction. */
  promptsPerLoad: number;
  output: OutputSpec;
  /** The bench flags (after `--`): the workload every candidate is predicted on. */
  benchArgv: string[];
}

export type SweepPlan = LoadSweepPlan | ConfigSearchPlan;

/**
 * Reads a plan's bench flags as `servebench bench` parses and resolves them, `defaultModel` standing
 * in for a `--model` they do not give: the CLI's parser, handed in by the sweep command, so the
 * sweep reads them where it did (after the target's launch flags, or the searched device) without
 * depending on the CLI.
 */
export type BenchFlagsParser = (argv: readonly string[], defaultModel: string | null) => BenchRunConfig;
