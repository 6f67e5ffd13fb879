/** What every dataset builder receives. */
import type { BenchRngs } from '../../core/rng.js';
import type { Tokenizer } from '../../tokenizer/index.js';
import type { BackendName } from '../args/types.js';
import type { DatasetOptions } from '../run-config.js';

export interface DatasetContext {
  options: DatasetOptions;
  /** Chat backends take image and mooncake prompts as messages. */
  backend: BackendName;
  tokenizer: Tokenizer;
  /** The run's numpy and Python streams, consumed in bench_serving's order. */
  rngs: BenchRngs;
  /** Receives the console lines bench_serving prints while building (one line per call). */
  print: (line: string) => void;
  /**
   * The rows feed a prediction, which reads lengths and image-token counts only: a builder skips
   * what only a server reads (drawing and encoding image pixels, minutes for a thousand 1080p images).
   */
  forPrediction: boolean;
}

/** How many texts to tokenize per native batch: large enough to use every core, small enough to stop early. */
export const ENCODE_BATCH = 256;
