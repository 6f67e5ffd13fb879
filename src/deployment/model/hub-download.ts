/**
 * One small file of a hub repo, asked for as huggingface_hub asks: `GET {endpoint}/{repo}/resolve/
 * {revision}/{filename}`, the token as `Authorization: Bearer`, the commit the revision resolved to
 * from `X-Repo-Commit` and the blob's name from `X-Linked-Etag` or `ETag`. Bounded: one deadline for
 * the whole exchange and a cap on the bytes read. It never throws for what the hub answers: every
 * outcome is a value its caller words.
 */
import { createHash } from 'node:crypto';
import { TOOL_VERSION } from '../../core/version.js';
import { isCommit, type FetchedFile } from './hub-cache.js';
import type { HubAccess } from './hub-settings.js';

/** A config.json is kilobytes; a file this large is no model config, and is not read further. */
const MAX_FILE_BYTES = 4 * 1024 * 1024;
/** Relative redirects (a renamed repo) and a CDN hop; more than this is a loop. */
const MAX_REDIRECTS = 5;

export type HubAnswer =
  | { kind: 'fetched'; file: FetchedFile }
  /** The hub answered with an error status; `code` is its `X-Error-Code` (GatedRepo, RepoNotFound, RevisionNotFound, EntryNotFound). */
  | { kind: 'refused'; status: number; code: string | null }
  /** No answer: the connection failed; `reason` is the system's error code (ECONNREFUSED, ENOTFOUND, ...). */
  | { kind: 'unreachable'; reason: string }
  /** No whole answer before the deadline. */
  | { kind: 'timed-out' }
  /** An answer that is not a hub's file; `reason` says what it did instead (`sent a config.json over 4 MiB`). */
  | { kind: 'unusable'; reason: string };

/** `W/"abc"` or `"abc"` → `abc`, as huggingface_hub's _normalize_etag. */
function normalizeEtag(header: string | null): string | null {
  if (header === null) return null;
  const etag = header.replace(/^W\//, '').replace(/^"|"$/g, '');
  return etag === '' ? null : etag;
}

/** A blob name that stays inside `blobs/`: the hub's etag when it is a plain name, else the bytes' SHA-256. */
function blobName(etag: string | null, content: Buffer): string {
  return etag !== null && /^[\w-]+$/.test(etag) ? etag : createHash('sha256').update(content).digest('hex');
}

/** The body, up to `limit` bytes; null when it is longer. */
async function readCapped(response: Response, limit: number): Promise<Buffer | null> {
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > limit) {
    await response.body?.cancel();
    return null;
  }
  const chunks: Buffer[] = [];
  let length = 0;
  if (response.body !== null) {
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      length += chunk.byteLength;
      if (length > limit) return null;
      chunks.push(Buffer.from(chunk));
    }
  }
  return Buffer.concat(chunks);
}

/** What a failed `fetch` says in one word: the system's error code, else its message. */
function failureReason(error: unknown): string {
  let cause: unknown = error;
  while (cause instanceof Error) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (typeof code === 'string') return code;
    cause = cause.cause;
  }
  return error instanceof Error ? error.message : String(error);
}

/** `{endpoint}/{repo}/resolve/{revision}/{filename}`, the revision quoted whole as huggingface_hub's hf_hub_url does. */
function resolveUrl(endpoint: string, repoId: string, revision: string, filename: string): string {
  return `${endpoint}/${repoId}/resolve/${encodeURIComponent(revision)}/${filename}`;
}

/** Fetches one file of `repoId` at `revision`. */
export async function downloadHubFile(access: HubAccess, repoId: string, revision: string, filename: string): Promise<HubAnswer> {
  const signal = AbortSignal.timeout(access.timeoutMs);
  let url = new URL(resolveUrl(access.endpoint, repoId, revision, filename));
  const origin = url.origin;
  let commit: string | null = null;
  let etag: string | null = null;
  try {
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      // The token goes to the hub only: a redirect to another host (a CDN) gets none.
      const headers: Record<string, string> = { 'user-agent': `servebench/${TOOL_VERSION}` };
      if (access.token !== null && url.origin === origin) headers.authorization = `Bearer ${access.token}`;
      const response = await fetch(url, { headers, redirect: 'manual', signal });
      if (url.origin === origin) {
        // The hub's last answer names the commit and the blob (a large file's in X-Linked-Etag, on
        // the redirect to its CDN); the CDN's own answer names neither.
        commit = response.headers.get('x-repo-commit') ?? commit;
        etag = normalizeEtag(response.headers.get('x-linked-etag') ?? response.headers.get('etag')) ?? etag;
      }
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location !== null) {
        await response.body?.cancel();
        url = new URL(location, url);
        continue;
      }
      if (!response.ok) {
        await response.body?.cancel();
        return { kind: 'refused', status: response.status, code: response.headers.get('x-error-code') };
      }
      const content = await readCapped(response, MAX_FILE_BYTES);
      if (content === null) return { kind: 'unusable', reason: `sent a ${filename} over ${MAX_FILE_BYTES / 1024 / 1024} MiB` };
      const snapshot = commit !== null && isCommit(commit) ? commit : isCommit(revision) ? revision : null;
      if (snapshot === null) return { kind: 'unusable', reason: 'named no commit (no X-Repo-Commit header: not a Hugging Face hub?)' };
      return { kind: 'fetched', file: { filename, commit: snapshot, etag: blobName(etag, content), content } };
    }
    return { kind: 'unusable', reason: `redirected more than ${MAX_REDIRECTS} times` };
  } catch (error) {
    // The deadline's signal says whether it fired; what fetch throws then differs between undici versions.
    return signal.aborted ? { kind: 'timed-out' } : { kind: 'unreachable', reason: failureReason(error) };
  }
}
