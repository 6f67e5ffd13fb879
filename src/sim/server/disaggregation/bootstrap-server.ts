/**
 * The prefill instance's bootstrap server (SGLang's CommonKVBootstrapServer, reference §2): on
 * `--host` and `--disaggregation-bootstrap-port`, the routes decode instances and prefill ranks
 * use, plus one route of the sim's own, `GET /servebench/kv_ready`, through which a decode sim
 * learns that a room's prefill is done (in SGLang the KV itself says so, over RDMA).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UserError } from '../../../core/errors.js';
import { HttpError } from '../../../core/http-error.js';
import { OPTIONS_BODY_LIMIT } from '../body-limit.js';
import { readBody, sendJson, sendText } from '../http-io.js';
import { parseRooms } from './bootstrap-fields.js';
import type { PrefillRooms } from './prefill-rooms.js';
import { rawTopLevelValues } from './raw-json-fields.js';

/** The sim-only route: long-polled by a decode sim, answered once the room's prefill is done. */
export const KV_READY_ROUTE = '/servebench/kv_ready';

/** What `GET /route` reports of the prefill instance's layout (its ranks all count as registered). */
export interface PrefillLayout {
  attnTpSize: number;
  dpSize: number;
  pageSize: number;
  kvCacheDtype: string;
}

const RANK_PARAMS = ['prefill_dp_rank', 'prefill_cp_rank', 'target_tp_rank', 'target_pp_rank'] as const;

export interface BootstrapServer {
  port: number;
  close(): Promise<void>;
}

/** `GET /route`: the layout for a decode's first query (all ranks -1), else the endpoint of one rank. */
function routeAnswer(query: URLSearchParams, layout: PrefillLayout, host: string, port: number): Record<string, unknown> {
  const missing = RANK_PARAMS.find((name) => query.get(name) === null);
  if (missing !== undefined) throw new HttpError(400, `Missing inputs for bootstrap server: ${missing}`);
  const ranks = RANK_PARAMS.map((name) => Number(query.get(name)));
  if (ranks.every((rank) => rank === -1)) {
    return {
      attn_tp_size: layout.attnTpSize,
      attn_cp_size: 1,
      dp_size: layout.dpSize,
      pp_size: 1,
      page_size: layout.pageSize,
      kv_cache_dtype: layout.kvCacheDtype,
      // SGLang's `auto` load balancing on a prefill instance.
      follow_bootstrap_room: true,
    };
  }
  const [dp, cp, tp, pp] = ranks as [number, number, number, number];
  if (!(dp >= 0 && dp < layout.dpSize && cp === 0 && tp >= 0 && tp < layout.attnTpSize && pp === 0)) throw new HttpError(404, 'Bootstrap info not Found');
  // The sim's ranks have no ZMQ endpoint of their own: the bootstrap server stands for them.
  return { rank_ip: host, rank_port: port };
}

async function handle(rooms: PrefillRooms, dpRanks: Map<string, number>, layout: PrefillLayout, host: string, port: () => number, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://bootstrap');
  const key = `${req.method} ${url.pathname}`;
  if (key === 'GET /health') return sendText(res, 200, 'OK');
  if (url.pathname === '/route') {
    if (req.method === 'PUT') {
      await readBody(req, OPTIONS_BODY_LIMIT);
      return sendText(res, 200, 'OK');
    }
    if (req.method !== 'GET') throw new HttpError(405, 'Method not allowed');
    return sendJson(res, 200, routeAnswer(url.searchParams, layout, host, port()));
  }
  if (key === 'POST /register_dp_rank') {
    const text = (await readBody(req, OPTIONS_BODY_LIMIT)).toString('utf8');
    const raw = rawTopLevelValues(text, ['bootstrap_room', 'dp_rank']);
    const room = parseRooms(raw.get('bootstrap_room') ?? 'null')?.[0];
    const rank = Number(raw.get('dp_rank'));
    if (room === undefined || !Number.isInteger(rank)) throw new HttpError(400, 'expected {"bootstrap_room": int, "dp_rank": int}');
    dpRanks.set(room, rank);
    return sendText(res, 200, 'OK');
  }
  if (key === 'POST /query_dp_ranks') {
    const text = (await readBody(req, OPTIONS_BODY_LIMIT)).toString('utf8');
    const asked = parseRooms(rawTopLevelValues(text, ['bootstrap_rooms']).get('bootstrap_rooms') ?? 'null') ?? [];
    // Room keys are written by hand: they are exact decimal strings, and the ranks small integers.
    const entries = asked.filter((room) => dpRanks.has(room)).map((room) => `"${room}":${dpRanks.get(room)!}`);
    return sendJson(res, 200, `{${entries.join(',')}}`);
  }
  if (key === `GET ${KV_READY_ROUTE}`) {
    const room = parseRooms(url.searchParams.get('bootstrap_room') ?? 'null')?.[0];
    if (room === undefined) throw new HttpError(400, `${KV_READY_ROUTE} needs ?bootstrap_room=<room>`);
    const gone = new AbortController();
    res.on('close', () => gone.abort());
    const ready = await rooms.connect(room, gone.signal);
    if (ready !== null) sendJson(res, 200, `{"bootstrap_room":${room},"prompt_tokens":${ready.promptTokens},"sent_bytes_per_token":${ready.sentBytesPerToken},"link_bytes_per_sec":${ready.linkBytesPerSec},"latency_sec":${ready.latencySec}}`);
    return;
  }
  throw new HttpError(404, 'Not Found');
}

/** Starts the bootstrap server on `host:port` (0: a free port); a port in use is a start-up error, as in SGLang. */
export async function startBootstrapServer(rooms: PrefillRooms, layout: PrefillLayout, host: string, port: number): Promise<BootstrapServer> {
  const dpRanks = new Map<string, number>();
  let bound = port;
  const server = createServer((req, res) => {
    handle(rooms, dpRanks, layout, host, () => bound, req, res).catch((error: unknown) => {
      const status = error instanceof HttpError ? error.status : 500;
      if (!res.headersSent) sendText(res, status, (error as Error).message);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(new UserError(`cannot start the bootstrap server on ${host}:${port}: ${error.code ?? error.message}; pick another --disaggregation-bootstrap-port`)),
    );
    server.listen(port, host, resolve);
  });
  bound = (server.address() as AddressInfo).port;
  return {
    port: bound,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
