/**
 * Where the Hugging Face cache is and how the hub is asked, from the environment variables
 * huggingface_hub reads (its constants.py), so servebench finds what SGLang's Python tools
 * downloaded and stores what it downloads where they look.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { UserError } from '../../core/errors.js';

export type HubEnv = Readonly<Record<string, string | undefined>>;

/** How servebench asks the hub for a model's files. */
export interface HubAccess {
  /** The hub's base URL, no trailing slash (`HF_ENDPOINT`). */
  endpoint: string;
  /** Sent as `Authorization: Bearer` for gated and private repos; never printed. */
  token: string | null;
  /** Bound on one file's whole exchange, redirects and body included. */
  timeoutMs: number;
}

const DEFAULT_ENDPOINT = 'https://huggingface.co';
/** huggingface_hub's DEFAULT_DOWNLOAD_TIMEOUT. */
const DEFAULT_TIMEOUT_S = 10;

/** huggingface_hub's ENV_VARS_TRUE_VALUES. */
const TRUE_VALUES = new Set(['1', 'ON', 'YES', 'TRUE']);

/** A set variable's value; an empty one counts as unset (`VAR=` clears a setting for one command). */
function setValue(env: HubEnv, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

/** Python's expanduser for the `~` a variable may start with. */
function expandHome(path: string): string {
  return path === '~' || path.startsWith('~/') ? join(homedir(), path.slice(1)) : path;
}

/** `HF_HOME`, else `$XDG_CACHE_HOME/huggingface`, else `~/.cache/huggingface`. */
function hfHome(env: HubEnv): string {
  const home = setValue(env, 'HF_HOME');
  if (home !== undefined) return expandHome(home);
  return join(expandHome(setValue(env, 'XDG_CACHE_HOME') ?? join(homedir(), '.cache')), 'huggingface');
}

/** The hub cache: `HF_HUB_CACHE`, else the legacy `HUGGINGFACE_HUB_CACHE`, else `HF_HOME/hub`. */
export function hubCacheDir(env: HubEnv = process.env): string {
  const cache = setValue(env, 'HF_HUB_CACHE') ?? setValue(env, 'HUGGINGFACE_HUB_CACHE');
  return cache === undefined ? join(hfHome(env), 'hub') : expandHome(cache);
}

/** `HF_HUB_OFFLINE` (or `TRANSFORMERS_OFFLINE`) set true: never ask the hub. */
export function hubOffline(env: HubEnv = process.env): boolean {
  const value = setValue(env, 'HF_HUB_OFFLINE') ?? setValue(env, 'TRANSFORMERS_OFFLINE');
  return value !== undefined && TRUE_VALUES.has(value.toUpperCase());
}

/** `HF_TOKEN`, else the token `hf auth login` stored (`HF_TOKEN_PATH`, else `HF_HOME/token`), else none. */
function hubToken(env: HubEnv): string | null {
  const given = setValue(env, 'HF_TOKEN') ?? setValue(env, 'HUGGING_FACE_HUB_TOKEN');
  if (given !== undefined) return given.trim();
  const file = expandHome(setValue(env, 'HF_TOKEN_PATH') ?? join(hfHome(env), 'token'));
  try {
    const stored = readFileSync(file, 'utf8').trim();
    return stored === '' ? null : stored;
  } catch {
    return null;
  }
}

function endpoint(env: HubEnv): string {
  const value = (setValue(env, 'HF_ENDPOINT') ?? DEFAULT_ENDPOINT).replace(/\/+$/, '');
  let url: URL | null = null;
  try {
    url = new URL(value);
  } catch {
    // Reported below with the fix.
  }
  if (url === null || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new UserError(`HF_ENDPOINT is not an http(s) URL: set it to the hub's address (e.g. ${DEFAULT_ENDPOINT}) or unset it`);
  }
  return value;
}

function timeoutMs(env: HubEnv): number {
  const value = setValue(env, 'HF_HUB_DOWNLOAD_TIMEOUT');
  if (value === undefined) return DEFAULT_TIMEOUT_S * 1000;
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0) {
    throw new UserError(`HF_HUB_DOWNLOAD_TIMEOUT='${value}' is not a number of seconds above 0: set it to e.g. ${DEFAULT_TIMEOUT_S}, or unset it`);
  }
  return seconds * 1000;
}

/** How to ask the hub (when `hubOffline` allows it); bad settings end in one line naming the variable. */
export function hubAccess(env: HubEnv = process.env): HubAccess {
  return { endpoint: endpoint(env), token: hubToken(env), timeoutMs: timeoutMs(env) };
}
