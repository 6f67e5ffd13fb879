/**
 * The Python repr of bench_serving's argparse Namespace, printed as `benchmark_args=Namespace(...)`
 * and again after validation. Header values are redacted: they carry API keys.
 */
import { PyFloat } from '../../core/pyformat.js';
import { pyRepr, type PyValue } from '../../core/pyrepr.js';
import { BENCH_OPTIONS, type OptionSpec } from './options.js';
import type { BenchArgs } from './types.js';

/** The placeholder printed instead of a header's value. */
export const REDACTED = '<redacted>';

/** `Key=Value` → `Key=<redacted>`; an entry without `=` is hidden whole. */
export function redactHeader(entry: string): string {
  const separator = entry.indexOf('=');
  return separator < 0 ? REDACTED : `${entry.slice(0, separator)}=${REDACTED}`;
}

function reprValue(option: OptionSpec, value: unknown): string {
  if (option.dest === 'header' && Array.isArray(value)) return pyRepr(value.map((entry: string) => redactHeader(entry)));
  if (option.kind === 'float' && typeof value === 'number') return pyRepr(new PyFloat(value));
  return pyRepr(value as PyValue);
}

/** `Namespace(backend='sglang', base_url=None, …, header=None)` in option-definition order, without servebench's extensions. */
export function formatNamespace(args: BenchArgs): string {
  const fields = BENCH_OPTIONS.map((option) => `${option.dest}=${reprValue(option, args[option.dest])}`);
  return `Namespace(${fields.join(', ')})`;
}
