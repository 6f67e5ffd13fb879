/**
 * The runs-list filters as they travel in the URL (`?model=&hardware=&label=k=v&q=`), turned into
 * the catalog's `RunFilter` plus a free-text search done here. Pure.
 */
import { deriveDatasetLabel, RUN_MODES, type RunFilter, type RunMode, type RunRecord } from '../catalog/index.js';
import { splitLabelPair } from '../core/label-pair.js';

export interface RunQuery {
  model: string;
  hardware: string;
  /** `key=value` labels, exact. */
  labels: string[];
  /** Free text matched against id, model, source, title, labels and dataset. */
  text: string;
  /** One run mode (measured, simulated, predicted); empty for every mode. */
  mode: string;
}

/** Reads the filters from URL search parameters (missing ones are empty). */
export function readRunQuery(params: URLSearchParams): RunQuery {
  return {
    model: (params.get('model') ?? '').trim(),
    hardware: (params.get('hardware') ?? '').trim(),
    labels: params.getAll('label').map((l) => l.trim()).filter((l) => l !== ''),
    text: (params.get('q') ?? '').trim(),
    mode: (params.get('mode') ?? '').trim(),
  };
}

/** The catalog filter of a query, or an error line naming a malformed label or an unknown mode. */
export function toRunFilter(query: RunQuery): { filter: RunFilter; error: string | null } {
  const labels: Record<string, string> = {};
  for (const pair of query.labels) {
    const label = splitLabelPair(pair);
    if (!label) return { filter: {}, error: `label filter '${pair}' is not key=value (e.g. hardware=H800)` };
    labels[label[0]] = label[1];
  }
  if (query.mode !== '' && !(RUN_MODES as readonly string[]).includes(query.mode)) {
    return { filter: {}, error: `mode '${query.mode}' is not a run mode (${RUN_MODES.join(', ')})` };
  }
  return {
    filter: {
      ...(query.model ? { model: query.model } : {}),
      ...(query.hardware ? { hardware: query.hardware } : {}),
      labels,
      ...(query.mode ? { modes: [query.mode as RunMode] } : {}),
    },
    error: null,
  };
}

/** Whether a run matches the free-text search (case-insensitive substring of any descriptive field). */
export function matchesText(run: RunRecord, text: string): boolean {
  if (!text) return true;
  const needle = text.toLowerCase();
  const fields = [
    run.id,
    run.model,
    run.source.title,
    run.source.file,
    run.toolVersion,
    deriveDatasetLabel(run),
    ...Object.entries(run.labels).map(([k, v]) => `${k}=${v}`),
  ];
  return fields.some((field) => field !== null && field !== undefined && field.toLowerCase().includes(needle));
}
