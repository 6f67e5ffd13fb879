/**
 * The cli subsystem's front door: what other subsystems may import from it. The commands wire the
 * subsystems; two readers of command lines outside them use the bench flags' table and parser:
 * catalog/ingest (bench_serving commands in logs) and sim/calibration (a published case's flags).
 */
export { BENCH_OPTIONS } from './bench-args/options.js';
export { parseEmbeddedBenchArgs } from './bench-args/parse.js';
