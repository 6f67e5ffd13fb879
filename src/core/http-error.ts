/**
 * The one refusal type of servebench's HTTP servers (the sim and the dashboard): a status and a
 * line saying why. Each server writes it in its own body shape; the optional fields are those of
 * OpenAI's error object, which the sim's OpenAI routes answer with.
 */
import { ServebenchError } from './errors.js';

export interface OpenAiErrorFields {
  /** The request field at fault. */
  param?: string;
  /** OpenAI's error type; by default the one the status implies. */
  type?: string;
  /** OpenAI's error code (`model_not_found`); by default the status. */
  apiCode?: string;
}

export class HttpError extends ServebenchError {
  readonly code = 'E_HTTP';
  constructor(
    readonly status: number,
    message: string,
    readonly openAi: OpenAiErrorFields = {},
  ) {
    super(message);
  }
}
