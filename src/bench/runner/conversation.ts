/**
 * Multi-turn conversations (spec §2.8): each turn sends the whole history as chat messages and
 * appends the answer (empty when the turn failed) before the next turn.
 */
import type { ChatMessage, RequestInput, RequestOutput } from '../types.js';

/** True when rows are conversations: the first prompt is a non-empty list whose first item is a string. */
export function isMultiTurnPrompt(prompt: unknown): prompt is string[] {
  return Array.isArray(prompt) && prompt.length > 0 && typeof prompt[0] === 'string';
}

/** Runs the turns of `input.prompt` (a list of user turns) in order; one output per turn. */
export async function runConversation(
  send: (input: RequestInput) => Promise<RequestOutput>,
  input: RequestInput,
  turns: readonly string[],
): Promise<RequestOutput[]> {
  const history: ChatMessage[] = [];
  const outputs: RequestOutput[] = [];
  for (const turn of turns) {
    history.push({ role: 'user', content: turn });
    const output = await send({ ...input, prompt: history.slice() });
    outputs.push(output);
    history.push({ role: 'assistant', content: output.generatedText });
  }
  return outputs;
}
