/**
 * Ctrl-C during the measured phase: the first SIGINT stops new sends and gives in-flight requests a
 * grace period before aborting them, so the block for what completed is still printed and saved;
 * a second SIGINT exits at once.
 */

export const INTERRUPT_EXIT_CODE = 130;

export interface InterruptHandlers {
  /** First Ctrl-C. */
  onInterrupt(): void;
  /** Second Ctrl-C: the process should end now. */
  onForce(): void;
}

/** Listens for SIGINT until `dispose()`; `requested` tells whether the run was interrupted. */
export class InterruptWatch {
  private count = 0;
  private readonly listener = (): void => {
    this.count++;
    if (this.count === 1) this.handlers.onInterrupt();
    else this.handlers.onForce();
  };

  constructor(private readonly handlers: InterruptHandlers) {
    process.on('SIGINT', this.listener);
  }

  get requested(): boolean {
    return this.count > 0;
  }

  dispose(): void {
    process.off('SIGINT', this.listener);
  }
}
