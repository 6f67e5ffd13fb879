/**
 * The router's Prometheus counters and gauges under SGLang's router names (`smg_*`,
 * observability/metrics.rs), rendered in the text exposition format.
 */
import { CIRCUIT_STATE_VALUE } from './circuit-breaker.js';
import type { Worker } from './workers.js';

type Labels = Record<string, string>;

function labelText(labels: Labels): string {
  const entries = Object.entries(labels);
  return entries.length === 0 ? '' : `{${entries.map(([key, value]) => `${key}="${value.replace(/["\\\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`))}"`).join(',')}}`;
}

const HELP: Record<string, string> = {
  smg_http_requests_total: 'HTTP requests received, by method and path',
  smg_http_responses_total: 'HTTP responses sent, by status and router error code',
  smg_router_requests_total: 'requests routed to workers',
  smg_router_request_errors_total: 'routed requests that ended in an error',
  smg_worker_selection_total: 'workers chosen by the policies',
  smg_worker_retries_total: 'attempts repeated after a retryable answer',
  smg_worker_retries_exhausted_total: 'requests whose attempts all failed',
};

export class RouterMetrics {
  private readonly counters = new Map<string, Map<string, number>>();

  count(name: keyof typeof HELP & string, labels: Labels = {}): void {
    const series = this.counters.get(name) ?? new Map<string, number>();
    this.counters.set(name, series);
    const key = labelText(labels);
    series.set(key, (series.get(key) ?? 0) + 1);
  }

  /** The exposition text: the counters, then each worker's gauges at `now`. */
  render(workers: readonly Worker[], now: number): string {
    const lines: string[] = [];
    for (const [name, series] of this.counters) {
      lines.push(`# HELP ${name} ${HELP[name]}`, `# TYPE ${name} counter`);
      for (const [labels, value] of series) lines.push(`${name}${labels} ${value}`);
    }
    const gauge = (name: string, help: string, value: (worker: Worker) => number): void => {
      lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} gauge`);
      for (const worker of workers) lines.push(`${name}${labelText({ worker: worker.url })} ${value(worker)}`);
    };
    gauge('smg_worker_health', 'worker health: 1 healthy, 0 not', (worker) => (worker.active && worker.healthy ? 1 : 0));
    gauge('smg_worker_requests_active', 'requests in flight to the worker', (worker) => worker.load);
    gauge('smg_worker_cb_state', 'circuit breaker: 0 closed, 1 open, 2 half-open', (worker) => CIRCUIT_STATE_VALUE[worker.breaker.state(now)]);
    lines.push('# HELP smg_worker_pool_size workers registered, by type', '# TYPE smg_worker_pool_size gauge');
    for (const role of new Set(workers.map((worker) => worker.role))) {
      lines.push(`smg_worker_pool_size${labelText({ worker_type: role })} ${workers.filter((worker) => worker.role === role && worker.active).length}`);
    }
    return `${lines.join('\n')}\n`;
  }
}
