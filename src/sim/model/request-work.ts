/** One request's share of a step: `newTokens` processed on top of `context` tokens already cached. */
export interface RequestWork {
  newTokens: number;
  context: number;
  /** Extend (prefill) work rather than decode/verify. */
  prefill: boolean;
}
