/** `--extra-request-body`: the JSON object merged into every request payload (spec §2, Q25). */
import { UsageError } from '../../core/errors.js';

/** The parsed object, `{}` when the option is absent; anything but a JSON object is a UsageError. */
export function parseExtraBody(text: string | null): Record<string, unknown> {
  if (text === null) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--extra-request-body is not valid JSON (${(error as Error).message}); pass an object like '{"top_p": 0.9}'`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UsageError(`--extra-request-body must be a JSON object like '{"top_p": 0.9}', got ${text}`);
  }
  return value as Record<string, unknown>;
}
