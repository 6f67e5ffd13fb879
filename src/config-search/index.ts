/** The config-search subsystem's front door: what other subsystems may import from it. */
export { runConfigSearch } from './run-config-search.js';
