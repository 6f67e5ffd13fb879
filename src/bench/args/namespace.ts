/**
 * The Python repr of bench_serving's argparse Namespace, printed as `benchmark_args=Namespace(...)`
 * and again after validation. Secrets are redacted (header values, URL credentials): the line
 * lands in terminals, logs and CI output.
 */
import { PyFloat } from '../../core/pyformat.js';
import { pyRepr, type PyValue } from '../../core/pyrepr.js';
import { redactHeader, redactSetting } from '../../core/redact.js';
import type { BenchArgs } from './types.js';
import { BENCH_OPTIONS, type OptionSpec } from './options.js';

function reprValue(option: OptionSpec, value: unknown): string {
  if (option.dest === 'header' && Array.isArray(value)) return pyRepr(value.map((entry: string) => redactHeader(entry)));
  if (option.kind === 'float' && typeof value === 'number') return pyRepr(new PyFloat(value));
  return pyRepr(redactSetting(option.dest, value) as PyValue);
}

/** `Namespace(backend='sglang', base_url=None, …, header=None)` in option-definition order, without servebench's extensions. */
export function formatNamespace(args: BenchArgs): string {
  const fields = BENCH_OPTIONS.map((option) => `${option.dest}=${reprValue(option, args[option.dest])}`);
  return `Namespace(${fields.join(', ')})`;
}
