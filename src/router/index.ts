/** The router subsystem's front door: `servebench router`, SGLang's launch_router over HTTP. */
export { parseRouterArgs, routerParser } from './args.js';
export type { RouterConfig, WorkerSpec } from './config.js';
export { startRouter, type RouterHandle, type RouterOptions } from './server.js';
