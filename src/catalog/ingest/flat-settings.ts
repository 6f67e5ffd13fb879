/**
 * A tool's nested configuration (`input_config`, GuideLLM's `args`) as flat `a.b.c` settings, so
 * `show` lists each setting on a line of its own. Values stay as the file states them.
 */
import { isObject } from '../../core/json-object.js';

/** `{endpoint: {model_names: ['m']}}` → `{'endpoint.model_names': ['m']}`; empty objects and nulls are left out. */
export function flattenSettings(value: Readonly<Record<string, unknown>>, prefix = ''): Record<string, unknown> {
  const flat: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (isObject(v)) Object.assign(flat, flattenSettings(v, name));
    else if (v !== null && v !== undefined) flat[name] = v;
  }
  return flat;
}

/** The first of `paths` (dotted) that holds a non-empty string, or the first string of an array there. */
export function firstString(settings: Readonly<Record<string, unknown>>, paths: readonly string[]): string | null {
  for (const path of paths) {
    const value = settings[path];
    const text = Array.isArray(value) ? value.find((v) => typeof v === 'string') : value;
    if (typeof text === 'string' && text !== '') return text;
  }
  return null;
}

/** The first of `paths` (dotted) that holds a finite number. */
export function firstNumber(settings: Readonly<Record<string, unknown>>, paths: readonly string[]): number | null {
  for (const path of paths) {
    const value = settings[path];
    if (typeof value === 'number' && Number.isFinite(value)) return value;
  }
  return null;
}
