/**
 * Reads the file `--hardware-spec` names; the pure validation is `parseHardwareSpec`.
 */
import { readFileSync } from 'node:fs';
import { UsageError, describeError } from '../../core/errors.js';
import type { HardwareProfile } from '../model/catalog.js';
import { parseHardwareSpec } from '../model/hardware-spec.js';

/** The device the JSON file at `path` describes; an unreadable file or a bad field ⇒ one-line UsageError. */
export function readHardwareSpec(path: string): HardwareProfile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? describeError(error);
    throw new UsageError(`--hardware-spec ${path}: cannot read the file (${reason}): give the path of a JSON file describing the device`);
  }
  return parseHardwareSpec(text, path);
}
