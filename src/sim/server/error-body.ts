/**
 * The sim's refusals as the two body shapes clients parse: OpenAI's
 * `{"error": {"message", "type", "param", "code"}}` and SGLang native's `{"error": {"message"}}`.
 */
import { HttpError } from '../../core/http-error.js';

export type ErrorShape = 'openai' | 'native';

function errorType(status: number): string {
  if (status === 404) return 'NotFoundError';
  if (status === 413) return 'RequestTooLargeError';
  if (status === 405) return 'MethodNotAllowedError';
  if (status >= 500) return 'InternalServerError';
  return 'BadRequestError';
}

/** The JSON body of an error response in the route's shape. */
export function errorBody(error: HttpError, shape: ErrorShape): string {
  if (shape === 'native') return JSON.stringify({ error: { message: error.message } });
  const { param = null, type = errorType(error.status), apiCode = error.status } = error.openAi;
  return JSON.stringify({ error: { message: error.message, type, param, code: apiCode } });
}

/** A required or optional field of the wrong type. */
export function wrongType(param: string, expected: string): HttpError {
  return new HttpError(400, `'${param}' must be ${expected}`, { param });
}
