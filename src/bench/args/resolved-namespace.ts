/**
 * The argparse Namespace as bench_serving shows it once start-up has settled its values (the chat
 * template image datasets force, the port, the discovered model, the address of a started sim) and
 * as a sweep point runs it (its load). It is what the second `Namespace(...)` line prints and what
 * the catalog stores as a run's arguments. Built from the namespace as parsed and the resolved
 * config (which holds the namespace as parsed), so resolution never writes into the parsed namespace.
 */
import type { BenchRunConfig } from '../run-config.js';
import type { BenchTarget } from '../target.js';
import type { BenchArgs } from './types.js';

/** The parsed namespace with the values `config` (and, for a live run, `target`) settled. */
export function resolvedNamespace(config: BenchRunConfig, target: BenchTarget | null = null): BenchArgs {
  const settled: BenchArgs = {
    ...config.namespace,
    model: config.model,
    apply_chat_template: config.dataset.applyChatTemplate,
    num_prompts: config.dataset.numPrompts,
    request_rate: config.load.requestRate,
    max_concurrency: config.load.maxConcurrency,
  };
  if (target === null) return settled;
  return { ...settled, base_url: target.baseUrl, host: target.host, port: target.port, model: target.model };
}
