import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { downloadHubFile } from './hub-download.js';

const COMMIT = 'f'.repeat(40);
const LFS_ETAG = 'a'.repeat(64);
const TOKEN = 'hf_redirect_test_token';

/** What each server was asked: the path and whether a token came with it. */
const seen: { server: string; path: string; authorization: string | undefined }[] = [];

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

function record(name: string, req: IncomingMessage): void {
  seen.push({ server: name, path: req.url ?? '', authorization: req.headers.authorization });
}

let hub: Server;
let cdn: Server;
let hubUrl: string;
let cdnUrl: string;
before(async () => {
  cdn = createServer((req, res) => {
    record('cdn', req);
    res.writeHead(200, { etag: '"cdn-etag"' }).end('{"model_type": "llama"}');
  });
  cdnUrl = await listen(cdn);
  hub = createServer((req, res) => {
    record('hub', req);
    if (req.url === '/acme/Old-Name/resolve/main/config.json') {
      res.writeHead(307, { location: '/acme/New-Name/resolve/main/config.json' }).end();
    } else if (req.url === '/acme/New-Name/resolve/main/config.json') {
      res.writeHead(200, { etag: '"0123abcd"', 'x-repo-commit': COMMIT }).end('{"model_type": "qwen2"}');
    } else if (req.url === '/acme/Large/resolve/main/config.json') {
      res.writeHead(302, { location: `${cdnUrl}/blob`, 'x-repo-commit': COMMIT, 'x-linked-etag': `"${LFS_ETAG}"` }).end();
    } else {
      res.writeHead(200).end('{}');
    }
  });
  hubUrl = await listen(hub);
});
after(async () => {
  for (const server of [hub, cdn]) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

const access = () => ({ endpoint: hubUrl, token: TOKEN, timeoutMs: 5000 });

describe('downloadHubFile: redirects', () => {
  test("a renamed repo's relative redirect is followed with the token; the final answer names commit and blob", async () => {
    seen.length = 0;
    const answer = await downloadHubFile(access(), 'acme/Old-Name', 'main', 'config.json');
    assert.equal(answer.kind, 'fetched');
    assert.deepEqual(answer.kind === 'fetched' ? [answer.file.commit, answer.file.etag, answer.file.content.toString()] : [], [COMMIT, '0123abcd', '{"model_type": "qwen2"}']);
    assert.deepEqual(seen.map((s) => s.authorization), [`Bearer ${TOKEN}`, `Bearer ${TOKEN}`]);
  });

  test("a redirect to another host gets no token; the blob is named by the hub's X-Linked-Etag, not the CDN's ETag", async () => {
    seen.length = 0;
    const answer = await downloadHubFile(access(), 'acme/Large', 'main', 'config.json');
    assert.deepEqual(answer.kind === 'fetched' ? [answer.file.commit, answer.file.etag] : answer, [COMMIT, LFS_ETAG]);
    assert.deepEqual(seen.map((s) => [s.server, s.authorization]), [['hub', `Bearer ${TOKEN}`], ['cdn', undefined]]);
  });

  test('an answer without X-Repo-Commit is no hub file, unless the revision asked for is a commit', async () => {
    assert.deepEqual(await downloadHubFile(access(), 'acme/Plain', 'main', 'config.json'), { kind: 'unusable', reason: 'named no commit (no X-Repo-Commit header: not a Hugging Face hub?)' });
    const byCommit = await downloadHubFile(access(), 'acme/Plain', COMMIT, 'config.json');
    assert.equal(byCommit.kind === 'fetched' ? byCommit.file.commit : byCommit.kind, COMMIT);
  });
});
