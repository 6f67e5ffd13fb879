/**
 * Splits a byte stream into `\n`-terminated lines with native `Buffer.indexOf`, decoding only whole
 * lines (so a multi-byte character split across chunks decodes correctly). No per-byte JS loop.
 */

const NEWLINE = 10;

export class LineSplitter {
  /** Bytes of an unfinished line, in arrival order. */
  private pending: Buffer[] = [];

  /** Emits every line completed by `chunk` (without its `\n`). */
  push(chunk: Buffer, onLine: (line: string) => void): void {
    let start = 0;
    let newline = chunk.indexOf(NEWLINE);
    while (newline !== -1) {
      if (this.pending.length > 0) {
        this.pending.push(chunk.subarray(start, newline));
        onLine(Buffer.concat(this.pending).toString('utf8'));
        this.pending = [];
      } else {
        onLine(chunk.toString('utf8', start, newline));
      }
      start = newline + 1;
      newline = chunk.indexOf(NEWLINE, start);
    }
    // Copy the tail: the transport may reuse the chunk's memory after the callback returns.
    if (start < chunk.length) this.pending.push(Buffer.from(chunk.subarray(start)));
  }

  /** Emits the last line when the stream ended without a trailing newline. */
  flush(onLine: (line: string) => void): void {
    if (this.pending.length === 0) return;
    const rest = Buffer.concat(this.pending).toString('utf8');
    this.pending = [];
    onLine(rest);
  }
}
