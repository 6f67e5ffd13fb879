/**
 * The catalog schema as an ordered list of migrations. `PRAGMA user_version` holds how many have
 * run; opening a catalog applies the missing ones in one transaction, so a crash mid-upgrade
 * leaves the previous version intact.
 */
import type Database from 'better-sqlite3';
import { UserError } from '../../core/errors.js';
import { runModeOf } from '../run-mode.js';
import { decodeJson } from './json-codec.js';

type Migration = (db: Database.Database) => void;

/** Migration i brings the schema from version i to i + 1. Append only; never edit a released one. */
const MIGRATIONS: readonly Migration[] = [
  (db) => {
    db.exec(`
      CREATE TABLE runs (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        recorded_at TEXT NOT NULL,
        started_at TEXT,
        model TEXT,
        tool_version TEXT,
        source_kind TEXT NOT NULL,
        source_file TEXT,
        source_title TEXT,
        content_hash TEXT NOT NULL UNIQUE,
        args_json TEXT,
        metrics_json TEXT NOT NULL,
        server_info_json TEXT,
        environment_json TEXT NOT NULL,
        recipe_json TEXT,
        warnings_json TEXT NOT NULL,
        request_count INTEGER NOT NULL
      );
      CREATE TABLE run_labels (
        run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (run_id, key)
      );
      CREATE INDEX run_labels_by_key ON run_labels(key, value);
      CREATE TABLE requests (
        run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        idx INTEGER NOT NULL,
        start_time REAL,
        ttft REAL,
        latency REAL,
        itl BLOB,
        prompt_len INTEGER,
        output_len INTEGER,
        success INTEGER NOT NULL,
        error TEXT NOT NULL,
        cause TEXT,
        PRIMARY KEY (run_id, idx)
      ) WITHOUT ROWID;
    `);
  },
  // Runs imported from other tools store the definitions of metrics they measure differently.
  (db) => {
    db.exec('ALTER TABLE runs ADD COLUMN metric_definitions_json TEXT');
  },
  // Every run says what it is (measured, simulated, predicted); the runs stored before are read for it.
  (db) => {
    db.exec("ALTER TABLE runs ADD COLUMN mode TEXT NOT NULL DEFAULT 'measured'");
    const rows = db.prepare('SELECT id, args_json, metrics_json FROM runs').all() as { id: string; args_json: string | null; metrics_json: string }[];
    const labelsOf = db.prepare('SELECT key, value FROM run_labels WHERE run_id = ?');
    const setMode = db.prepare('UPDATE runs SET mode = ? WHERE id = ?');
    for (const row of rows) {
      const labels = Object.fromEntries((labelsOf.all(row.id) as { key: string; value: string }[]).map((l) => [l.key, l.value]));
      const mode = runModeOf({ labels, args: row.args_json ? decodeJson(row.args_json) : null, metrics: decodeJson(row.metrics_json) });
      if (mode !== 'measured') setMode.run(mode, row.id);
    }
    db.exec('CREATE INDEX runs_by_mode ON runs(mode)');
  },
  // A request's wait for a concurrency slot, for the per-request timeline.
  (db) => {
    db.exec('ALTER TABLE requests ADD COLUMN queue_time REAL');
  },
  // The server's side of a bench run: its /metrics over the window, and what each response said about itself.
  (db) => {
    db.exec('ALTER TABLE runs ADD COLUMN server_metrics_json TEXT');
    db.exec('ALTER TABLE requests ADD COLUMN server_json TEXT');
  },
  // The runs of one repeated measurement (`bench --num-runs`) share a group; run k of N within it.
  (db) => {
    db.exec(`
      ALTER TABLE runs ADD COLUMN repeat_group TEXT;
      ALTER TABLE runs ADD COLUMN repeat_run INTEGER;
      ALTER TABLE runs ADD COLUMN repeat_runs INTEGER;
      CREATE INDEX runs_by_repeat_group ON runs(repeat_group);
    `);
  },
  // A sharded run's shards (`bench --shards K`): what each sent, its clock offset and its self-check.
  (db) => {
    db.exec('ALTER TABLE runs ADD COLUMN shards_json TEXT');
  },
];

/** The schema version this build writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/** Brings a freshly opened database up to `SCHEMA_VERSION`; refuses a catalog from a newer servebench. */
export function migrate(db: Database.Database, path: string): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > SCHEMA_VERSION) {
    throw new UserError(
      `catalog ${path} has schema version ${current}, newer than this servebench understands (${SCHEMA_VERSION}); upgrade servebench or pass another --db`,
    );
  }
  if (current === SCHEMA_VERSION) return;
  db.transaction(() => {
    for (let version = current; version < SCHEMA_VERSION; version++) MIGRATIONS[version]!(db);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }).immediate();
}
