/**
 * The replay's list of messages: in order, one per id, a record appended
 * on its own line held as that line's number. What the CLI keeps in a Map
 * by id, without holding the ids: a JS Map of a million ids held each id
 * string and its entry (some 80 bytes a message, 40 MB of a 120 MB
 * session, left for the collector while the Common transcript was built).
 * Here each message is a line number and a 32-bit hash of its id in typed
 * arrays, found through an open-addressing table of slot numbers; an id is
 * read again (its line parsed) only when a hash matches, to tell a record
 * set again from a collision. Pure.
 */

/** FNV-1a over the id's UTF-16 code units. */
function hashOf(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

const EMPTY = -1;
/** Slots a table starts with (and its positions, twice as many). */
const INITIAL = 64;

/** Messages by id in first-insertion order, as a Map keeps them (set again: replaced in place). */
export class OrderedRecords<R extends { id: string }> {
  /** Per slot: a line number, or `-1 - k` for `records[k]`. */
  private at = new Int32Array(INITIAL);
  private hashes = new Uint32Array(INITIAL);
  private count = 0;
  /** Open addressing: slot numbers, EMPTY where free; at most half full. */
  private table = new Int32Array(INITIAL * 2).fill(EMPTY);
  /** Records given as objects (a metadata line's or a checkpoint's), rare. */
  private records: R[] = [];

  /** `read(line)` is the record on that line (its id as it was set). */
  constructor(private readonly read: (line: number) => R | undefined) {}

  get size(): number {
    return this.count;
  }

  private idAt(slot: number): string | undefined {
    const v = this.at[slot] ?? EMPTY;
    return v >= 0 ? this.read(v)?.id : this.records[-1 - v]?.id;
  }

  /** The table position holding `id`'s slot, or the free one where it would go. */
  private position(id: string, hash: number): number {
    const mask = this.table.length - 1;
    for (let p = hash & mask; ; p = (p + 1) & mask) {
      const slot = this.table[p] ?? EMPTY;
      if (slot === EMPTY) return p;
      if (this.hashes[slot] === hash && this.idAt(slot) === id) return p;
    }
  }

  /** `id`'s place in the order, or -1. */
  indexOf(id: string): number {
    return this.table[this.position(id, hashOf(id))] ?? EMPTY;
  }

  /** Set `id` to a line number or a record: in its place when present, else last. */
  set(id: string, value: number | R): void {
    const encoded = typeof value === "number" ? value : -this.records.push(value);
    const hash = hashOf(id);
    const p = this.position(id, hash);
    const slot = this.table[p] ?? EMPTY;
    if (slot !== EMPTY) {
      this.at[slot] = encoded;
      return;
    }
    if (this.count === this.at.length) {
      this.at = grown(this.at, new Int32Array(this.at.length * 2));
      this.hashes = grown(this.hashes, new Uint32Array(this.hashes.length * 2));
    }
    this.at[this.count] = encoded;
    this.hashes[this.count] = hash;
    this.table[p] = this.count++;
    if (this.count * 2 > this.table.length) this.reindex(this.table.length * 2);
  }

  /** Drop the message at `index` and every one after it. */
  truncate(index: number): void {
    if (index <= 0) {
      this.clear();
      return;
    }
    this.count = Math.min(this.count, index);
    this.reindex(this.table.length);
  }

  /** Empty, and back to its first size: a cleared table holds no memory of its past. */
  clear(): void {
    this.at = new Int32Array(INITIAL);
    this.hashes = new Uint32Array(INITIAL);
    this.table = new Int32Array(INITIAL * 2).fill(EMPTY);
    this.records = [];
    this.count = 0;
  }

  /** The messages in order: line numbers and records. */
  *values(): Generator<number | R> {
    for (let s = 0; s < this.count; s++) {
      const v = this.at[s] ?? EMPTY;
      const value = v >= 0 ? v : this.records[-1 - v];
      if (value !== undefined) yield value;
    }
  }

  /** The table rebuilt at `size` positions from the slots kept (slot hashes need no id read). */
  private reindex(size: number): void {
    const table = new Int32Array(size).fill(EMPTY);
    const mask = size - 1;
    for (let s = 0; s < this.count; s++) {
      let p = (this.hashes[s] ?? 0) & mask;
      while (table[p] !== EMPTY) p = (p + 1) & mask;
      table[p] = s;
    }
    this.table = table;
  }
}

function grown<T extends Int32Array | Uint32Array>(from: T, to: T): T {
  to.set(from);
  return to;
}
