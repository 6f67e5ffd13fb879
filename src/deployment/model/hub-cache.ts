/**
 * The Hugging Face hub cache as huggingface_hub lays it out, read and written:
 * `<cache>/models--org--name/` holds `blobs/<etag>` (the files' bytes), `snapshots/<commit>/<file>`
 * (links to the blobs) and `refs/<revision>` (the commit a branch or tag name stood for when it was
 * fetched). Files written here are found by SGLang and every other huggingface_hub user, and the
 * other way round.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

export const DEFAULT_REVISION = 'main';

/** One part of a repo id: huggingface_hub's characters, not starting or ending with `-` or `.`. */
const REPO_PART = /^[\w](?:[\w.-]{0,94}[\w])?$/;

/** A full commit id, which names a snapshot without a ref (huggingface_hub's REGEX_COMMIT_HASH). */
const COMMIT = /^[0-9a-f]{40}$/;

/**
 * True for a hub repo id of the `org/name` form; a bare name (`qwen3-8b`) is a catalog name, and a
 * deeper path is a local path. The caller checks first that no local path of that name exists.
 */
export function isHubId(modelPath: string): boolean {
  const parts = modelPath.split('/');
  return parts.length === 2 && parts.every((part) => REPO_PART.test(part) && !part.includes('--') && !part.includes('..'));
}

export function isCommit(revision: string): boolean {
  return COMMIT.test(revision);
}

/** `<cache>/models--org--name`. */
export function repoFolder(cacheDir: string, repoId: string): string {
  return join(cacheDir, ['models', ...repoId.split('/')].join('--'));
}

/** The commit a revision names in a repo folder: itself when it is one, else what `refs/<revision>` says; null when unknown. */
function commitOf(folder: string, revision: string): string | null {
  if (isCommit(revision)) return revision;
  try {
    return readFileSync(join(folder, 'refs', revision), 'utf8').trim();
  } catch {
    return null;
  }
}

/** The cached file of a revision (`snapshots/<commit>/<filename>`), or null when it is not there. */
export function cachedFile(folder: string, revision: string, filename: string): string | null {
  const commit = commitOf(folder, revision);
  if (commit === null || commit === '') return null;
  const file = join(folder, 'snapshots', commit, filename);
  return existsSync(file) ? file : null;
}

/** What the hub said of one file: the commit its revision resolved to, the blob's etag, its bytes. */
export interface FetchedFile {
  filename: string;
  commit: string;
  etag: string;
  content: Buffer;
}

/** Writes `content` to `file` whole or not at all: a reader never sees half a file. */
function writeAtomically(file: string, content: Buffer | string): void {
  mkdirSync(dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.incomplete`;
  writeFileSync(partial, content);
  renameSync(partial, file);
}

/**
 * Stores a fetched file as huggingface_hub does: the bytes as `blobs/<etag>`, and the snapshot's
 * entry a relative link to the blob (a copy where links cannot be made). Returns the snapshot path.
 */
export function storeFile(folder: string, file: FetchedFile): string {
  const blob = join(folder, 'blobs', file.etag);
  const pointer = join(folder, 'snapshots', file.commit, file.filename);
  if (!existsSync(blob)) writeAtomically(blob, file.content);
  mkdirSync(dirname(pointer), { recursive: true });
  rmSync(pointer, { force: true });
  try {
    symlinkSync(relative(dirname(pointer), blob), pointer);
  } catch {
    copyFileSync(blob, pointer);
  }
  return pointer;
}

/**
 * Records that `revision` (a branch or tag name) stood for `commit`, as `refs/<revision>` holding the
 * commit id alone (huggingface_hub reads the file unstripped). A commit id needs no ref.
 */
export function storeRef(folder: string, revision: string, commit: string): void {
  if (revision === commit) return;
  const ref = join(folder, 'refs', revision);
  if (existsSync(ref) && readFileSync(ref, 'utf8') === commit) return;
  writeAtomically(ref, commit);
}
