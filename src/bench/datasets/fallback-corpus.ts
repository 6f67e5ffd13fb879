/**
 * Offline stand-in for ShareGPT's first turns, used by the `random` dataset when no
 * `--dataset-path` is given (bench_serving downloads ShareGPT from the HF Hub, impossible here).
 *
 * The corpus is fixed: 1000 English-like passages of 1–24 sentences (4–20 words each) drawn
 * from {@link ENGLISH_WORDS} with a private Python `random.Random(CORPUS_SEED)`, so it is the same
 * on every machine and does not touch the run's streams. Like ShareGPT, the run's Python stream
 * then shuffles it, and the walk cycles through it when a run wants more than 1000 rows.
 * Token lengths are exact either way (texts are cut or repeated to the sampled
 * length); only the wording and the Python stream position after the shuffle differ from a run
 * on the real ShareGPT file.
 */
import { PythonRandom } from '../../core/rng.js';
import { ENGLISH_WORDS } from './english-words.js';

const CORPUS_SEED = 20240;
const PASSAGES = 1000;

let corpus: readonly string[] | null = null;

function sentence(rng: PythonRandom): string {
  const count = 4 + rng.randbelow(17);
  const words: string[] = [];
  for (let i = 0; i < count; i++) {
    // Squaring the uniform favours the frequent words at the head of the list.
    const u = rng.random();
    words.push(ENGLISH_WORDS[Math.floor(u * u * ENGLISH_WORDS.length)]!);
    if (i > 2 && i < count - 2 && rng.random() < 0.08) words[words.length - 1] += ',';
  }
  const first = words[0]!;
  words[0] = first.charAt(0).toUpperCase() + first.slice(1);
  return `${words.join(' ')}${rng.random() < 0.1 ? '?' : '.'}`;
}

/** A fresh copy of the fallback passages, in corpus order. */
export function fallbackPromptTexts(): string[] {
  if (corpus === null) {
    const rng = new PythonRandom(CORPUS_SEED);
    const passages: string[] = [];
    for (let p = 0; p < PASSAGES; p++) {
      const sentences = 1 + rng.randbelow(24);
      const parts: string[] = [];
      for (let s = 0; s < sentences; s++) parts.push(sentence(rng));
      passages.push(parts.join(' '));
    }
    corpus = passages;
  }
  return corpus.slice();
}
