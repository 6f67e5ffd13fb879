/**
 * Chat messages whose content is a list of parts (OpenAI's `[{type: 'text', ...}, {type:
 * 'image_url', ...}]`), turned into the string contents chat templates render, as SGLang's
 * serving_chat does before it applies the template:
 * - a text-only model's template takes strings: its text parts are joined with spaces and its
 *   images dropped (SGLang's "string" content format; the model never sees them);
 * - a Qwen vision-language model's template renders each part in order, an image as its
 *   placeholder, which the image's tokens later replace (image-input.ts).
 */
import { HttpError } from '../../core/http-error.js';
import type { TemplateMessage } from '../../tokenizer/index.js';
import { IMAGE_PLACEHOLDER } from './image-input.js';

export interface TemplateInput {
  /** The messages with string contents. */
  messages: TemplateMessage[];
  /** The images of a vision-language model's request, in order (data URIs); empty for a text-only model. */
  images: string[];
}

type Part = Record<string, unknown>;

/** The URL of an `image_url` part (`{url}` or, as some clients send it, the URL itself). */
function imageUrl(part: Part, where: string): string {
  const value = part['image_url'];
  const url = typeof value === 'string' ? value : (value as Part | null)?.['url'];
  if (typeof url !== 'string') throw new HttpError(400, `'${where}.image_url.url' must be a string`, { param: 'messages' });
  return url;
}

/** One message's content as a string; a vision model's images are appended to `images`. */
function contentText(content: unknown, vision: boolean, images: string[], where: string): string {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  const parts = content as unknown[];
  const texts: string[] = [];
  parts.forEach((raw, j) => {
    const part = raw as Part;
    const type = part?.['type'];
    if (type === 'text') texts.push(String(part['text'] ?? ''));
    else if (type === 'image_url' && vision) {
      images.push(imageUrl(part, `${where}[${j}]`));
      texts.push(IMAGE_PLACEHOLDER);
    } else if (vision) {
      throw new HttpError(400, `'${where}[${j}].type' ${JSON.stringify(type)} is not supported by the sim: send text and image_url parts`, { param: 'messages' });
    }
  });
  return texts.join(vision ? '' : ' ');
}

/** The messages as a chat template renders them for a vision (`vision`) or text-only model. */
export function templateInput(messages: readonly TemplateMessage[], vision: boolean): TemplateInput {
  const images: string[] = [];
  const flattened = messages.map((message, i) => ({ ...message, content: contentText(message.content, vision, images, `messages[${i}].content`) }));
  return { messages: flattened, images };
}
