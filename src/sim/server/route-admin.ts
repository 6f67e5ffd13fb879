/**
 * SGLang's auxiliary endpoints (spec §8): server and model info, health, cache flush, profiler,
 * `/metrics`, `/v1/models`, and the sim's own `/sim/truth`.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from '../../core/http-error.js';
import { SERVEBENCH_INFO_KEY } from '../../deployment/index.js';
import type { TokenEmission } from '../types.js';
import { OPTIONS_BODY_LIMIT } from './body-limit.js';
import { readBody, sendEmpty, sendJson, sendText } from './http-io.js';
import { resolvedServerArgs } from './server-args.js';
import { servebenchInfo } from './servebench-info.js';
import type { SimContext } from './sim-context.js';

import { SIM_SERVER_NAME, TOOL_VERSION as VERSION } from '../../core/version.js';

/**
 * `/get_server_info` and `/server_info`: launch args as SGLang resolves them, scheduler state,
 * version, and under `servebench` what the sim simulates, which SGLang's body has no field for.
 */
export function serverInfo(ctx: SimContext): Record<string, unknown> {
  const args = resolvedServerArgs(ctx.launch, ctx.deployment);
  args['served_model_name'] = ctx.modelName;
  args['context_length'] = ctx.contextLength;
  const stats = ctx.driver.engine.stats();
  return {
    ...args,
    max_total_num_tokens: stats.kvCapacityTokens,
    // One state per DP rank, as SGLang's data-parallel controller gathers them (a PD router counts them).
    internal_states: stats.dpRanks.map((rank) => ({
      avg_spec_accept_length: stats.avgSpecAcceptLength,
      num_running_reqs: rank.numRunning,
      num_waiting_reqs: rank.numWaiting,
      token_usage: rank.kvUsage,
    })),
    version: `${SIM_SERVER_NAME} ${VERSION}`,
    [SERVEBENCH_INFO_KEY]: servebenchInfo(ctx.launch, ctx.deployment),
  };
}

/**
 * `/sim/stats`: the engine's own record since it started (engine time), against which a client's
 * reading of `/metrics` and the responses' meta_info is checked: prompt and prefix-cache tokens from
 * its radix cache, queueing time from its scheduler, the requests finished. Not an SGLang route.
 */
function simStats(ctx: SimContext): Record<string, unknown> {
  const stats = ctx.driver.engine.stats();
  return {
    prompt_tokens: stats.promptTokensTotal,
    cached_tokens: stats.cachedTokensTotal,
    generation_tokens: stats.generationTokensTotal,
    requests_finished: stats.requestsFinished,
    queue_time_sum_s: stats.queueTimeSum,
    queued_requests: stats.queuedRequests,
    time_scale: ctx.driver.clock.timeScale,
  };
}

function modelInfo(ctx: SimContext): Record<string, unknown> {
  return {
    model_path: ctx.launch.modelPath,
    tokenizer_path: ctx.tokenizer.name,
    is_generation: true,
    preferred_sampling_params: null,
    weight_version: 'default',
    has_image_understanding: ctx.vision !== null,
    has_audio_understanding: false,
  };
}

/** SGLang's ModelCard of the served model (`/v1/models` lists it, `/v1/models/{name}` retrieves it). */
function modelCard(ctx: SimContext): Record<string, unknown> {
  return {
    id: ctx.modelName,
    object: 'model',
    created: Math.floor(Date.now() / 1000),
    owned_by: 'sglang',
    root: ctx.modelName,
    parent: null,
    max_model_len: ctx.contextLength,
  };
}

const MODELS_PATH = '/v1/models/';

/** `GET /v1/models/{name}`: the card of the served model; any other name is SGLang's 404. */
function retrieveModel(ctx: SimContext, name: string): Record<string, unknown> {
  if (name !== ctx.modelName) {
    throw new HttpError(404, `The model '${name}' does not exist`, { type: 'invalid_request_error', param: 'model', apiCode: 'model_not_found' });
  }
  return modelCard(ctx);
}

/** SGLang looks for a sign of life once a second (`HEALTH_CHECK_TIMEOUT`: 20 s) before it answers a health check. */
const HEALTH_POLL_MS = 1000;
const HEALTH_TIMEOUT_MS = 20_000;

/**
 * `/health_generate` as SGLang answers it: an idle server runs a one-token generation of token id 0
 * through the engine (a busy one skips it: its running batch proves it alive), and the answer, an
 * empty 200, comes at the first one-second poll after the engine has answered; 503 after 20 s.
 */
function healthGenerate(ctx: SimContext, res: ServerResponse): void {
  let answered = ctx.driver.activeRequests > 0;
  const id = `HEALTH_CHECK_${randomUUID()}`;
  if (!answered) {
    ctx.driver.submit(
      { id, promptTokens: 1, promptTokenIds: [0], outputTokens: 1, finishReason: 'length', arrivalTime: ctx.driver.clock.now() },
      { deliver: (emission: TokenEmission) => void (answered ||= emission.finished) },
    );
  }
  let waitedMs = 0;
  const poll = setInterval(() => {
    waitedMs += HEALTH_POLL_MS;
    if (!answered && waitedMs < HEALTH_TIMEOUT_MS) return;
    clearInterval(poll);
    ctx.driver.abort(id);
    sendEmpty(res, answered ? 200 : 503);
  }, HEALTH_POLL_MS);
  res.on('close', () => {
    clearInterval(poll);
    ctx.driver.abort(id);
  });
}

const FLUSH_MESSAGE =
  'Cache flushed.\nPlease check backend logs for more details. (When there are running or waiting requests, the operation will not be performed.)\n';

/** Serves one auxiliary route; returns false when `path` is not one of them. */
export async function handleAdmin(ctx: SimContext, path: string, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  switch (path) {
    case '/health':
      sendEmpty(res, 200);
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
      sendJson(res, 200, { object: 'list', data: [modelCard(ctx)] });
      return true;
    case '/flush_cache':
      await readBody(req, OPTIONS_BODY_LIMIT);
      sendText(res, ctx.driver.engine.flushCache() ? 200 : 400, FLUSH_MESSAGE);
      return true;
    case '/start_profile':
      await readBody(req, OPTIONS_BODY_LIMIT);
      sendText(res, 200, 'Start profiling.\n');
      return true;
    case '/stop_profile':
      await readBody(req, OPTIONS_BODY_LIMIT);
      sendText(res, 200, 'Stop profiling. This will take some time.\n');
      return true;
    case '/metrics':
      if (!ctx.launch.enableMetrics) throw new HttpError(404, 'metrics are off: start the sim with --enable-metrics');
      sendText(res, 200, ctx.metrics.render(ctx.driver.engine.stats(), ctx.driver.clock.now()), 'text/plain; version=0.0.4; charset=utf-8');
      return true;
    case '/sim/stats':
      sendJson(res, 200, simStats(ctx));
      return true;
    case '/sim/truth':
      if (ctx.truth === null || !ctx.truth.keepRequests) throw new HttpError(404, 'truth records exist only in truth mode: start the sim with --truth-ttft-ms and --truth-itl-ms');
      if (req.method === 'DELETE') {
        ctx.truth.clear();
        sendText(res, 200, '');
      } else sendJson(res, 200, ctx.truth.snapshot());
      return true;
    default:
      if (req.method !== 'GET' || !path.startsWith(MODELS_PATH)) return false;
      sendJson(res, 200, retrieveModel(ctx, decodeURIComponent(path.slice(MODELS_PATH.length))));
      return true;
  }
}
