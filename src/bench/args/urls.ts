/**
 * Default ports and endpoint URLs per backend (spec §1.4). No trailing-slash normalisation, as
 * in bench_serving; IPv6 hosts are bracketed (bench_serving's later fix, Q18).
 */
import type { BackendName } from './types.js';

/** The backends servebench accepts under another tool's name, mapped to the bench_serving backend they behave as. */
const BACKEND_ALIASES: Partial<Record<BackendName, BackendName>> = { openai: 'vllm', 'openai-chat': 'vllm-chat' };

/** The bench_serving backend a name behaves as: `openai` → `vllm`, `openai-chat` → `vllm-chat`, others unchanged. */
export function canonicalBackend(backend: BackendName): BackendName {
  return BACKEND_ALIASES[backend] ?? backend;
}

const DEFAULT_PORTS: Partial<Record<BackendName, number>> = {
  sglang: 30000,
  'sglang-native': 30000,
  'sglang-oai': 30000,
  lmdeploy: 23333,
  vllm: 8000,
  trt: 8000,
  gserver: 9988,
  truss: 8080,
};

/** Every backend without its own default (chat variants included) uses SGLang's port. */
const FALLBACK_PORT = 30000;

/** A server as the command line gives it (`--base-url`, `--host`, `--port`). */
export interface ServerAddress {
  readonly baseUrl: string | null;
  readonly host: string;
  readonly port: number | null;
}

/** `--port`, or the backend's default port when it was omitted. */
export function resolvePort(server: { readonly backend: BackendName; readonly port: number | null }): number {
  return server.port ?? DEFAULT_PORTS[canonicalBackend(server.backend)] ?? FALLBACK_PORT;
}

/** `[::1]` for an IPv6 literal, the host unchanged otherwise. */
export function bracketHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

const GENERATION_PATHS: Partial<Record<BackendName, string>> = {
  sglang: '/generate',
  'sglang-native': '/generate',
  'sglang-oai': '/v1/completions',
  vllm: '/v1/completions',
  lmdeploy: '/v1/completions',
  'sglang-oai-chat': '/v1/chat/completions',
  'vllm-chat': '/v1/chat/completions',
  'lmdeploy-chat': '/v1/chat/completions',
  trt: '/v2/models/ensemble/generate_stream',
  truss: '/v1/models/model:predict',
};

export interface BenchUrls {
  /** Where requests are sent. */
  apiUrl: string;
  /** `GET` here lists the served models (`/v1/models`). */
  modelUrl: string;
  /** Prefix of the auxiliary endpoints (`/flush_cache`, `/start_profile`, `/get_server_info`). */
  baseUrl: string;
}

/** The generation, model-list and auxiliary URLs of a run (spec §1.4). */
export function resolveUrls(server: ServerAddress & { readonly backend: BackendName }): BenchUrls {
  const backend = canonicalBackend(server.backend);
  const hostPort = `${bracketHost(server.host)}:${resolvePort(server)}`;
  // An empty --base-url counts as unset for request URLs but not for the auxiliary base (as in bench_serving).
  const prefix = server.baseUrl ? server.baseUrl : `http://${hostPort}`;
  const baseUrl = server.baseUrl === null ? `http://${hostPort}` : server.baseUrl;
  const apiUrl = backend === 'gserver' ? (server.baseUrl ? server.baseUrl : hostPort) : prefix + (GENERATION_PATHS[backend] as string);
  return { apiUrl, modelUrl: `${prefix}/v1/models`, baseUrl };
}
