/**
 * A generation on a PD instance: what its job needs before it runs, and SGLang's answer when it
 * cannot. A prefill waits for its room's decode to connect, runs the prompt and answers once the KV
 * is sent; a decode waits for its room's KV (prefill done, then the modelled transfer) and then
 * decodes from the prefill's first token on.
 */
import type { ServerResponse } from 'node:http';
import { kvSendSeconds } from '../../model/kv-transfer.js';
import { EventStream, sendJson } from '../http-io.js';
import type { GenerationJob, SimContext } from '../sim-context.js';
import { bootstrapTargets, FAKE_BOOTSTRAP_HOST, type BootstrapTarget } from './bootstrap-fields.js';
import { PdFailure, prefillBootstrapTimeout } from './pd-failures.js';
import type { PdRole } from './pd-role.js';

/** A prefill instance makes the first token only (SGLang's prefill.py L304-308); its decode makes the rest. */
export function pdOutputLimit(ctx: SimContext, maxTokens: number, ignoreEos: boolean): { maxNewTokens: number; ignoreEos: boolean } {
  const pdPrefill = ctx.pd?.mode === 'prefill';
  return { maxNewTokens: pdPrefill ? 1 : maxTokens, ignoreEos: ignoreEos || pdPrefill };
}

export type PdJobFields = Pick<GenerationJob, 'kvArrivalTime' | 'settle'>;

/**
 * Waits for what the job needs from the other instance; rejects with a PdFailure (SGLang's
 * message), or with `gone`'s reason once the client left. `target` null: a request no router sent
 * (a prefill runs it alone; a decode's is refused when it runs).
 */
export async function pdJobFields(ctx: SimContext, role: PdRole, id: string, promptTokens: number, target: BootstrapTarget | null, gone: AbortSignal): Promise<PdJobFields> {
  const clock = ctx.driver.clock;
  if (target === null) return {};
  // SGLang's health probes name a fake host: the KV "arrives" at once, and no decode connects.
  if (target.host === FAKE_BOOTSTRAP_HOST) return role.mode === 'decode' ? { kvArrivalTime: clock.now() } : {};
  if (role.mode === 'decode') {
    const transferSec = await role.receiver.receive(target, id, gone);
    return { kvArrivalTime: clock.now() + transferSec };
  }
  const { rooms, send, settings } = role;
  const { room } = target;
  // The room is the prefill's while its client waits: a decode polling after it left finds it gone.
  gone.addEventListener('abort', () => rooms.release(room));
  if (!(await rooms.awaitDecode(room, settings.bootstrapTimeoutSec * 1000, gone))) {
    gone.throwIfAborted();
    rooms.release(room);
    throw prefillBootstrapTimeout(id, room, settings.bootstrapTimeoutSec);
  }
  return {
    settle: (write) => {
      rooms.prefillDone(room, { ...send, promptTokens });
      setTimeout(write, clock.wallMsUntil(clock.now() + kvSendSeconds(send, promptTokens)));
    },
  };
}

/**
 * SGLang's answer to a PD request that failed (reference §2): a streaming request gets 200 and one
 * event whose finish_reason is the abort, then `[DONE]`; any other a 500 error body.
 */
export function sendPdFailure(res: ServerResponse, failure: PdFailure, stream: boolean, id: string, promptTokens: number, elapsedSec: number): void {
  if (res.socket === null || res.socket.destroyed) return;
  if (!stream) {
    sendJson(res, 500, { object: 'error', message: failure.message, type: '500', param: null, code: 500 });
    return;
  }
  const finishReason = { type: 'abort', message: failure.message, status_code: 500, err_type: null };
  const metaInfo = { id, finish_reason: finishReason, prompt_tokens: promptTokens, weight_version: 'default', completion_tokens: 0, cached_tokens: 0, e2e_latency: elapsedSec };
  const event = JSON.stringify({ text: '', output_ids: [], meta_info: metaInfo });
  new EventStream(res).end(`data: ${event}\n\ndata: [DONE]\n\n`);
}

/**
 * On a PD instance, waits for what each job of a request needs from the other side: its bootstrap
 * targets are read from the request's body (`bodyText` keeps rooms exact). The first job that fails
 * ends the others' waits and answers for the whole request, as SGLang's batch handler gives up on
 * the first exception; false then. Elsewhere true at once.
 */
export async function awaitPd(
  ctx: SimContext,
  res: ServerResponse,
  jobs: readonly GenerationJob[],
  request: { body: Record<string, unknown>; text: string },
  stream: boolean,
): Promise<boolean> {
  const pd = ctx.pd;
  if (pd === null) return true;
  const targets = bootstrapTargets(request.body, request.text, jobs.length) ?? jobs.map(() => null);
  const gone = new AbortController();
  res.on('close', () => gone.abort(new Error('the client left')));
  const failed: { first: { failure: PdFailure; job: GenerationJob } | null } = { first: null };
  const fields = await Promise.all(
    jobs.map((job, i) =>
      pdJobFields(ctx, pd, job.id, job.promptIds.length, targets[i]!, gone.signal).catch((error: unknown): PdJobFields => {
        if (failed.first !== null) return {};
        if (!(error instanceof PdFailure)) throw error;
        failed.first = { failure: error, job };
        gone.abort(error);
        return {};
      }),
    ),
  );
  if (failed.first !== null) {
    const { failure, job } = failed.first;
    sendPdFailure(res, failure, stream, job.id, job.promptIds.length, ctx.driver.clock.now() - job.arrival);
    return false;
  }
  jobs.forEach((job, i) => Object.assign(job, fields[i]));
  return true;
}
