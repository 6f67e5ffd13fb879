/**
 * Splits a byte stream into `\n`-terminated lines with native `Buffer.indexOf`, decoding only whole
 * lines (so a multi-byte character split across chunks decodes correctly). No per-byte JS loop.
 */

const NEWLINE = 10;

export class LineSplitter {
  /** Bytes of an unfinished line, in arrival order. */
  private pending: Buffer[] = [];

  /** Emits every line completed by `bytes[start, end)` (without its `\n`). */
  push(bytes: Buffer, start: number, end: number, onLine: (line: string) => void): void {
    let newline = bytes.indexOf(NEWLINE, start);
    while (newline !== -1 && newline < end) {
      if (this.pending.length > 0) {
        this.pending.push(bytes.subarray(start, newline));
        onLine(Buffer.concat(this.pending).toString('utf8'));
        this.pending = [];
      } else {
        onLine(bytes.toString('utf8', start, newline));
      }
      start = newline + 1;
      newline = bytes.indexOf(NEWLINE, start);
    }
    // Copy the tail: the transport reuses its read buffer after the callback returns.
    if (start < end) this.pending.push(Buffer.from(bytes.subarray(start, end)));
  }

  /** Emits the last line when the stream ended without a trailing newline. */
  flush(onLine: (line: string) => void): void {
    if (this.pending.length === 0) return;
    const rest = Buffer.concat(this.pending).toString('utf8');
    this.pending = [];
    onLine(rest);
  }
}
