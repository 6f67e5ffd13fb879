/** The content hash that identifies an ingested run: the same text read twice is the same run. */
import { createHash } from 'node:crypto';

/** sha256 of a run's text with line endings and trailing spaces normalised, so a re-saved copy is the same run. */
export function contentHash(text: string): string {
  const normalized = text.split(/\r?\n/).map((l) => l.trimEnd()).join('\n').trim();
  return createHash('sha256').update(normalized).digest('hex');
}
