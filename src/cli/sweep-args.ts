/**
 * The `servebench sweep` command line (everything before `--`; bench flags follow it), checked
 * and turned into one of three plans: a load sweep, an SLO search, or a configuration search.
 */
import { UsageError } from '../core/errors.js';
import { AT_LEAST_ONE, describeRange, withRangeHelp, type FlagRange, type NumberKind } from '../core/flag-range.js';
import { hardwareNames } from '../deployment/index.js';
import { parseLoadSeries, type LoadKind, parseSlo, type HardwareChoice, type OutputSpec, type SearchSpec, type SweepPlan, type TargetSpec } from '../sweep/index.js';
import { extractOptions, numberOption, optionsOf, optionValue, splitAtDoubleDash, type OptionGroup } from './exact-options.js';
import { parseLabels } from './run-filter-args.js';

const COMMAND = 'sweep';

/** Default ceilings of an SLO search. */
const SEARCH_LIMIT: Record<LoadKind, number> = { concurrency: 1024, rate: 1000 };
const DEFAULT_TOLERANCE = 0.05;
const DEFAULT_SEARCH_START = 1;
const DEFAULT_TOP = 3;
/**
 * A configuration search predicts many loads of many configurations: two waves of requests per
 * concurrency slot keep each prediction short while still measuring a steady state.
 */
const CONFIG_PROMPTS_PER_LOAD = 2;

/** Loads an SLO search may start from and stop at: whole concurrencies, or any positive rate. */
const SEARCH_LOAD_RANGE: Record<LoadKind, FlagRange> = { concurrency: AT_LEAST_ONE, rate: { above: 0 } };
/** A bracket within this share of the load ends the bisection; a rate search needs a positive one to end. */
const TOLERANCE_RANGE: Record<LoadKind, FlagRange> = { concurrency: { min: 0, max: 1 }, rate: { above: 0, max: 1 } };
/** Prompts per unit of load: fractional shares are fine, none is not. */
const PROMPTS_PER_LOAD_RANGE: FlagRange = { above: 0 };
/** How a search load is read: whole concurrencies, fractional rates. */
const LOAD_NUMBER_KIND: Record<LoadKind, NumberKind> = { concurrency: 'int', rate: 'float' };

/** The range of a search option in words, per load kind ("takes an integer ≥ 1 for --search concurrency, ..."). */
function searchRangeHelp(ranges: Record<LoadKind, FlagRange>, kinds: Record<LoadKind, NumberKind>): string {
  const kindNames: LoadKind[] = ['concurrency', 'rate'];
  return `takes ${kindNames.map((k) => `${describeRange(kinds[k], ranges[k])} for --search ${k}`).join(', ')}`;
}

export const SWEEP_OPTION_GROUPS: readonly OptionGroup[] = [
  {
    title: 'loads (one of)',
    options: [
      { name: 'concurrency', takesValue: true, metavar: 'SERIES', help: '1,2,4 | 1:64:x2 (geometric) | 1:64:+8 (arithmetic) | auto[:LIMIT]' },
      {
        name: 'request-rate',
        takesValue: true,
        metavar: 'SERIES',
        help: 'the same in req/s; a list may end in inf. auto doubles until output throughput grows less than 5%',
      },
    ],
  },
  {
    title: 'target',
    description: "Default: the server named by the bench flags' --host/--port/--base-url.",
    options: [
      { name: 'predict', takesValue: true, metavar: '"FLAGS"', help: 'predictions in virtual time for these SGLang launch flags (add --hardware NAME or --hardware-spec FILE.json inside them)' },
      { name: 'prefill', takesValue: true, repeatable: true, metavar: '"FLAGS"', help: 'PD-separated prediction: one prefill instance' },
      { name: 'decode', takesValue: true, repeatable: true, metavar: '"FLAGS"', help: 'PD-separated prediction: one decode instance' },
      { name: 'sim', takesValue: true, metavar: '"FLAGS"', help: 'an in-process simulated server with these launch flags, benchmarked in real time' },
      { name: 'cards', takesValue: true, metavar: 'N', help: withRangeHelp('cards of the server under test, for per-card figures (real servers)', 'int', AT_LEAST_ONE) },
    ],
  },
  {
    title: 'SLO',
    options: [
      {
        name: 'slo',
        takesValue: true,
        metavar: 'SPEC',
        help: 'e.g. tpot=20ms,ttft=2s,p99-ttft=3s (metrics ttft, tpot, itl, e2e; mean by default, median or pNN prefixes; units ms or s); a run with failed requests misses it',
      },
      { name: 'search', takesValue: true, metavar: '{concurrency,rate}', help: 'without LOADS, search the highest load meeting the SLO: doubling, then bisection' },
      { name: 'search-start', takesValue: true, metavar: 'X', default: DEFAULT_SEARCH_START, help: `lowest load of the search; ${searchRangeHelp(SEARCH_LOAD_RANGE, LOAD_NUMBER_KIND)}` },
      {
        name: 'max-load',
        takesValue: true,
        metavar: 'X',
        help: `highest load of the search (default: ${SEARCH_LIMIT.concurrency} concurrency, ${SEARCH_LIMIT.rate} req/s); ${searchRangeHelp(SEARCH_LOAD_RANGE, LOAD_NUMBER_KIND)}`,
      },
      { name: 'tolerance', takesValue: true, metavar: 'F', default: DEFAULT_TOLERANCE, kind: 'float', help: `stop bisecting when the bracket is within F of the load; ${searchRangeHelp(TOLERANCE_RANGE, { concurrency: 'float', rate: 'float' })}` },
    ],
  },
  {
    title: 'configuration search (prediction mode)',
    options: [
      {
        name: 'search-configs',
        takesValue: false,
        help: "enumerate TP/DP/EP, DP attention, chunked prefill, speculative decoding and PD splits; rank by output tok/s per card, marking those within the model's expected throughput error (±) of the best",
      },
      { name: 'model-path', takesValue: true, metavar: 'M', help: 'the model' },
      { name: 'hardware', takesValue: true, metavar: 'NAME', help: `one of ${hardwareNames().join(', ')}` },
      {
        name: 'hardware-spec',
        takesValue: true,
        metavar: 'FILE.json',
        help: "a device that is not listed, as a JSON object with the fields of a hardware.json entry (see 'servebench sim --help'); wins over --hardware",
      },
      { name: 'devices', takesValue: true, metavar: 'N', help: withRangeHelp('devices to deploy on (an Ascend 910C die is one)', 'int', AT_LEAST_ONE) },
      { name: 'top', takesValue: true, metavar: 'K', default: DEFAULT_TOP, help: withRangeHelp('print the launch commands of the best K', 'int', AT_LEAST_ONE) },
      { name: 'no-pd', takesValue: false, help: 'PD-mixed configurations only' },
    ],
  },
  {
    title: 'output',
    options: [
      {
        name: 'prompts-per-load',
        takesValue: true,
        metavar: 'K',
        help: withRangeHelp(`--num-prompts = K x concurrency at each point (default: --num-prompts as given; ${CONFIG_PROMPTS_PER_LOAD} for --search-configs)`, 'float', PROMPTS_PER_LOAD_RANGE),
      },
      { name: 'plot', takesValue: true, metavar: 'FILE.svg|FILE.png', help: 'output tok/s per card against mean TPOT and mean TTFT' },
      { name: 'json', takesValue: true, metavar: 'FILE', help: 'machine-readable summary' },
      { name: 'db', takesValue: true, metavar: 'PATH', help: 'catalog database of the runs (default: the standard location)' },
      { name: 'no-catalog', takesValue: false, help: 'record no run in the catalog' },
      { name: 'label', takesValue: true, repeatable: true, metavar: 'KEY=VALUE', help: 'label stored with every run' },
    ],
  },
];

const OPTIONS = optionsOf(SWEEP_OPTION_GROUPS);

/** Options of `--search-configs` that make no sense elsewhere, and the other way round. */
const CONFIG_ONLY = ['model-path', 'hardware', 'hardware-spec', 'devices', 'top', 'no-pd'];
const SWEEP_ONLY = ['concurrency', 'request-rate', 'search', 'search-start', 'predict', 'prefill', 'decode', 'sim', 'cards', 'plot'];


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
  const read = (name: string, text: string): number => numberOption(name, text, LOAD_NUMBER_KIND[kind], SEARCH_LOAD_RANGE[kind]);
  const spec = {
    start: startText === undefined ? DEFAULT_SEARCH_START : read('search-start', startText),
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
      top: topText === undefined ? DEFAULT_TOP : numberOption('top', topText, 'int', AT_LEAST_ONE),
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
