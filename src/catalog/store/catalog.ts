/**
 * The run catalog: one SQLite file (WAL) holding every run, its labels and its per-request
 * records. All SQL of the catalog lives here. Writes are transactions, so a failed ingest leaves
 * what was stored before untouched.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { UserError } from '../../core/errors.js';
import { redactValue } from '../../core/redact.js';
import { runModeOf, type RunMode } from '../run-mode.js';
import { capWarnings } from '../warnings.js';
import type { RecordOutcome, RequestRecord, RunFilter, RunInput, RunRecord, RunSource } from '../types.js';
import { decodeJson, encodeJson } from './json-codec.js';
import { resolveCatalogPath } from './paths.js';
import { migrate } from './schema.js';

export interface OpenCatalogOptions {
  /** Fail with a clear message instead of creating the file (query commands). */
  mustExist?: boolean;
  /** How long to wait for another writer before reporting the catalog as locked. */
  busyTimeoutMs?: number;
}

interface RunRow {
  id: string;
  recorded_at: string;
  started_at: string | null;
  model: string | null;
  tool_version: string | null;
  source_kind: RunSource['kind'];
  source_file: string | null;
  source_title: string | null;
  content_hash: string;
  args_json: string | null;
  metrics_json: string;
  server_info_json: string | null;
  environment_json: string;
  recipe_json: string | null;
  warnings_json: string;
  request_count: number;
  metric_definitions_json: string | null;
  mode: RunMode;
  server_metrics_json: string | null;
  repeat_group: string | null;
  repeat_run: number | null;
  repeat_runs: number | null;
  shards_json: string | null;
}

interface RequestRow {
  start_time: number | null;
  ttft: number | null;
  latency: number | null;
  itl: Buffer | null;
  prompt_len: number | null;
  output_len: number | null;
  success: number;
  error: string;
  cause: string | null;
  queue_time: number | null;
  server_json: string | null;
}

const RUN_COLUMNS = `r.id, r.recorded_at, r.started_at, r.model, r.tool_version, r.source_kind, r.source_file,
  r.source_title, r.content_hash, r.args_json, r.metrics_json, r.server_info_json, r.environment_json,
  r.recipe_json, r.warnings_json, r.request_count, r.metric_definitions_json, r.mode, r.server_metrics_json,
  r.repeat_group, r.repeat_run, r.repeat_runs, r.shards_json`;

/**
 * A run's hardware contains the pattern (bound twice): its `hardware` label, which the user gave and
 * which wins unless empty, else the device a server of its recipe reported (run-facts.ts's deriveHardware, in SQL).
 */
const HARDWARE_MATCHES = `CASE WHEN EXISTS (SELECT 1 FROM run_labels l WHERE l.run_id = r.id AND l.key = 'hardware' AND l.value <> '')
  THEN EXISTS (SELECT 1 FROM run_labels l WHERE l.run_id = r.id AND l.key = 'hardware' AND LOWER(l.value) LIKE ? ESCAPE '\\')
  ELSE EXISTS (SELECT 1 FROM json_each(r.recipe_json, '$.instances') i
    WHERE LOWER(json_extract(i.value, '$.hardware.key')) LIKE ? ESCAPE '\\') END`;

/** The run id for a content hash: stable, short, and the same in every catalog. */
export function runIdFor(contentHash: string): string {
  return createHash('sha256').update(`run:${contentHash}`).digest('hex').slice(0, 12);
}

/** Turns SQLite failures into one-line messages that name the file and the fix. */
function explainSqliteError(error: unknown, path: string): unknown {
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_')) return error;
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return new UserError(`catalog ${path} is locked by another process; wait for it to finish, then retry (nothing was changed)`);
  }
  if (code.startsWith('SQLITE_NOTADB') || code.startsWith('SQLITE_CORRUPT')) {
    return new UserError(`${path} is not a servebench catalog or is corrupt; move it away or pass another --db`);
  }
  if (code.startsWith('SQLITE_CANTOPEN') || code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_PERM')) {
    return new UserError(`cannot write catalog ${path}; check the directory's permissions or pass another --db`);
  }
  if (code.startsWith('SQLITE_FULL')) return new UserError(`disk full while writing catalog ${path}; free space and retry`);
  return new UserError(`catalog ${path}: ${(error as Error).message}`);
}

/** A handle on one catalog file. Close it when done. */
export class Catalog {
  readonly path: string;
  private readonly db: Database.Database;

  /** Use `openCatalog`. */
  constructor(path: string, db: Database.Database) {
    this.path = path;
    this.db = db;
  }

  /** Runs `fn`, converting SQLite errors to one-line user errors. */
  private guard<T>(fn: () => T): T {
    try {
      return fn();
    } catch (error) {
      throw explainSqliteError(error, this.path);
    }
  }

  /** Stores one run (secrets redacted) and returns its id; a run with a known content hash is not stored twice. */
  recordRun(run: RunInput): string {
    return this.recordRuns([run])[0]!.id;
  }

  /**
   * Stores several runs in one transaction: either all new ones are stored or none. With
   * `mergeLabels`, a run already stored gets the input's labels added (same key: the input wins),
   * so `ingest FILE --label k=v` can label runs ingested before; nothing else of it changes.
   */
  recordRuns(runs: readonly RunInput[], options: { mergeLabels?: boolean } = {}): RecordOutcome[] {
    return this.guard(() => this.db.transaction(() => runs.map((run) => this.insertRun(run, options.mergeLabels ?? false))).immediate());
  }

  private insertRun(run: RunInput, mergeLabels: boolean): RecordOutcome {
    const existing = this.db.prepare('SELECT id FROM runs WHERE content_hash = ?').get(run.source.contentHash) as
      | { id: string }
      | undefined;
    if (existing) {
      if (mergeLabels) {
        const upsert = this.db.prepare(
          'INSERT INTO run_labels (run_id, key, value) VALUES (?, ?, ?) ON CONFLICT (run_id, key) DO UPDATE SET value = excluded.value',
        );
        for (const [key, value] of Object.entries(run.labels ?? {})) upsert.run(existing.id, key, value);
      }
      return { id: existing.id, created: false };
    }
    const id = runIdFor(run.source.contentHash);
    const args = run.args ? redactValue(run.args) : null;
    const model = run.model ?? stringOrNull(args?.model) ?? run.recipe?.instances.find((i) => i.config.modelPath)?.config.modelPath ?? null;
    this.db
      .prepare(
        `INSERT INTO runs (id, recorded_at, started_at, model, tool_version, source_kind, source_file, source_title,
           content_hash, args_json, metrics_json, server_info_json, environment_json, recipe_json, warnings_json, request_count,
           metric_definitions_json, mode, server_metrics_json, repeat_group, repeat_run, repeat_runs, shards_json)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        id,
        new Date().toISOString(),
        run.startedAt ?? null,
        model,
        run.toolVersion ?? null,
        run.source.kind,
        run.source.file,
        run.source.title ?? null,
        run.source.contentHash,
        args ? encodeJson(args) : null,
        encodeJson(run.metrics),
        run.serverInfo === undefined || run.serverInfo === null ? null : encodeJson(redactValue(run.serverInfo)),
        encodeJson(run.environment ?? {}),
        run.recipe ? encodeJson(run.recipe) : null,
        encodeJson(capWarnings(run.warnings ?? [])),
        run.requests?.length ?? 0,
        run.metricDefinitions && Object.keys(run.metricDefinitions).length > 0 ? encodeJson(run.metricDefinitions) : null,
        run.mode ?? runModeOf(run),
        run.serverMetrics ? encodeJson(run.serverMetrics) : null,
        run.repeat?.group ?? null,
        run.repeat?.run ?? null,
        run.repeat?.runs ?? null,
        run.shards && run.shards.length > 0 ? encodeJson(run.shards) : null,
      );
    const addLabel = this.db.prepare('INSERT INTO run_labels (run_id, key, value) VALUES (?, ?, ?)');
    for (const [key, value] of Object.entries(run.labels ?? {})) addLabel.run(id, key, value);
    const addRequest = this.db.prepare(
      `INSERT INTO requests (run_id, idx, start_time, ttft, latency, itl, prompt_len, output_len, success, error, cause, queue_time, server_json)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    (run.requests ?? []).forEach((r, idx) =>
      addRequest.run(
        id,
        idx,
        r.startTime,
        r.ttft,
        r.latency,
        Buffer.from(Float64Array.from(r.itl).buffer),
        r.promptLen,
        r.outputLen,
        r.success ? 1 : 0,
        r.error,
        r.cause,
        r.queueTime ?? null,
        r.server ? encodeJson(r.server) : null,
      ),
    );
    return { id, created: true };
  }

  /** Runs matching every given filter, newest first. */
  listRuns(filter: RunFilter = {}): RunRecord[] {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.model) {
      where.push("LOWER(COALESCE(r.model, '')) LIKE ? ESCAPE '\\'");
      params.push(`%${escapeLike(filter.model.toLowerCase())}%`);
    }
    if (filter.hardware) {
      where.push(HARDWARE_MATCHES);
      const pattern = `%${escapeLike(filter.hardware.toLowerCase())}%`;
      params.push(pattern, pattern);
    }
    for (const [key, value] of Object.entries(filter.labels ?? {})) {
      where.push('EXISTS (SELECT 1 FROM run_labels l WHERE l.run_id = r.id AND l.key = ? AND l.value = ?)');
      params.push(key, value);
    }
    if (filter.modes !== undefined) {
      where.push(`r.mode IN (${filter.modes.map(() => '?').join(', ') || 'NULL'})`);
      params.push(...filter.modes);
    }
    if (filter.since) {
      where.push('COALESCE(r.started_at, r.recorded_at) >= ?');
      params.push(filter.since);
    }
    const sql = `SELECT ${RUN_COLUMNS} FROM runs r ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY r.seq DESC ${filter.limit !== undefined ? 'LIMIT ?' : ''}`;
    if (filter.limit !== undefined) params.push(filter.limit);
    return this.guard(() => (this.db.prepare(sql).all(...params) as RunRow[]).map((row) => this.toRecord(row)));
  }

  /** The run with this id or unique id prefix (at least 4 characters), or null when none matches. */
  findRun(idOrPrefix: string): RunRecord | null {
    const prefix = idOrPrefix.trim().toLowerCase();
    if (!/^[0-9a-f]{4,}$/.test(prefix)) {
      throw new UserError(`'${idOrPrefix}' is not a run id; give at least 4 hex digits as listed by 'servebench runs'`);
    }
    const rows = this.guard(
      () => this.db.prepare(`SELECT ${RUN_COLUMNS} FROM runs r WHERE r.id LIKE ? LIMIT 2`).all(`${prefix}%`) as RunRow[],
    );
    if (rows.length > 1) throw new UserError(`run id prefix '${idOrPrefix}' matches several runs; give more digits`);
    return rows[0] ? this.toRecord(rows[0]) : null;
  }

  /** Like `findRun`, but a missing run is an error naming the fix. */
  getRun(idOrPrefix: string): RunRecord {
    const run = this.findRun(idOrPrefix);
    if (!run) throw new UserError(`no run '${idOrPrefix}' in catalog ${this.path}; list runs with 'servebench runs'`);
    return run;
  }

  /** The runs of a repeated measurement, in run order (empty when no run has that group). */
  repeatGroup(group: string): RunRecord[] {
    const sql = `SELECT ${RUN_COLUMNS} FROM runs r WHERE r.repeat_group = ? ORDER BY r.repeat_run, r.seq`;
    return this.guard(() => (this.db.prepare(sql).all(group) as RunRow[]).map((row) => this.toRecord(row)));
  }

  /** The per-request records of a run, in request order (empty when the source had none). */
  getRequests(runId: string): RequestRecord[] {
    const rows = this.guard(
      () => this.db.prepare('SELECT * FROM requests WHERE run_id = ? ORDER BY idx').all(runId) as RequestRow[],
    );
    return rows.map((row) => ({
      startTime: row.start_time,
      ttft: row.ttft,
      latency: row.latency,
      itl: row.itl ? Array.from(new Float64Array(row.itl.buffer, row.itl.byteOffset, row.itl.byteLength / 8)) : [],
      promptLen: row.prompt_len,
      outputLen: row.output_len,
      success: row.success === 1,
      error: row.error,
      cause: row.cause,
      queueTime: row.queue_time,
      server: row.server_json ? decodeJson(row.server_json) : null,
    }));
  }

  /** Number of runs stored. */
  countRuns(): number {
    return this.guard(() => (this.db.prepare('SELECT COUNT(*) AS n FROM runs').get() as { n: number }).n);
  }

  close(): void {
    this.db.close();
  }

  private labelsStatement: Database.Statement | null = null;

  private toRecord(row: RunRow): RunRecord {
    this.labelsStatement ??= this.db.prepare('SELECT key, value FROM run_labels WHERE run_id = ? ORDER BY key');
    const labelRows = this.labelsStatement.all(row.id) as {
      key: string;
      value: string;
    }[];
    return {
      id: row.id,
      recordedAt: row.recorded_at,
      startedAt: row.started_at,
      model: row.model,
      toolVersion: row.tool_version,
      source: { kind: row.source_kind, file: row.source_file, contentHash: row.content_hash, title: row.source_title },
      args: row.args_json ? decodeJson(row.args_json) : null,
      metrics: decodeJson(row.metrics_json),
      metricDefinitions: row.metric_definitions_json ? decodeJson(row.metric_definitions_json) : {},
      serverInfo: row.server_info_json ? decodeJson(row.server_info_json) : null,
      environment: decodeJson(row.environment_json),
      labels: Object.fromEntries(labelRows.map((l) => [l.key, l.value])),
      recipe: row.recipe_json ? decodeJson(row.recipe_json) : null,
      warnings: decodeJson(row.warnings_json),
      requestCount: row.request_count,
      mode: row.mode,
      serverMetrics: row.server_metrics_json ? decodeJson(row.server_metrics_json) : null,
      repeat: row.repeat_group === null ? null : { group: row.repeat_group, run: row.repeat_run ?? 0, runs: row.repeat_runs ?? 0 },
      shards: row.shards_json ? decodeJson(row.shards_json) : null,
    };
  }
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Opens (creating if needed) the catalog at `path`, default `resolveCatalogPath()`: `$SERVEBENCH_DB`
 * or the user's data directory. Applies pending schema migrations.
 */
export function openCatalog(path?: string | null, options: OpenCatalogOptions = {}): Catalog {
  const file = resolveCatalogPath(path);
  if (options.mustExist && !existsSync(file)) {
    throw new UserError(`no catalog at ${file}; record runs with 'servebench bench' or 'servebench ingest', or pass --db`);
  }
  let db: Database.Database | undefined;
  try {
    mkdirSync(dirname(file), { recursive: true });
    db = new Database(file, { timeout: options.busyTimeoutMs ?? 5000 });
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    migrate(db, file);
    return new Catalog(file, db);
  } catch (error) {
    db?.close();
    if (error instanceof UserError) throw error;
    const code = (error as { code?: unknown }).code;
    if (code === 'EACCES' || code === 'ENOTDIR' || code === 'EROFS') {
      throw new UserError(`cannot create catalog ${file} (${String(code)}); pass a writable --db`);
    }
    throw explainSqliteError(error, file);
  }
}
