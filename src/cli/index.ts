/** The cli subsystem's front door: what other subsystems may import from it. */
export { helpWithDefault } from './command-parser.js';
