/**
 * What each dashboard address answers, as a plain reply value (status, type, body): HTML pages,
 * chart images and the JSON API. The HTTP server (`server.ts`) only transports these replies.
 */
import { DEFAULT_CLASSES, bestPerConfiguration, compareMetrics, groupByLatencyClass, noiseChecks, parseClasses, type Catalog, type ClassGroup, type LatencyClass, type RunRecord, linkedRuns, encodeJson, RUN_MODES, settingDifferences, suspectWarnings, type RunMode, repeatGroupChecks, summarizeGroup } from '../catalog/index.js';
import { UsageError, UserError } from '../core/errors.js';
import { HttpError } from '../core/http-error.js';
import { RUN_PLOT_KINDS, runChartOption, throughputPoints, type RunPlotKind, encodeChart } from '../plots/index.js';
import { perSecondTimeline } from '../bench/index.js';
import { renderComparePage } from './pages/compare.js';
import { renderErrorPage } from './pages/error.js';
import { renderRunPage } from './pages/run.js';
import { renderRunsPage } from './pages/runs.js';
import { renderSweepsPage, sweepsOf } from './pages/sweeps.js';
import { renderTablePage } from './pages/table.js';
import { matchesText, readRunQuery, toRunFilter } from './run-query.js';

export interface Reply {
  status: number;
  contentType: string;
  body: string | Buffer;
}

const HTML = 'text/html; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';

const htmlReply = (body: string, status = 200): Reply => ({ status, contentType: HTML, body });
const jsonReply = (value: unknown, status = 200): Reply => ({ status, contentType: JSON_TYPE, body: `${encodeJson(value)}\n` });

function decodePathPart(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new HttpError(400, `malformed address part '${part}'`);
  }
}

/** `fn()`, with a UserError (a run id or plot the catalog cannot give) answered as 404. */
function orNotFound<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof UserError) throw new HttpError(404, error.message);
    throw error;
  }
}

function findRun(catalog: Catalog, id: string): RunRecord {
  const run = orNotFound(() => catalog.findRun(id));
  if (!run) throw new HttpError(404, `no run '${id}' in the catalog; pick one from the runs list`);
  return run;
}

function filteredRuns(catalog: Catalog, params: URLSearchParams): { runs: RunRecord[]; error: string | null } {
  const query = readRunQuery(params);
  const { filter, error } = toRunFilter(query);
  if (error) return { runs: [], error };
  return { runs: catalog.listRuns(filter).filter((run) => matchesText(run, query.text)), error: null };
}

function comparedRuns(catalog: Catalog, params: URLSearchParams): RunRecord[] {
  const ids = [...new Set(params.getAll('run').map((id) => id.trim()).filter((id) => id !== ''))];
  return ids.map((id) => findRun(catalog, id));
}

interface BestPractice {
  classes: string;
  /** `measured` (the default, as `servebench table`), a single mode, or `all`. */
  mode: string;
  /** Every run a row (`rows=all`), rather than the best run of each configuration. */
  everyRun: boolean;
  groups: ClassGroup[];
  runs: RunRecord[];
  error: string | null;
}

/** The table's modes: measured unless the page asks for another mode or all. */
function tableModes(mode: string): RunMode[] | null {
  if (mode === 'all') return [...RUN_MODES];
  return (RUN_MODES as readonly string[]).includes(mode) ? [mode as RunMode] : null;
}

/** The best-practice rows `params` ask for; `rows` absent means every run for the API, the best per configuration for the page. */
function bestPractice(catalog: Catalog, params: URLSearchParams, defaultRows: 'all' | 'best'): BestPractice {
  const classes = (params.get('classes') ?? '').trim() || DEFAULT_CLASSES;
  let error: string | null = null;
  let parsed: LatencyClass[];
  try {
    parsed = parseClasses(classes);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    error = `${e.message.replace(/^--classes: /, 'latency classes: ')}; showing the default classes`;
    parsed = parseClasses(DEFAULT_CLASSES);
  }
  const everyRun = (params.get('rows') ?? defaultRows) === 'all';
  const mode = (params.get('mode') ?? '').trim() || 'measured';
  const modes = tableModes(mode) ?? ['measured'];
  if (tableModes(mode) === null) error = `mode '${mode}' is not a run mode (${RUN_MODES.join(', ')}, or all); showing measured runs`;
  // Oldest first, as `servebench table` orders them before grouping.
  const runs = catalog.listRuns({ modes }).reverse();
  const groups = groupByLatencyClass(runs, parsed);
  return { classes, mode, everyRun, groups: everyRun ? groups : bestPerConfiguration(groups), runs, error };
}

function plotReply(catalog: Catalog, id: string, file: string): Reply {
  const m = /^([a-z-]+)\.(svg|png)$/.exec(file);
  if (!m || !(RUN_PLOT_KINDS as readonly string[]).includes(m[1]!)) {
    throw new HttpError(404, `no plot '${file}'; plots are ${RUN_PLOT_KINDS.map((k) => `${k}.svg`).join(', ')} (or .png)`);
  }
  const run = findRun(catalog, id);
  const format = m[2] as 'svg' | 'png';
  const option = orNotFound(() => runChartOption(m[1] as RunPlotKind, run, catalog.getRequests(run.id)));
  return { status: 200, contentType: format === 'svg' ? 'image/svg+xml' : 'image/png', body: encodeChart(option, format) };
}

function apiReply(catalog: Catalog, parts: string[], params: URLSearchParams): Reply {
  const [resource, id, sub] = parts;
  if (resource === 'runs' && id === undefined) {
    const { runs, error } = filteredRuns(catalog, params);
    if (error) throw new HttpError(400, error);
    return jsonReply({ runs });
  }
  if (resource === 'runs' && id !== undefined && parts.length <= 3) {
    const run = findRun(catalog, id);
    if (sub === undefined) return jsonReply({ run });
    if (sub === 'requests') return jsonReply({ runId: run.id, requests: catalog.getRequests(run.id) });
    if (sub === 'timeline') return jsonReply({ runId: run.id, bucketSeconds: 1, ...perSecondTimeline(catalog.getRequests(run.id)) });
  }
  if (resource === 'compare' && parts.length === 1) {
    const runs = comparedRuns(catalog, params);
    if (runs.length < 2) throw new HttpError(400, 'give at least two runs: /api/compare?run=ID&run=ID');
    return jsonReply({
      runs: runs.map((r) => r.id),
      metrics: compareMetrics(runs),
      settings: settingDifferences(runs),
      noise: noiseChecks(runs.map((r) => catalog.getRequests(r.id))),
      repeatGroups: repeatGroupChecks(runs, (group) => catalog.repeatGroup(group)),
    });
  }
  if (resource === 'table' && parts.length === 1) {
    const { classes, groups, error } = bestPractice(catalog, params, 'all');
    if (error) throw new HttpError(400, error);
    return jsonReply({ classes, groups });
  }
  throw new HttpError(404, `no API endpoint /api/${parts.join('/')}; see /api/runs, /api/runs/ID, /api/runs/ID/requests, /api/runs/ID/timeline, /api/compare, /api/table`);
}

function pageReply(catalog: Catalog, parts: string[], params: URLSearchParams): Reply {
  if (parts.length === 0 || (parts.length === 1 && parts[0] === 'runs')) {
    const query = readRunQuery(params);
    const { runs, error } = filteredRuns(catalog, params);
    return htmlReply(renderRunsPage({ runs, allRuns: catalog.listRuns(), query, error }), error ? 400 : 200);
  }
  if (parts[0] === 'runs' && parts.length === 2) {
    const run = findRun(catalog, parts[1]!);
    const group = run.repeat ? catalog.repeatGroup(run.repeat.group) : [];
    return htmlReply(renderRunPage(run, catalog.getRequests(run.id), linkedRuns(run, catalog.listRuns()), group, group.length > 0 ? summarizeGroup(group) : null));
  }
  if (parts[0] === 'runs' && parts.length === 4 && parts[2] === 'plots') return plotReply(catalog, parts[1]!, parts[3]!);
  if (parts[0] === 'compare' && parts.length === 1) {
    const runs = comparedRuns(catalog, params);
    const allRuns = runs.length < 2 ? catalog.listRuns() : [];
    const groupChecks = repeatGroupChecks(runs, (group) => catalog.repeatGroup(group));
    return htmlReply(renderComparePage(runs, runs.map((r) => catalog.getRequests(r.id)), allRuns, groupChecks));
  }
  if (parts[0] === 'sweeps' && parts.length === 1) {
    const all = sweepsOf(catalog.listRuns({ labels: {} }).filter((run) => run.labels.sweep !== undefined));
    const wanted = [...new Set(params.getAll('sweep').map((id) => id.trim()).filter((id) => id !== ''))];
    const chosen = wanted.flatMap((id) => all.filter((sweep) => sweep.id === id));
    const missing = wanted.filter((id) => !all.some((sweep) => sweep.id === id));
    const error = missing.length > 0 ? `no sweep ${missing.join(', ')} in the catalog; pick one from the list` : null;
    return htmlReply(renderSweepsPage(all, error === null ? chosen : [], error), error ? 404 : 200);
  }
  if (parts[0] === 'table' && parts.length === 1) {
    const { classes, mode, everyRun, groups, runs, error } = bestPractice(catalog, params, 'best');
    const suspect = new Map(runs.map((run) => [run.id, suspectWarnings(run.metrics)] as const).filter(([, warnings]) => warnings.length > 0));
    const modes = new Map(runs.map((run) => [run.id, run.mode]));
    return htmlReply(renderTablePage(groups, throughputPoints(runs, true).points, classes, error, { mode, everyRun, modeOfRun: modes, suspect }), error ? 400 : 200);
  }
  throw new HttpError(404, `nothing at /${parts.join('/')}`);
}

/** The reply to `GET path?query`; every failure becomes an error page or JSON error, never a crash. */
export function route(catalog: Catalog, url: URL): Reply {
  const isApi = url.pathname === '/api' || url.pathname.startsWith('/api/');
  try {
    if (url.pathname === '/favicon.ico') return { status: 204, contentType: 'text/plain', body: '' };
    const parts = url.pathname.split('/').filter((p) => p !== '').map(decodePathPart);
    return isApi ? apiReply(catalog, parts.slice(1), url.searchParams) : pageReply(catalog, parts, url.searchParams);
  } catch (error) {
    const status = error instanceof HttpError ? error.status : 500;
    const message = error instanceof HttpError || error instanceof UserError ? error.message : `internal error: ${(error as Error).message}`;
    return isApi ? jsonReply({ error: message }, status) : htmlReply(renderErrorPage(status, message), status);
  }
}
