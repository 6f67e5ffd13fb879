/**
 * Starts a worker thread on a module next to the caller: the compiled `<name>.js`, or under tsx
 * (tests, bench scripts) the TypeScript `<name>.ts`. Node 20 does not apply `--import tsx` to a
 * worker's entry, so under tsx a one-line script registers tsx in the worker first and then
 * imports the source.
 */
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** `callerUrl` is the caller's `import.meta.url`; `entryName` the worker module's name without extension. */
export function startModuleWorker(callerUrl: string, entryName: string, options: WorkerOptions): Worker {
  if (!callerUrl.endsWith('.ts')) return new Worker(new URL(`./${entryName}.js`, callerUrl), options);
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const source = JSON.stringify(new URL(`./${entryName}.ts`, callerUrl).href);
  return new Worker(`import(${tsx}).then((api) => { api.register(); return import(${source}); });`, { ...options, eval: true });
}
