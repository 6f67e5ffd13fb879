/** Construction of dataset rows with bench_serving's field defaults (spec §3). */
import type { DatasetRow, Prompt } from '../types.js';
import { numpySumText } from './lengths.js';

/** A text-only row: text_prompt_len = prompt_len, no vision tokens, no images, no extra body. */
export function textRow(prompt: Prompt, promptLen: number, outputLen: number): DatasetRow {
  return {
    prompt,
    promptLen,
    outputLen,
    textPromptLen: promptLen,
    visionPromptLen: 0,
    imageData: null,
    extraRequestBody: {},
  };
}

/** Rows carrying lengths only, prompts empty: all the performance model reads. */
export function rowsFromLengths(promptLens: readonly number[], outputLens: readonly number[]): DatasetRow[] {
  return promptLens.map((promptLen, i) => textRow('', promptLen, outputLens[i]!));
}

/** Prints the `#Input tokens` / `#Output tokens` lines most datasets print, totals as numpy prints them. */
export function printTokenTotals(print: (line: string) => void, inputLens: readonly number[], outputLens: readonly number[]): void {
  print(`#Input tokens: ${numpySumText(inputLens)}`);
  print(`#Output tokens: ${numpySumText(outputLens)}`);
}
