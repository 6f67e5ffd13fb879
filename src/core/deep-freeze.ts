/** Freezing a settled value all the way down, so a module that tries to adjust it throws instead of changing it for everyone. */

/** Freezes `value`, its plain objects and arrays, recursively; returns it. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}
