/**
 * `--profile` (spec §4.4): start/stop the server's torch profiler, or every listed worker's in
 * PD-separated mode, printing the reference's lines.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { UserError } from '../../core/errors.js';
import { pyFloat } from '../../core/pyformat.js';
import { pyRepr, pyStrRepr, type PyValue } from '../../core/pyrepr.js';
import { redactText } from '../../core/redact.js';
import type { ProfileOptions } from '../run-config.js';
import { postForStatus } from '../transport/auxiliary.js';
import type { HttpPool } from '../transport/http-pool.js';

export interface ProfilerContext {
  profile: ProfileOptions;
  baseUrl: string;
  pool: HttpPool;
  env: NodeJS.ProcessEnv;
  /** `--header` entries: bench_serving's profile calls carry no auth, but the user's headers go on every request. */
  headers: Record<string, string>;
  print: (line: string) => void;
}

/** The start_profile body; creates its output directory on this machine, as the reference does. */
export function startProfileBody(profile: ProfileOptions, env: NodeJS.ProcessEnv, unixSeconds: number): Record<string, PyValue> {
  const numSteps = profile.byStage && profile.numSteps === null ? 5 : profile.numSteps;
  const baseDir = profile.outputDir ?? env.SGLANG_TORCH_PROFILER_DIR ?? '/tmp';
  const outputDir = join(resolve(baseDir), pyRepr(pyFloat(unixSeconds)));
  try {
    mkdirSync(outputDir, { recursive: true });
  } catch (error) {
    throw new UserError(`cannot create the profile directory ${outputDir} (${(error as Error).message}); pass a writable --profile-output-dir`);
  }
  return {
    activities: [...profile.activities],
    num_steps: numSteps,
    profile_by_stage: profile.byStage,
    profile_stages: profile.stages && [...profile.stages],
    output_dir: outputDir,
    profile_prefix: profile.prefix,
  };
}

async function profileRequest(context: ProfilerContext, url: string) {
  const body = url.endsWith('/start_profile')
    ? startProfileBody(context.profile, context.env, (performance.timeOrigin + performance.now()) / 1000)
    : {};
  context.print(`async_request_profile api_url=${pyStrRepr(redactText(url))} body=${pyRepr(body)}`);
  return postForStatus(context.pool, url, context.headers, body);
}

/** ("Prefill-i", url) for each prefill URL, then ("Decode-i", url) for each decode URL. */
export function pdProfileTargets(profile: ProfileOptions): Array<[string, string]> {
  const targets: Array<[string, string]> = [];
  (profile.prefillUrls ?? []).forEach((url, i) => targets.push([`Prefill-${i}`, url]));
  (profile.decodeUrls ?? []).forEach((url, i) => targets.push([`Decode-${i}`, url]));
  return targets;
}

async function callPdWorkers(context: ProfilerContext, targets: Array<[string, string]>, mode: 'start' | 'stop') {
  context.print(mode === 'start' ? 'Starting profiler...' : 'Stopping profiler...');
  const past = mode === 'start' ? 'started' : 'stopped';
  for (const [worker, url] of targets) {
    const outcome = await profileRequest(context, `${url}/${mode}_profile`);
    const shownUrl = redactText(url);
    context.print(
      outcome.ok
        ? `Profiler ${past} for ${worker} worker at ${shownUrl}`
        : `Failed to ${mode} profiler for ${worker} worker at ${shownUrl}: ${outcome.error}`,
    );
  }
}

/** Starts profiling (no-op without `--profile`). */
export async function startProfiler(context: ProfilerContext): Promise<void> {
  const { profile } = context;
  if (!profile.enabled) return;
  if (profile.pdSeparated) {
    const targets = pdProfileTargets(profile);
    if (targets.length === 0) {
      context.print('Warning: PD separated mode requires --profile-prefill-url or --profile-decode-url');
      context.print('Skipping profiler start. Please specify worker URLs for profiling.');
      return;
    }
    await callPdWorkers(context, targets, 'start');
    return;
  }
  context.print('Starting profiler...');
  const outcome = await profileRequest(context, `${context.baseUrl}/start_profile`);
  if (outcome.ok) context.print('Profiler started');
}

/** Stops profiling; without PD it is skipped when `--profile-num-steps` bounds the profile. */
export async function stopProfiler(context: ProfilerContext): Promise<void> {
  const { profile } = context;
  if (!profile.enabled) return;
  if (profile.pdSeparated) {
    const targets = pdProfileTargets(profile);
    if (targets.length > 0) await callPdWorkers(context, targets, 'stop');
    return;
  }
  if (profile.numSteps !== null) return;
  context.print('Stopping profiler...');
  const outcome = await profileRequest(context, `${context.baseUrl}/stop_profile`);
  if (outcome.ok) context.print('Profiler stopped');
}
