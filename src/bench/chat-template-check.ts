/** bench_serving's start-up step 10: the model's own tokenizer decides the chat-template notice. */
import { loadTokenizer, type Tokenizer } from '../tokenizer/index.js';

/** Prints the notice unless the model's tokenizer has a chat template; returns that tokenizer (null when it did not load, which is only reported). */
export async function checkChatTemplate(model: string, print: (line: string) => void): Promise<Tokenizer | null> {
  let tokenizer: Tokenizer | null = null;
  try {
    tokenizer = await loadTokenizer({ model });
  } catch (error) {
    print(`Fail to load tokenizer config with error=${(error as Error).message}`);
  }
  if (tokenizer === null || !tokenizer.hasChatTemplate) {
    print('');
    print('WARNING It is recommended to use the `Chat` or `Instruct` model for benchmarking.');
    print('Because when the tokenizer counts the output tokens, if there is gibberish, it might count incorrectly.');
    print('');
  }
  return tokenizer;
}
