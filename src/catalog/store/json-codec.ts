/**
 * JSON for catalog columns that keeps what plain JSON loses: bench_serving metrics are often
 * `Infinity` (request rate) or `NaN`, which `JSON.stringify` would turn into null.
 */
import { isObject } from '../../core/json-object.js';

const NON_FINITE_TAG = '$nonFinite';

/** Serialises a value; non-finite numbers become `{"$nonFinite": "Infinity"}` so they read back unchanged. */
export function encodeJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'number' && !Number.isFinite(v) ? { [NON_FINITE_TAG]: String(v) } : v,
  );
}

/** Reverses `encodeJson`. */
export function decodeJson<T>(text: string): T {
  return JSON.parse(text, (_key, v: unknown) => {
    if (isObject(v)) {
      const tagged = v[NON_FINITE_TAG];
      if (typeof tagged === 'string' && Object.keys(v).length === 1) return Number(tagged);
    }
    return v;
  }) as T;
}
