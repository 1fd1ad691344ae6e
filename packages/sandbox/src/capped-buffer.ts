/** A sink that keeps the first `cap` bytes and only counts the rest, so a flood cannot fill memory. */
export class CappedBuffer {
  private chunks: Buffer[] = [];
  private size = 0;
  truncated = false;

  constructor(private cap: number) {}

  /** A new cap for what comes next (a waiting container's, once its batch and so its bound is known). */
  setCap(cap: number): void {
    this.cap = cap;
  }

  push(chunk: Buffer): void {
    if (this.size >= this.cap) {
      this.truncated = true;
      return;
    }
    const room = this.cap - this.size;
    if (chunk.length > room) {
      this.truncated = true;
      chunk = chunk.subarray(0, room);
    }
    this.chunks.push(chunk);
    this.size += chunk.length;
  }

  toBuffer(): Buffer {
    return Buffer.concat(this.chunks);
  }
}
