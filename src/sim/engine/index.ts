/** The simulated SGLang engine (performance model + scheduler) behind `servebench sim` and `predict`. */
export { createDisaggregatedEngine, createEngine, type EngineOptions, type SimEngine } from './engine.js';
