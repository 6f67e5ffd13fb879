/**
 * Speculative acceptance by model and dataset. A draft's per-token acceptance depends on the model
 * and its draft, and on the text they generate (spec §3.6): the `random` dataset repeats a ShareGPT
 * prompt to length and runs past the answer under ignore_eos, `sharegpt` asks real questions. The
 * published rates form a sparse model × dataset table; a pair that published nothing gets the
 * additive estimate mean + model offset + dataset offset, fitted by least squares over the
 * published pairs. Where the data cannot tell a model's offset from its dataset's (a model published
 * on one dataset only, which no other model used), the minimum-norm solution splits the difference
 * evenly rather than charging either one with all of it.
 */
import { solveSymmetric } from '../../core/linear-solve.js';
import { mean } from '../../core/stats.js';

export interface AcceptanceTable {
  /** Per-draft-token rate of a model and a dataset that published nothing. */
  mean: number;
  /** Offsets from the mean, per catalog model. */
  models: Record<string, number>;
  /** Offsets from the mean, per bench dataset name. */
  datasets: Record<string, number>;
  /** The rates the runs published, per dataset, then per model. */
  published: Record<string, Record<string, number>>;
}

/** One published model × dataset pair: the mean per-draft-token rate of its runs. */
export interface PublishedAcceptance {
  model: string;
  dataset: string;
  rate: number;
}

/** Rate of a speculative model when no run published any (a typical EAGLE/MTP chain). */
const UNPUBLISHED_RATE = 0.7;
/** Rates stay inside what a chain can do: drafts are never all rejected, nor all accepted. */
const MIN_RATE = 0.05;
const MAX_RATE = 0.99;
/** Ridge on the offsets, tiny next to one pair's weight of 1: it only picks the minimum-norm split. */
const MIN_NORM_RIDGE = 1e-6;

/** The table of the published pairs (one pair per model × dataset; later duplicates are averaged in). */
export function acceptanceTable(pairs: readonly PublishedAcceptance[]): AcceptanceTable {
  const grouped = new Map<string, { model: string; dataset: string; rates: number[] }>();
  for (const { model, dataset, rate } of pairs) {
    const key = `${model}\u0000${dataset}`;
    const entry = grouped.get(key) ?? { model, dataset, rates: [] };
    entry.rates.push(rate);
    grouped.set(key, entry);
  }
  const cells = [...grouped.values()].map(({ model, dataset, rates }) => ({ model, dataset, rate: mean(rates) }));
  if (cells.length === 0) return { mean: UNPUBLISHED_RATE, models: {}, datasets: {}, published: {} };
  const models = [...new Set(cells.map((c) => c.model))];
  const datasets = [...new Set(cells.map((c) => c.dataset))];
  // Parameters: the mean, then one offset per model, then one per dataset.
  const size = 1 + models.length + datasets.length;
  const normal = Array.from({ length: size }, () => new Array<number>(size).fill(0));
  const rhs = new Array<number>(size).fill(0);
  for (const cell of cells) {
    const columns = [0, 1 + models.indexOf(cell.model), 1 + models.length + datasets.indexOf(cell.dataset)];
    for (const i of columns) {
      rhs[i]! += cell.rate;
      for (const j of columns) normal[i]![j]! += 1;
    }
  }
  for (let i = 1; i < size; i++) normal[i]![i]! += MIN_NORM_RIDGE;
  const solution = solveSymmetric(normal, rhs);
  const published: AcceptanceTable['published'] = {};
  for (const { model, dataset, rate } of cells) (published[dataset] ??= {})[model] = rate;
  return {
    mean: solution[0]!,
    models: Object.fromEntries(models.map((m, i) => [m, solution[1 + i]!])),
    datasets: Object.fromEntries(datasets.map((d, i) => [d, solution[1 + models.length + i]!])),
    published,
  };
}

/**
 * The per-draft-token rate for `model` on `dataset`: what it published there, else the additive
 * estimate. Without a dataset (a sim server, which does not know what it will be sent): the mean of
 * what the model published, else the estimate without a dataset offset.
 */
export function acceptRateFor(table: AcceptanceTable, model: string, dataset: string | null): number {
  const consulted = dataset === null ? Object.values(table.published) : [table.published[dataset] ?? {}];
  const rates = consulted.map((byModel) => byModel[model]).filter((rate): rate is number => rate !== undefined);
  if (rates.length > 0) return mean(rates);
  const estimate = table.mean + (table.models[model] ?? 0) + (dataset === null ? 0 : (table.datasets[dataset] ?? 0));
  return Math.min(MAX_RATE, Math.max(MIN_RATE, estimate));
}
