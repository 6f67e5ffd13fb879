/**
 * Feeds one response line (or a whole non-stream body) to a backend parser. The reference strips
 * whitespace, drops empty lines and a `data: ` prefix, ignores `[DONE]` and JSON-parses the rest;
 * servebench also tolerates SSE comments, `event:`/`id:`/`retry:` fields and `data:` without the
 * space (Q3 F), none of which changes anything against SGLang or vLLM.
 */
import { MalformedChunkError } from './timeline.js';
import type { ResponseParser } from './types.js';

const PREVIEW_CHARS = 200;

function isIgnoredField(line: string): boolean {
  return line.startsWith(':') || line.startsWith('event:') || line.startsWith('id:') || line.startsWith('retry:');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const preview = text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text;
    throw new MalformedChunkError(`malformed chunk (not JSON): ${preview}`);
  }
}

/** Handles one line of a streamed response that arrived at `now` (run-clock seconds). */
export function feedLine(parser: ResponseParser, rawLine: string, now: number): void {
  let line = rawLine.trim();
  if (line === '') return;
  if (line.startsWith('data:')) line = line.slice(5).trimStart();
  else if (isIgnoredField(line)) return;
  if (line === '[DONE]') {
    parser.onDone(now);
    return;
  }
  parser.onChunk(parseJson(line), now);
}

/** Handles the whole body of a non-stream response, complete at `now`. */
export function feedBody(parser: ResponseParser, body: string, now: number): void {
  parser.onBody(parseJson(body.trim()), now);
}
