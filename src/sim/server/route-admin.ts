/**
 * SGLang's auxiliary endpoints (spec §8): server and model info, health, cache flush, profiler,
 * `/metrics`, `/v1/models`, and the sim's own `/sim/truth`.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from '../../core/http-error.js';
import type { TokenEmission } from '../types.js';
import { readBody, sendJson, sendText } from './http-io.js';
import type { SimContext } from './sim-context.js';

import { SIM_SERVER_NAME, TOOL_VERSION as VERSION } from '../../core/version.js';

function snakeCase(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** `/get_server_info` and `/server_info`: launch args in SGLang's snake_case names, scheduler state, version. */
export function serverInfo(ctx: SimContext): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(ctx.launch)) args[snakeCase(key)] = value;
  args['served_model_name'] = ctx.modelName;
  args['context_length'] = ctx.contextLength;
  const stats = ctx.driver.engine.stats();
  return {
    ...args,
    max_total_num_tokens: stats.kvCapacityTokens,
    internal_states: [
      {
        avg_spec_accept_length: stats.avgSpecAcceptLength,
        num_running_reqs: stats.numRunning,
        num_waiting_reqs: stats.numWaiting,
        token_usage: stats.kvUsage,
      },
    ],
    version: `${SIM_SERVER_NAME} ${VERSION}`,
  };
}

function modelInfo(ctx: SimContext): Record<string, unknown> {
  return {
    model_path: ctx.launch.modelPath,
    tokenizer_path: ctx.tokenizer.name,
    is_generation: true,
    preferred_sampling_params: null,
    weight_version: 'default',
    has_image_understanding: false,
    has_audio_understanding: false,
  };
}

function modelsList(ctx: SimContext): Record<string, unknown> {
  return {
    object: 'list',
    data: [{ id: ctx.modelName, object: 'model', created: 0, owned_by: 'sglang', root: ctx.launch.modelPath, max_model_len: ctx.contextLength }],
  };
}

/** `/health_generate`: one single-token generation through the engine, 200 when it finishes. */
function healthGenerate(ctx: SimContext, res: ServerResponse): void {
  const id = `health-${randomUUID()}`;
  let done = false;
  res.on('close', () => {
    if (!done) ctx.driver.abort(id);
  });
  ctx.driver.submit(
    { id, promptTokens: 1, promptTokenIds: [ctx.pool.ids[0]!], outputTokens: 1, finishReason: 'length', arrivalTime: ctx.driver.clock.now() },
    {
      deliver(emission: TokenEmission) {
        if (!emission.finished) return;
        done = true;
        sendText(res, 200, '');
      },
    },
  );
}

const FLUSH_MESSAGE =
  'Cache flushed.\nPlease check backend logs for more details. (When there are running or waiting requests, the operation will not be performed.)\n';

/** Serves one auxiliary route; returns false when `path` is not one of them. */
export async function handleAdmin(ctx: SimContext, path: string, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  switch (path) {
    case '/health':
      sendText(res, 200, '');
      return true;
    case '/health_generate':
      healthGenerate(ctx, res);
      return true;
    case '/get_server_info':
    case '/server_info':
      sendJson(res, 200, serverInfo(ctx));
      return true;
    case '/get_model_info':
    case '/model_info':
      sendJson(res, 200, modelInfo(ctx));
      return true;
    case '/v1/models':
      sendJson(res, 200, modelsList(ctx));
      return true;
    case '/flush_cache':
      await readBody(req);
      sendText(res, ctx.driver.engine.flushCache() ? 200 : 400, FLUSH_MESSAGE);
      return true;
    case '/start_profile':
      await readBody(req);
      sendText(res, 200, 'Start profiling.\n');
      return true;
    case '/stop_profile':
      await readBody(req);
      sendText(res, 200, 'Stop profiling. This will take some time.\n');
      return true;
    case '/metrics':
      if (!ctx.launch.enableMetrics) throw new HttpError(404, 'metrics are off: start the sim with --enable-metrics');
      sendText(res, 200, ctx.metrics.render(ctx.driver.engine.stats(), ctx.driver.clock.now()), 'text/plain; version=0.0.4; charset=utf-8');
      return true;
    case '/sim/truth':
      if (ctx.truth === null || !ctx.truth.keepRequests) throw new HttpError(404, 'truth records exist only in truth mode: start the sim with --truth-ttft-ms and --truth-itl-ms');
      if (req.method === 'DELETE') {
        ctx.truth.clear();
        sendText(res, 200, '');
      } else sendJson(res, 200, ctx.truth.snapshot());
      return true;
    default:
      return false;
  }
}
