/**
 * Shared by the sim-server integration tests: an in-process truth-mode sim and a bench_serving-style
 * reader of its responses (line split, `data:` prefix, `[DONE]` skipped, JSON per line).
 */
import { request } from 'undici';
import { startSimServer, type SimServerHandle } from '../src/sim/server/sim-server.js';

export const MODEL = 'Qwen/Qwen3-8B';

/** A quiet truth-mode sim on a free loopback port (5 ms to the first chunk, then one every 2 ms). */
export function startTruthSim(extra: string[] = []): Promise<SimServerHandle> {
  return startSimServer(['--model-path', MODEL, '--truth-ttft-ms', '5', '--truth-itl-ms', '2', ...extra], { port: 0, host: '127.0.0.1', quiet: true });
}

export interface Reply {
  status: number;
  text: string;
  /** JSON values of an SSE body, parsed the way bench_serving parses them. */
  events: any[];
  json: any;
}

/** POSTs a JSON body (a string is sent verbatim) and reads the whole reply. */
export async function post(url: string, path: string, body: unknown): Promise<Reply> {
  const response = await request(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return reply(response.statusCode, await response.body.text());
}

/** GETs a path and reads the whole reply. */
export async function get(url: string, path: string): Promise<Reply> {
  const response = await request(`${url}${path}`);
  return reply(response.statusCode, await response.body.text());
}

function reply(status: number, text: string): Reply {
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  // `data:` with or without the space: TensorRT-LLM's stream writes none.
  const isStream = lines.length > 0 && lines[0]!.startsWith('data:');
  const events = isStream ? lines.map((l) => l.slice('data:'.length).trimStart()).filter((l) => l !== '[DONE]').map((l) => JSON.parse(l)) : [];
  let json: unknown = null;
  if (!isStream && text !== '') {
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
  }
  return { status, text, events, json };
}
