/**
 * Blobs copied side by side into shared slabs, each kept as a view. SQLite
 * hands every blob over as a Buffer of its own, the protobuf writer every
 * message as an array of its own, and each costs about
 * 700 bytes of bookkeeping (its ArrayBuffer, backing store and their
 * handles) besides its bytes: a conversation's hundreds of thousands of
 * step blobs of a few hundred bytes each held four times their size that
 * way. A view over a slab costs its one object; the Buffer SQLite made is
 * garbage at once. Blobs of a quarter slab or more keep their own buffer.
 * The views are of the kind `alloc` makes (Buffers for what SQLite gave).
 */
export class BlobSlab {
  private readonly alloc: (size: number) => Uint8Array;
  private slab: Uint8Array;
  private used = 0;
  private size = SLAB_MIN;

  constructor(alloc: (size: number) => Uint8Array) {
    this.alloc = alloc;
    this.slab = alloc(0);
  }

  keep(blob: Uint8Array): Uint8Array {
    const n = blob.length;
    if (n === 0 || n >= SLAB_MAX / 4) return blob;
    if (this.used + n > this.slab.length) {
      this.slab = this.alloc(Math.max(this.size, n));
      this.used = 0;
      this.size = Math.min(this.size * 2, SLAB_MAX);
    }
    const at = this.used;
    this.slab.set(blob, at);
    this.used = at + n;
    return this.slab.subarray(at, at + n);
  }
}

const SLAB_MIN = 16 * 1024;
const SLAB_MAX = 1024 * 1024;
