/**
 * The text cache_aware routes on (PR L1562-1660): `/generate`'s `text` (a request of `input_ids`
 * has none, so it goes to the least loaded worker), a completion's first prompt, a chat's whole
 * conversation. Pure.
 */

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (typeof part?.text === 'string' ? (part.text as string) : '')).join('');
}

export function routingText(route: string, body: Record<string, unknown>): string {
  if (route === '/generate') return typeof body.text === 'string' ? body.text : Array.isArray(body.text) && typeof body.text[0] === 'string' ? body.text[0] : '';
  if (route === '/v1/completions') return typeof body.prompt === 'string' ? body.prompt : Array.isArray(body.prompt) && typeof body.prompt[0] === 'string' ? body.prompt[0] : '';
  if (route === '/v1/chat/completions' && Array.isArray(body.messages)) {
    return body.messages.map((message: { content?: unknown }) => contentText(message?.content)).join('');
  }
  return '';
}
