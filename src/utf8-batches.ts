/**
 * Text written out in UTF-8 batches: what the atomic file writer (fsx.ts)
 * and the CLI's stdout writer share, so that output far larger than one
 * string streams out without being gathered as one.
 */

/**
 * Strings encoded as UTF-8 into megabyte buffers as they come, each full
 * one handed to `out`: the same bytes as their concatenation encoded (a
 * surrogate pair split between two strings is kept whole), without
 * gathering them as a string. A megabyte of small strings held until it
 * is written outlives young-generation collections and is promoted:
 * garbage that stays until the next full collection, on a large session's
 * heap far later. `keeps`, asked after each hand-over: whether `out` kept
 * the bytes it was given (an asynchronous stream that queued them), so the
 * next batch needs a new buffer; a buffer is otherwise reused, since
 * dropped ones are freed only by a full collection (V8 waits for some
 * tens of megabytes of them).
 */
export class Utf8Batches {
  private buffer = Buffer.allocUnsafe(UTF8_BATCH);
  private used = 0;
  /** A high surrogate that ended the last string, held for its pair. */
  private carry = "";

  constructor(
    private readonly out: (data: string | Uint8Array) => void,
    private readonly keeps: () => boolean,
  ) {}

  write(piece: string): void {
    let text = this.carry === "" ? piece : this.carry + piece;
    this.carry = "";
    const last = text.charCodeAt(text.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) {
      this.carry = text.slice(-1);
      text = text.slice(0, -1);
    }
    // At most three UTF-8 bytes per UTF-16 unit.
    if (text.length * 3 > UTF8_BATCH) {
      this.flush();
      this.out(text);
      return;
    }
    if (text.length * 3 > UTF8_BATCH - this.used) this.flush();
    this.used += this.buffer.write(text, this.used);
  }

  /** Hand over what is encoded (a held high surrogate stays held). */
  flush(): void {
    if (this.used === 0) return;
    this.out(this.buffer.subarray(0, this.used));
    if (this.keeps()) this.buffer = Buffer.allocUnsafe(UTF8_BATCH);
    this.used = 0;
  }

  /** Hand over everything, a lone high surrogate last (as a string would encode it). */
  end(): void {
    const carry = this.carry;
    this.carry = "";
    if (carry !== "") this.used += this.buffer.write(carry, this.used);
    this.flush();
  }
}

const UTF8_BATCH = 1 << 20;
