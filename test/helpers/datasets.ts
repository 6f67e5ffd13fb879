/** Test support for the dataset builders: real CLI parsing, captured console lines, temp files. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchRngs } from '../../src/core/rng.js';
import type { Tokenizer } from '../../src/tokenizer/types.js';
import { parseBenchArgs } from '../../src/bench/args/parse.js';
import { resolveRunConfig } from '../../src/bench/run-config.js';
import type { Dataset } from '../../src/bench/types.js';
import { buildDataset } from '../../src/bench/datasets/index.js';

/** Builds the dataset of a `servebench bench` command line; returns it with the printed lines. */
export async function buildFromArgv(
  argv: readonly string[],
  tokenizer: Tokenizer,
  rngs?: BenchRngs,
): Promise<{ dataset: Dataset; lines: string[] }> {
  const lines: string[] = [];
  const dataset = await buildDataset(resolveRunConfig(parseBenchArgs(argv)), tokenizer, (line) => lines.push(line), rngs ? { rngs } : {});
  return { dataset, lines };
}

/** A fresh temp folder and a writer of files inside it. */
export function scratchFolder(prefix: string): { dir: string; write: (name: string, content: string) => string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return {
    dir,
    write: (name, content) => {
      const path = join(dir, name);
      writeFileSync(path, content);
      return path;
    },
  };
}
