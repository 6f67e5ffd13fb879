/**
 * Collects a response body as text, copying each slice (the transport reuses its read buffer).
 * A limit keeps only the first bytes of a large body (error bodies quoted in messages).
 */
export class BodyBuffer {
  private readonly parts: Buffer[] = [];
  private bytes = 0;

  constructor(private readonly limit = Infinity) {}

  push(bytes: Buffer, start: number, end: number): void {
    const room = this.limit - this.bytes;
    if (room <= 0) return;
    const stop = Math.min(end, start + room);
    this.parts.push(Buffer.from(bytes.subarray(start, stop)));
    this.bytes += stop - start;
  }

  text(): string {
    return Buffer.concat(this.parts).toString('utf8');
  }
}
