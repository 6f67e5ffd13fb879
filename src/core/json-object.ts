/** The one test for "a JSON object" (not null, not an array) that parsed input is checked with. */

/** True when `value` is a plain JSON object. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
