/**
 * The dashboard's HTTP server (node:http, no framework). Serves `route` replies to GET/HEAD with
 * headers that forbid scripts and framing, and, when bound to a loopback address, answers only
 * requests addressed to a loopback host name (a DNS-rebinding page cannot read the catalog).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Catalog } from '../catalog/index.js';
import { UserError } from '../core/errors.js';
import { route, type Reply } from './routes.js';

export interface DashboardOptions {
  catalog: Catalog;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: any free port. */
  port?: number;
}

export interface RunningDashboard {
  /** `http://host:port` to open in a browser. */
  url: string;
  server: Server;
  /** Stops accepting connections and closes open ones. */
  close(): Promise<void>;
}

const SECURITY_HEADERS = {
  // Pages carry no script at all: anything that slipped into the markup could not run.
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** True for addresses only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_NAMES.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** The host name of a `Host` header (`name:port`, `[v6]:port`), lower-cased. */
export function hostHeaderName(header: string | undefined): string {
  if (!header) return '';
  const name = header.startsWith('[') ? header.slice(0, header.indexOf(']') + 1) : header.split(':')[0]!;
  return name.toLowerCase();
}

function send(res: ServerResponse, reply: Reply, headOnly: boolean): void {
  const body = typeof reply.body === 'string' ? Buffer.from(reply.body, 'utf8') : reply.body;
  res.writeHead(reply.status, {
    ...SECURITY_HEADERS,
    'content-type': reply.contentType,
    'content-length': body.length,
  });
  res.end(headOnly ? undefined : body);
}

/** The request handler over a catalog; `loopbackOnly` rejects requests for other host names. */
export function dashboardHandler(catalog: Catalog, loopbackOnly: boolean): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const plain = (status: number, text: string): void =>
      send(res, { status, contentType: 'text/plain; charset=utf-8', body: `${text}\n` }, req.method === 'HEAD');
    if (loopbackOnly && !isLoopbackHost(hostHeaderName(req.headers.host))) {
      plain(421, 'this dashboard answers only requests to localhost / 127.0.0.1');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('allow', 'GET, HEAD');
      plain(405, 'the dashboard is read-only: only GET and HEAD');
      return;
    }
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://dashboard.local');
    } catch {
      plain(400, 'malformed request address');
      return;
    }
    send(res, route(catalog, url), req.method === 'HEAD');
  };
}

/** Starts the dashboard; resolves once it listens. A taken port is a `UserError` naming the fix. */
export function startDashboard(options: DashboardOptions): Promise<RunningDashboard> {
  const host = options.host ?? '127.0.0.1';
  const server = createServer(dashboardHandler(options.catalog, isLoopbackHost(host)));
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') reject(new UserError(`port ${options.port} on ${host} is in use; pass another --port (0 picks a free one)`));
      else if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') reject(new UserError(`cannot listen on host '${host}'; pass an address of this machine with --host`));
      else if (error.code === 'EACCES') reject(new UserError(`no permission to listen on port ${options.port}; use a port above 1023`));
      else reject(error);
    });
    server.listen(options.port ?? 0, host, () => {
      const { port } = server.address() as AddressInfo;
      const shownHost = host.includes(':') ? `[${host}]` : host;
      resolve({
        url: `http://${shownHost}:${port}`,
        server,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
