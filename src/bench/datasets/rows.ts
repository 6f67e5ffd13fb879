/** Construction of dataset rows with bench_serving's field defaults (spec §3). */
import type { DatasetRow, Prompt } from '../types.js';

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

/** The `#Input tokens` / `#Output tokens` lines most datasets print. */
export function tokenTotalsLines(inputTotal: string, outputTotal: string): string[] {
  return [`#Input tokens: ${inputTotal}`, `#Output tokens: ${outputTotal}`];
}
