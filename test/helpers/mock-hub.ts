/**
 * A loopback stand-in for the Hugging Face hub's file route, `GET /{org}/{name}/resolve/{revision}/{file}`,
 * answering as the hub does: the file with `X-Repo-Commit` and an `ETag`; 401 with `X-Error-Code:
 * GatedRepo` for a gated repo asked without its token; 404 with `RepoNotFound`, `RevisionNotFound`
 * or `EntryNotFound` otherwise. It records every request, so a test can tell it was never asked.
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RepoFiles } from './hf-cache.js';

export interface MockRepo extends RepoFiles {
  /** A gated repo answers only requests bearing this token. */
  token?: string;
}

export interface MockHubRequest {
  url: string;
  /** The Authorization header as received (tests check it, never print it). */
  authorization: string | undefined;
}

export interface MockHub {
  /** `http://127.0.0.1:<port>`, for HF_ENDPOINT. */
  endpoint: string;
  requests: MockHubRequest[];
  close(): Promise<void>;
}

/** The git blob id the hub sends as a small file's ETag. */
function gitBlobId(content: Buffer): string {
  return createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
}

function bytesOf(value: unknown): Buffer {
  return Buffer.from(typeof value === 'string' ? value : JSON.stringify(value));
}

export async function startMockHub(repos: Record<string, MockRepo>): Promise<MockHub> {
  const requests: MockHubRequest[] = [];
  const server: Server = createServer((req, res) => {
    requests.push({ url: req.url ?? '', authorization: req.headers.authorization });
    const match = /^\/([^/]+\/[^/]+)\/resolve\/([^/]+)\/(.+)$/.exec(req.url ?? '');
    const refuse = (status: number, code: string): void => {
      res.writeHead(status, { 'x-error-code': code, 'content-type': 'application/json' }).end(JSON.stringify({ error: code }));
    };
    const repo = match === null ? undefined : repos[match[1]!];
    if (match === null || repo === undefined) return refuse(404, 'RepoNotFound');
    if (repo.token !== undefined && req.headers.authorization !== `Bearer ${repo.token}`) return refuse(401, 'GatedRepo');
    const revision = decodeURIComponent(match[2]!);
    const commit = repo.refs[revision] ?? (repo.commits[revision] === undefined ? undefined : revision);
    if (commit === undefined) return refuse(404, 'RevisionNotFound');
    const content = repo.commits[commit]![match[3]!];
    if (content === undefined) {
      res.writeHead(404, { 'x-error-code': 'EntryNotFound', 'x-repo-commit': commit }).end();
      return;
    }
    const body = bytesOf(content);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length, etag: `"${gitBlobId(body)}"`, 'x-repo-commit': commit }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
