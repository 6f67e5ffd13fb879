/**
 * Where the catalog lives: `--db PATH`, else `$SERVEBENCH_DB`, else the user's data directory
 * (`$XDG_DATA_HOME/servebench/catalog.db`, default `~/.local/share/servebench/catalog.db`).
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Resolves the catalog path from an explicit option and the environment (pure: `env` is injected). */
export function resolveCatalogPath(
  explicit: string | null | undefined,
  env: NodeJS.ProcessEnv = process.env,
  home: string = homedir(),
): string {
  if (explicit) return explicit;
  if (env.SERVEBENCH_DB) return env.SERVEBENCH_DB;
  const dataHome = env.XDG_DATA_HOME && env.XDG_DATA_HOME.startsWith('/') ? env.XDG_DATA_HOME : join(home, '.local', 'share');
  return join(dataHome, 'servebench', 'catalog.db');
}
