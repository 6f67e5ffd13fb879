/**
 * Where bench/python-client-baseline.py finds its interpreter: the first candidate that imports
 * aiohttp (the library bench_serving reads its streams with). Shared by bench/client-accuracy.ts
 * and the script's test.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The Python client the comparison rows run. */
export const PYTHON_CLIENT = fileURLToPath(new URL('./python-client-baseline.py', import.meta.url));

/** The one on PATH, then Debian's (python3-aiohttp). */
export const PYTHON_CANDIDATES = ['python3', '/usr/bin/python3'];

/** The first of `candidates` that imports aiohttp, or null. */
export function findPython(candidates: readonly string[] = PYTHON_CANDIDATES): string | null {
  for (const candidate of candidates) {
    if (spawnSync(candidate, ['-c', 'import aiohttp'], { stdio: 'ignore' }).status === 0) return candidate;
  }
  return null;
}
