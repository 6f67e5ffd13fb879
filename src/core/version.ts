/** servebench's own version, read once from package.json (which ships beside `src` and `dist`). */
import { readFileSync } from 'node:fs';

export const TOOL_VERSION: string = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/**
 * What the simulated server reports as its `version` in `/get_server_info`: how a client (eval)
 * tells the sim, whose answers are synthetic text, from a real engine.
 */
export const SIM_SERVER_NAME = 'servebench-sim';

/** Whether a server's reported `version` is the sim's. */
export function isSimServerVersion(version: unknown): boolean {
  return typeof version === 'string' && version.startsWith(SIM_SERVER_NAME);
}
