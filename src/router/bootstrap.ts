/**
 * PD disaggregation's request rewrite: the bootstrap fields the router adds to the one body both
 * the prefill and the decode worker receive, so the decode finds the prefill's KV (SGLang's
 * `inject_bootstrap_into_value`). Pure, apart from the crypto randomness of the rooms.
 */
import { randomBytes } from 'node:crypto';
import { jsonMembers, jsonObjectText, type JsonMember } from './json-members.js';

/** Rooms are u64 masked to i64::MAX, as SGLang's `rand::random::<u64>() & i64::MAX`. */
const ROOM_MASK = (1n << 63n) - 1n;

/** A fresh bootstrap room: uniform in [0, 2^63-1], a BigInt so it is never rounded through a JS number. */
export function newBootstrapRoom(): bigint {
  return randomBytes(8).readBigUInt64BE() & ROOM_MASK;
}

/**
 * How many requests a body batches, which is how many rooms it needs; null for a single request.
 * The router's own reading (SGLang's `get_*_batch_size`): `/generate` batches only with `input_ids`
 * as a list of lists; chat with `n > 1`; completions with a list of prompts (a list of token ids is
 * one prompt).
 */
export function batchSize(route: string, body: Record<string, unknown>): number | null {
  if (route === '/generate') {
    const ids = body.input_ids;
    return Array.isArray(ids) && ids.length > 0 && Array.isArray(ids[0]) ? ids.length : null;
  }
  if (route === '/v1/chat/completions') return typeof body.n === 'number' && body.n > 1 ? body.n : null;
  if (route === '/v1/completions') {
    const prompt = body.prompt;
    return Array.isArray(prompt) && prompt.length > 0 && typeof prompt[0] !== 'number' ? prompt.length : null;
  }
  return null;
}

/** The host SGLang's decode dials for the KV handshake: the prefill URL's host, without port or `@dp_rank`. */
export function bootstrapHost(prefillUrl: string): string {
  return new URL(prefillUrl.replace(/@\d+$/, '')).hostname;
}

export interface BootstrapTarget {
  host: string;
  /** The prefill's `--disaggregation-bootstrap-port`; null lets the decode use its own. */
  port: number | null;
}

const BOOTSTRAP_KEYS = new Set(['bootstrap_host', 'bootstrap_port', 'bootstrap_room']);

/**
 * The body with `bootstrap_host`/`bootstrap_port`/`bootstrap_room` set (replacing any the client
 * sent), as arrays of `batch` entries, one fresh room each, for a batch. Every other member is
 * passed through as written.
 */
export function injectBootstrap(bodyText: string, target: BootstrapTarget, batch: number | null, room: () => bigint = newBootstrapRoom): string {
  const kept = jsonMembers(bodyText).filter((member) => !BOOTSTRAP_KEYS.has(member.key));
  const host = JSON.stringify(target.host);
  const port = target.port === null ? 'null' : String(target.port);
  const injected: JsonMember[] =
    batch === null
      ? [
          { key: 'bootstrap_host', raw: host },
          { key: 'bootstrap_port', raw: port },
          { key: 'bootstrap_room', raw: room().toString() },
        ]
      : [
          { key: 'bootstrap_host', raw: `[${Array(batch).fill(host).join(',')}]` },
          { key: 'bootstrap_port', raw: `[${Array(batch).fill(port).join(',')}]` },
          { key: 'bootstrap_room', raw: `[${Array.from({ length: batch }, () => room().toString()).join(',')}]` },
        ];
  return jsonObjectText([...kept, ...injected]);
}
