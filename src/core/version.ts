/** servebench's own version, read once from package.json (which ships beside `src` and `dist`). */
import { readFileSync } from 'node:fs';

export const TOOL_VERSION: string = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
