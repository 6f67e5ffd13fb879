/**
 * The `servebench sweep` command line (everything before `--`; bench flags follow it), checked
 * and turned into one of three plans: a load sweep, an SLO search, or a configuration search.
 */
import { parseLabels } from '../catalog/cli/options.js';
import { UsageError } from '../core/errors.js';
import { AT_LEAST_ONE, type FlagRange } from '../core/flag-range.js';
import { extractOptions, numberOption, optionValue, splitAtDoubleDash, type OptionDef } from './cli-options.js';
import { parseLoadSeries, type LoadKind, type LoadSeries } from './load-series.js';
import { parseSlo, type Slo } from './slo.js';

const COMMAND = 'sweep';

const OPTIONS: OptionDef[] = [
  { name: 'concurrency', takesValue: true },
  { name: 'request-rate', takesValue: true },
  { name: 'slo', takesValue: true },
  { name: 'search', takesValue: true },
  { name: 'search-start', takesValue: true },
  { name: 'max-load', takesValue: true },
  { name: 'tolerance', takesValue: true },
  { name: 'prompts-per-load', takesValue: true },
  { name: 'predict', takesValue: true },
  { name: 'prefill', takesValue: true, repeatable: true },
  { name: 'decode', takesValue: true, repeatable: true },
  { name: 'sim', takesValue: true },
  { name: 'cards', takesValue: true },
  { name: 'plot', takesValue: true },
  { name: 'json', takesValue: true },
  { name: 'db', takesValue: true },
  { name: 'no-catalog', takesValue: false },
  { name: 'label', takesValue: true, repeatable: true },
  { name: 'search-configs', takesValue: false },
  { name: 'model-path', takesValue: true },
  { name: 'hardware', takesValue: true },
  { name: 'hardware-spec', takesValue: true },
  { name: 'devices', takesValue: true },
  { name: 'top', takesValue: true },
  { name: 'no-pd', takesValue: false },
];

/** Options of `--search-configs` that make no sense elsewhere, and the other way round. */
const CONFIG_ONLY = ['model-path', 'hardware', 'hardware-spec', 'devices', 'top', 'no-pd'];
const SWEEP_ONLY = ['concurrency', 'request-rate', 'search', 'search-start', 'predict', 'prefill', 'decode', 'sim', 'cards', 'plot'];

/** Default ceilings of an SLO search. */
export const SEARCH_LIMIT: Record<LoadKind, number> = { concurrency: 1024, rate: 1000 };
export const DEFAULT_TOLERANCE = 0.05;
/** Loads an SLO search may start from and stop at: whole concurrencies, or any positive rate. */
const SEARCH_LOAD_RANGE: Record<LoadKind, FlagRange> = { concurrency: AT_LEAST_ONE, rate: { above: 0 } };
/** A bracket within this share of the load ends the bisection; a rate search needs a positive one to end. */
const TOLERANCE_RANGE: Record<LoadKind, FlagRange> = { concurrency: { min: 0, max: 1 }, rate: { above: 0, max: 1 } };
/** Prompts per unit of load: fractional shares are fine, none is not. */
const PROMPTS_PER_LOAD_RANGE: FlagRange = { above: 0 };
/**
 * A configuration search predicts many loads of many configurations: two waves of requests per
 * concurrency slot keep each prediction short while still measuring a steady state.
 */
export const CONFIG_PROMPTS_PER_LOAD = 2;

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
  /** Prompts per unit of concurrency at every prediction (default {@link CONFIG_PROMPTS_PER_LOAD}). */
  promptsPerLoad: number;
  output: OutputSpec;
  benchArgv: string[];
}

export type SweepPlan = LoadSweepPlan | ConfigSearchPlan;

function required(name: string, value: string | undefined): string {
  if (value === undefined) throw new UsageError(`${COMMAND} --search-configs needs --${name} (e.g. --model-path Qwen/Qwen3-32B --hardware ascend-910c --devices 8)`);
  return value;
}

function hardwareChoice(values: ReturnType<typeof extractOptions>): HardwareChoice {
  const file = optionValue(values, 'hardware-spec');
  if (file !== undefined) return { kind: 'spec', file };
  const name = optionValue(values, 'hardware');
  if (name === undefined) throw new UsageError(`${COMMAND} --search-configs needs --hardware NAME or --hardware-spec FILE.json (e.g. --hardware ascend-910c)`);
  return { kind: 'name', name };
}

function searchSpec(values: ReturnType<typeof extractOptions>, kind: LoadKind): SearchSpec {
  const limitText = optionValue(values, 'max-load');
  const startText = optionValue(values, 'search-start');
  const toleranceText = optionValue(values, 'tolerance');
  const numberKind = kind === 'concurrency' ? 'int' : 'float';
  const read = (name: string, text: string): number => numberOption(name, text, numberKind, SEARCH_LOAD_RANGE[kind]);
  const spec = {
    start: startText === undefined ? 1 : read('search-start', startText),
    limit: limitText === undefined ? SEARCH_LIMIT[kind] : read('max-load', limitText),
    tolerance: toleranceText === undefined ? DEFAULT_TOLERANCE : numberOption('tolerance', toleranceText, 'float', TOLERANCE_RANGE[kind]),
  };
  if (!(spec.limit >= spec.start)) throw new UsageError(`${COMMAND}: --search-start must be at most --max-load`);
  return spec;
}

function targetSpec(values: ReturnType<typeof extractOptions>): TargetSpec {
  const predict = optionValue(values, 'predict');
  const sim = optionValue(values, 'sim');
  const prefills = values.values.get('prefill') ?? [];
  const decodes = values.values.get('decode') ?? [];
  const predicting = predict !== undefined || prefills.length > 0 || decodes.length > 0;
  if (predicting && sim !== undefined) throw new UsageError(`${COMMAND}: choose --predict (virtual time) or --sim (real time), not both`);
  if (predicting) return { mode: 'predict', shared: predict ?? null, prefills, decodes };
  if (sim !== undefined) return { mode: 'sim', flags: sim };
  return { mode: 'server' };
}

/** Parses the sweep command line into a plan; throws `UsageError` naming the problem. */
export function parseSweepCommand(argv: readonly string[]): SweepPlan {
  const { before, after } = splitAtDoubleDash(argv);
  const values = extractOptions(before, OPTIONS, COMMAND, false);
  const has = (name: string): boolean => values.values.has(name);
  const sloText = optionValue(values, 'slo');
  const slo = sloText === undefined ? null : parseSlo(sloText);
  const pplText = optionValue(values, 'prompts-per-load');
  const promptsPerLoad = pplText === undefined ? null : numberOption('prompts-per-load', pplText, 'float', PROMPTS_PER_LOAD_RANGE);
  const plot = optionValue(values, 'plot') ?? null;
  if (plot !== null && !/\.(svg|png)$/i.test(plot)) throw new UsageError(`${COMMAND}: --plot '${plot}' must end in .svg or .png`);
  const output: OutputSpec = {
    plot,
    json: optionValue(values, 'json') ?? null,
    db: optionValue(values, 'db') ?? null,
    noCatalog: has('no-catalog'),
    labels: parseLabels(values.values.get('label')),
  };

  if (has('search-configs')) {
    const stray = SWEEP_ONLY.find(has);
    if (stray !== undefined) throw new UsageError(`${COMMAND}: --${stray} does not apply to --search-configs, which predicts every configuration itself`);
    const topText = optionValue(values, 'top');
    return {
      kind: 'configs',
      modelPath: required('model-path', optionValue(values, 'model-path')),
      hardware: hardwareChoice(values),
      devices: numberOption('devices', required('devices', optionValue(values, 'devices')), 'int', AT_LEAST_ONE),
      includePd: !has('no-pd'),
      top: topText === undefined ? 3 : numberOption('top', topText, 'int', AT_LEAST_ONE),
      slo,
      search: searchSpec(values, 'concurrency'),
      promptsPerLoad: promptsPerLoad ?? CONFIG_PROMPTS_PER_LOAD,
      output,
      benchArgv: after,
    };
  }
  const strayConfig = CONFIG_ONLY.find(has);
  if (strayConfig !== undefined) throw new UsageError(`${COMMAND}: --${strayConfig} belongs to --search-configs; put launch flags inside --predict "<flags>" or --sim "<flags>"`);

  const concurrency = optionValue(values, 'concurrency');
  const rate = optionValue(values, 'request-rate');
  if (concurrency !== undefined && rate !== undefined) throw new UsageError(`${COMMAND}: sweep either --concurrency or --request-rate, not both`);
  const searchText = optionValue(values, 'search');
  if (searchText !== undefined && searchText !== 'concurrency' && searchText !== 'rate') {
    throw new UsageError(`${COMMAND}: --search takes 'concurrency' or 'rate', got '${searchText}'`);
  }
  if (concurrency === undefined && rate === undefined && slo === null) {
    throw new UsageError(`${COMMAND}: give the loads (--concurrency 1:64:x2, --request-rate 1,2,4 or auto), or an --slo to search for`);
  }
  if (searchText !== undefined && (concurrency !== undefined || rate !== undefined)) {
    throw new UsageError(`${COMMAND}: --search finds the loads itself; drop --concurrency/--request-rate, or drop --search to judge a fixed series`);
  }
  const loadKind: LoadKind = rate !== undefined || searchText === 'rate' ? 'rate' : 'concurrency';
  const seriesText = concurrency ?? rate;
  const cardsText = optionValue(values, 'cards');
  return {
    kind: 'sweep',
    loadKind,
    series: seriesText === undefined ? null : parseLoadSeries(seriesText, loadKind),
    slo,
    search: searchSpec(values, loadKind),
    target: targetSpec(values),
    cards: cardsText === undefined ? null : numberOption('cards', cardsText, 'int', AT_LEAST_ONE),
    promptsPerLoad,
    output,
    benchArgv: after,
  };
}
