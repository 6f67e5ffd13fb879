/**
 * Errors that end a command with one clear line instead of a stack trace.
 * `UsageError` is a bad command line (exit 2, like argparse); `UserError` is bad input or a
 * failed precondition (exit 1). Messages name the problem and the fix.
 */
export class UsageError extends Error {
  readonly exitCode = 2;
  override name = 'UsageError';
}

export class UserError extends Error {
  readonly exitCode: number;
  override name = 'UserError';
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
