/**
 * A scripted loopback server for `servebench eval`: it reads the prompt of each generation
 * request (SGLang /generate, OpenAI completions or chat), asks the test for the reply, cuts it at
 * the first stop string the request carries (as a real server stops), and streams it word by word
 * in the API's wire format, usage included. A reply given as a number is an HTTP error status.
 * Also answers /v1/models and /get_server_info, and counts the requests it holds at once.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { formatOfPath, streamEpilogue, streamPreamble, tokenChunk, type WireFormat } from './wire-formats.js';
import { readBody } from './read-body.js';

export interface AnswerKeyServerOptions {
  /** The reply to a prompt, or an HTTP status to fail it with. */
  answer(prompt: string): string | number;
  /** The `/get_server_info` body (default: an SGLang-like one). */
  serverInfo?: Record<string, unknown>;
  modelId?: string;
  /** Milliseconds each reply waits before its first byte, so requests overlap. */
  delayMs?: number;
}

export interface ReceivedGeneration {
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

export interface AnswerKeyServer {
  url: string;
  /** Generation requests in arrival order. */
  requests: ReceivedGeneration[];
  /** The most generation requests open at one time. */
  maxInFlight(): number;
  close(): Promise<void>;
}

export const DEFAULT_MODEL = 'Qwen/Qwen2.5-0.5B-Instruct';
export const SGLANG_SERVER_INFO = { model_path: DEFAULT_MODEL, tp_size: 1, dp_size: 1, chunked_prefill_size: 8192, version: '0.5.6' };


function promptOf(format: WireFormat, body: Record<string, unknown>): string {
  if (format === 'native') return String(body.text);
  if (format === 'chat') return String((body.messages as Array<{ content: string }>)[0]!.content);
  return String(body.prompt);
}

function stopsOf(format: WireFormat, body: Record<string, unknown>): string[] {
  const stop = format === 'native' ? (body.sampling_params as Record<string, unknown>).stop : body.stop;
  return Array.isArray(stop) ? (stop as string[]) : [];
}

/** The reply up to the earliest stop string, which is not part of it. */
function cutAtStop(reply: string, stops: readonly string[]): string {
  const at = Math.min(...stops.map((stop) => reply.indexOf(stop)).filter((i) => i >= 0), reply.length);
  return reply.slice(0, at);
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}

export async function startAnswerKeyServer(options: AnswerKeyServerOptions): Promise<AnswerKeyServer> {
  const model = options.modelId ?? DEFAULT_MODEL;
  const requests: ReceivedGeneration[] = [];
  let inFlight = 0;
  let maxInFlight = 0;

  async function generate(format: WireFormat, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = JSON.parse(await readBody(req)) as Record<string, unknown>;
    requests.push({ path: req.url!, headers: req.headers, body });
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
      const reply = options.answer(promptOf(format, body));
      if (typeof reply === 'number') return json(res, reply, { error: { message: 'scripted failure' } });
      const words = cutAtStop(reply, stopsOf(format, body)).match(/\s*\S+\s*/g) ?? [];
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      let out = streamPreamble(format, model);
      let cumulative = '';
      words.forEach((text, index) => {
        cumulative += text;
        out += tokenChunk(format, model, { index, text, cumulative, reasoning: false });
      });
      const usage = (body.stream_options as Record<string, unknown> | undefined)?.include_usage === true;
      // wire-formats' chat epilogue carries usage; completions' does not, so it is added here when asked for.
      if (format === 'completions' && usage) out += `data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 1, completion_tokens: words.length } })}\n\n`;
      res.end(out + streamEpilogue(format, words.length));
    } finally {
      inFlight--;
    }
  }

  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    const format = req.method === 'POST' ? formatOfPath(path) : null;
    if (format !== null) {
      generate(format, req, res).catch((error: unknown) => json(res, 500, { error: String(error) }));
    } else if (path === '/v1/models') {
      json(res, 200, { object: 'list', data: [{ id: model, object: 'model' }] });
    } else if (path === '/get_server_info') {
      json(res, 200, options.serverInfo ?? SGLANG_SERVER_INFO);
    } else {
      json(res, 404, { error: `nothing at ${path}` });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    maxInFlight: () => maxInFlight,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
