/**
 * One response answering a batch of prompts as SGLang's tokenizer manager does
 * (`_handle_batch_request`): streamed, every prompt's events interleaved as they come, each with
 * the prompt's `index`, and one `[DONE]` after the last; otherwise one JSON list of the prompts'
 * bodies once every prompt has finished.
 */
import type { ServerResponse } from 'node:http';
import { EventStream, sendJson } from './http-io.js';
import type { AnswerOutput } from './sim-context.js';
import { DONE_EVENT } from './wire-format.js';

/** SSE text of one prompt with its index added to each event (an event's JSON ends where a real newline follows `}`). */
function indexed(text: string, index: number): string {
  return text.replace(DONE_EVENT, '').replaceAll('}\n\n', `,"index":${index}}\n\n`);
}

/** The output of each of `count` prompts answered by `res`; null when its client already left. */
export function batchOutputs(res: ServerResponse, stream: boolean, count: number): AnswerOutput[] | null {
  if (res.socket === null || res.socket.destroyed) return null;
  const onGone = (listener: () => void): void => void res.on('close', listener);
  let unfinished = count;
  if (!stream) {
    const bodies: string[] = new Array<string>(count);
    return Array.from({ length: count }, (_, i) => ({
      stream: false as const,
      end: (body: string) => {
        bodies[i] = body;
        if (--unfinished === 0) sendJson(res, 200, `[${bodies.join(',')}]`);
      },
      onGone,
    }));
  }
  const events = new EventStream(res);
  return Array.from({ length: count }, (_, i) => ({
    stream: true as const,
    write: (text: string) => events.write(indexed(text, i)),
    end: (text: string) => {
      if (--unfinished === 0) events.end(indexed(text, i) + DONE_EVENT);
      else events.write(indexed(text, i));
    },
    onGone,
  }));
}
