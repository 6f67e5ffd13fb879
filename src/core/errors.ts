/**
 * servebench's one error family. Every error servebench raises on purpose extends
 * `ServebenchError` and carries a stable `code`, so callers tell errors apart by class or code,
 * never by message or `name` text.
 *
 * `UsageError` is a bad command line (exit 2, like argparse); `UserError` is bad input or a
 * failed precondition (exit 1). Messages name the problem and the fix.
 */

/** Every code an error of the family carries; one per class. */
export type ErrorCode =
  | 'E_USAGE'
  | 'E_USER'
  | 'E_HELP_REQUESTED'
  | 'E_HTTP'
  | 'E_REPR'
  | 'E_STALLED'
  | 'E_ABORTED'
  | 'E_MALFORMED_RESPONSE'
  | 'E_CONNECTION_CLOSED'
  | 'E_BAD_STATUS'
  | 'E_EMPTY_RESPONSE'
  | 'E_MALFORMED_CHUNK'
  | 'E_CSV_SYNTAX'
  | 'E_MODEL_DISCOVERY'
  | 'E_RUN_INTERRUPTED'
  | 'E_PD_TRANSFER'
  | 'E_ROUTER_REQUEST'
  | 'E_SHARD_MERGE'
  | 'E_SHARD_FAILED';

export abstract class ServebenchError extends Error {
  abstract readonly code: ErrorCode;

  constructor(message: string) {
    super(message);
    // The subclass's own name, so a stack trace or `String(error)` names the actual class.
    this.name = new.target.name;
  }
}

export class UsageError extends ServebenchError {
  readonly code = 'E_USAGE';
  readonly exitCode = 2;
}

export class UserError extends ServebenchError {
  // Widened so that a kind of user error (discovery, an interrupted run) can carry a code of its own.
  readonly code: ErrorCode = 'E_USER';
  readonly exitCode: number;
  constructor(message: string, exitCode = 1) {
    super(message);
    this.exitCode = exitCode;
  }
}

/** One line for the terminal: the message of an expected error, or the first line of anything else. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message.split('\n')[0] ?? String(error);
  return String(error);
}
