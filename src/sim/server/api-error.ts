/**
 * Request errors the sim answers with, in the two shapes clients parse: OpenAI's
 * `{"error": {"message", "type", "param", "code"}}` and SGLang native's `{"error": {"message"}}`.
 */

export type ErrorShape = 'openai' | 'native';

/** One failed request: status, message and (OpenAI) the offending parameter. */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
    readonly param: string | null = null,
    readonly type: string = errorType(status),
    readonly code: string | number | null = status,
  ) {
    super(message);
  }
}

function errorType(status: number): string {
  if (status === 404) return 'NotFoundError';
  if (status === 413) return 'RequestTooLargeError';
  if (status === 405) return 'MethodNotAllowedError';
  if (status >= 500) return 'InternalServerError';
  return 'BadRequestError';
}

/** The JSON body of an error response in the route's shape. */
export function errorBody(error: ApiError, shape: ErrorShape): string {
  if (shape === 'native') return JSON.stringify({ error: { message: error.message } });
  return JSON.stringify({ error: { message: error.message, type: error.type, param: error.param, code: error.code } });
}

/** A required or optional field of the wrong type. */
export function wrongType(param: string, expected: string): ApiError {
  return new ApiError(400, `'${param}' must be ${expected}`, param);
}
