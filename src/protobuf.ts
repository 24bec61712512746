/**
 * The protobuf wire layer: a tolerant reader and a small writer over
 * `@bufbuild/protobuf`'s wire module (BinaryReader / BinaryWriter).
 *
 * Reading is schema-less: `decode(bytes)` lists the fields of the longest
 * well-formed prefix of `bytes` and never throws. A zero field number, a
 * group (wire type 3 or 4, which no agy message uses), an unknown wire type,
 * a truncated or overlong varint, or a length or fixed-width value past the
 * end ends the prefix; everything before it is kept. Length-delimited values
 * are zero-copy `subarray` views of the input, so a sub-message decodes from
 * the same buffer without copying.
 *
 * The library's reader throws on malformed input; the tolerance (catching at
 * the first bad field and keeping what came before) is this module's.
 */

import { BinaryReader, BinaryWriter, getTextEncoding, WireType } from "@bufbuild/protobuf/wire";
import type { EpochTime } from "./time.js";

export { WireType };

const utf8 = getTextEncoding();

// google.protobuf.Timestamp bounds: years 0001 to 9999.
const MIN_SECONDS = -62135596800;
const MAX_SECONDS = 253402300799;

/**
 * The fields of one message, in wire order, over the original bytes. Field
 * accessors take the first occurrence of a field number with the wire type
 * they expect (agy writes each singular field once) and ignore the rest.
 */
export class ProtoMessage {
  /** The bytes decoded (the whole input, including any malformed tail). */
  readonly bytes: Uint8Array;
  /** How many bytes the well-formed prefix covers. */
  readonly end: number;
  /**
   * Four numbers per field: tag (field number << 3 | wire type), value start
   * (the payload of a LEN field, the first byte of a varint or fixed value),
   * value end, and the varint value as a number (exact up to 2^53; see
   * `int64`). One flat array keeps decoding to two allocations per message.
   */
  private readonly f: number[];
  /**
   * A Buffer view of the whole buffer under `bytes`, made on the first string
   * read and handed to sub-messages (views of the same buffer), so a step and
   * everything in it share one view (see `string`).
   */
  private text: Buffer | undefined;

  private constructor(bytes: Uint8Array, text?: Buffer) {
    this.bytes = bytes;
    this.text = text;
    this.f = [];
    this.end = this.scan();
  }

  /** A sub-message over `b`, a view of this message's buffer. */
  private child(b: Uint8Array): ProtoMessage {
    return new ProtoMessage(b, b.buffer === this.bytes.buffer ? this.text : undefined);
  }

  /** Decode the longest well-formed prefix of `bytes`. Never throws. */
  static decode(bytes: Uint8Array | null | undefined): ProtoMessage {
    return new ProtoMessage(bytes ?? EMPTY);
  }

  /** Number of fields read. */
  get length(): number {
    return this.f.length >> 2;
  }

  /** True when every byte of the input belongs to a well-formed field. */
  get complete(): boolean {
    return this.end === this.bytes.length;
  }

  /**
   * The scan reads one- and two-byte tags and lengths and varints of up to
   * seven bytes inline, and hands everything else (longer varints, malformed
   * input) to the library's BinaryReader, created only when needed: the
   * reader allocates a DataView per instance and an array per tag, which on
   * agy's many small messages doubled decoding time in the benchmark.
   */
  private scan(): number {
    const buf = this.bytes;
    const len = buf.length;
    const f = this.f;
    let reader: BinaryReader | undefined;
    let pos = 0;
    let end = 0;
    try {
      while (pos < len) {
        let tag: number;
        const t0 = buf[pos] ?? 0;
        if (t0 < 0x80) {
          tag = t0;
          pos += 1;
        } else if (pos + 1 < len && (buf[pos + 1] ?? 0x80) < 0x80) {
          tag = (t0 & 0x7f) | ((buf[pos + 1] ?? 0) << 7);
          pos += 2;
        } else {
          reader ??= new BinaryReader(buf, utf8.decodeUtf8);
          reader.pos = pos;
          const [no, wire] = reader.tag(); // throws on an overlong tag or a bad wire type
          tag = no * 8 + wire;
          pos = reader.pos;
        }
        const wire = tag & 7;
        if (tag < 8) return end; // field number 0
        let start = pos;
        let num = 0;
        switch (wire) {
          case WireType.Varint: {
            // Up to seven bytes (49 bits) inline, exact as a double.
            let k = pos;
            let shift = 1;
            let b = buf[k];
            while (b !== undefined && b >= 0x80 && k - pos < 6) {
              num += (b & 0x7f) * shift;
              shift *= 128;
              b = buf[++k];
            }
            if (b !== undefined && b < 0x80) {
              num += b * shift;
              pos = k + 1;
            } else {
              num = 0;
              reader ??= new BinaryReader(buf, utf8.decodeUtf8);
              reader.pos = pos;
              num = Number(reader.uint64()); // throws when truncated or longer than ten bytes
              pos = reader.pos;
            }
            break;
          }
          case WireType.LengthDelimited: {
            let size: number;
            const b = buf[pos];
            if (b !== undefined && b < 0x80) {
              size = b;
              pos += 1;
            } else if (b !== undefined && pos + 1 < len && (buf[pos + 1] ?? 0x80) < 0x80) {
              size = (b & 0x7f) | ((buf[pos + 1] ?? 0) << 7);
              pos += 2;
            } else {
              reader ??= new BinaryReader(buf, utf8.decodeUtf8);
              reader.pos = pos;
              size = reader.uint32();
              const used = reader.pos - pos;
              // A length of 2^32 or more is always past the end; uint32()
              // would silently truncate it, so it ends the prefix here.
              if (used > 5 || (used === 5 && (buf[reader.pos - 1] ?? 0) > 0x0f)) return end;
              pos = reader.pos;
            }
            if (size > len - pos) return end;
            start = pos;
            pos += size;
            break;
          }
          case WireType.Bit64:
            if (len - pos < 8) return end;
            pos += 8;
            break;
          case WireType.Bit32:
            if (len - pos < 4) return end;
            pos += 4;
            break;
          default:
            // Groups (deprecated, unused by agy) end the prefix.
            return end;
        }
        f.push(tag, start, pos, num);
        end = pos;
      }
    } catch {
      // The first malformed field ends the readable prefix.
    }
    return end;
  }

  /** Field number of the i-th field. */
  fieldNo(i: number): number {
    return (this.f[i * 4] ?? 0) >>> 3;
  }

  /** Wire type of the i-th field. */
  wireType(i: number): WireType {
    return (this.f[i * 4] ?? 0) & 7;
  }

  /** The value bytes of the i-th field (a view): a LEN payload, a varint or fixed value. */
  valueBytes(i: number): Uint8Array {
    return this.bytes.subarray(this.f[i * 4 + 1] ?? 0, this.f[i * 4 + 2] ?? 0);
  }

  /** The varint value of the i-th field (exact up to 2^53). */
  valueNumber(i: number): number {
    return this.f[i * 4 + 3] ?? 0;
  }

  /** Offset into `f` of the first field `no` with wire type `wire`, or -1. */
  private find(no: number, wire: WireType): number {
    const f = this.f;
    const tag = no * 8 + wire;
    for (let k = 0; k < f.length; k += 4) if (f[k] === tag) return k;
    return -1;
  }

  /** True when a field with this number is present (any wire type). */
  has(no: number): boolean {
    const f = this.f;
    for (let k = 0; k < f.length; k += 4) if ((f[k] ?? 0) >>> 3 === no) return true;
    return false;
  }

  /** The first length-delimited value of field `no`, as a view. */
  bytesOf(no: number): Uint8Array | undefined {
    const k = this.find(no, WireType.LengthDelimited);
    return k < 0 ? undefined : this.bytes.subarray(this.f[k + 1], this.f[k + 2]);
  }

  /** Every length-delimited value of field `no`, in order, as views. */
  allBytes(no: number): Uint8Array[] {
    const out: Uint8Array[] = [];
    const f = this.f;
    const tag = no * 8 + WireType.LengthDelimited;
    for (let k = 0; k < f.length; k += 4) {
      if (f[k] === tag) out.push(this.bytes.subarray(f[k + 1], f[k + 2]));
    }
    return out;
  }

  /** The first length-delimited value of field `no` as UTF-8 text (bad sequences become U+FFFD). */
  string(no: number): string | undefined {
    const k = this.find(no, WireType.LengthDelimited);
    if (k < 0) return undefined;
    const start = this.f[k + 1] ?? 0;
    const end = this.f[k + 2] ?? 0;
    if (start === end) return "";
    // A Buffer view of the whole underlying buffer decodes every string in
    // place (no view per string); like TextDecoder, it keeps a BOM and replaces
    // malformed sequences with U+FFFD.
    this.text ??= Buffer.from(this.bytes.buffer as ArrayBuffer);
    const at = this.bytes.byteOffset;
    return this.text.toString("utf8", at + start, at + end);
  }

  /**
   * The start of field `no`'s text: leading ASCII whitespace skipped, then
   * at most `maxBytes` bytes (cut back to a character boundary) decoded, so
   * that a summary costs the same whatever the field holds. `more` says
   * whether anything was left undecoded.
   */
  stringHead(no: number, maxBytes: number): { text: string; more: boolean } | undefined {
    const k = this.find(no, WireType.LengthDelimited);
    if (k < 0) return undefined;
    const b = this.bytes;
    let start = this.f[k + 1] ?? 0;
    const end = this.f[k + 2] ?? 0;
    const space = (c: number | undefined) => c === 32 || (c !== undefined && c >= 9 && c <= 13);
    while (start < end && space(b[start])) start++;
    let stop = Math.min(end, start + maxBytes);
    // Never cut a UTF-8 sequence: back off over continuation bytes.
    if (stop < end) while (stop > start && ((b[stop] ?? 0) & 0xc0) === 0x80) stop--;
    return { text: bytesToText(b.subarray(start, stop)), more: stop < end };
  }

  /** Every length-delimited value of field `no` as text. */
  strings(no: number): string[] {
    return this.allBytes(no).map(bytesToText);
  }

  /** The first length-delimited value of field `no`, decoded as a message. */
  message(no: number): ProtoMessage | undefined {
    const b = this.bytesOf(no);
    return b === undefined ? undefined : this.child(b);
  }

  /** Every length-delimited value of field `no`, decoded as messages. */
  messages(no: number): ProtoMessage[] {
    return this.allBytes(no).map((b) => this.child(b));
  }

  /** The first varint of field `no` as a number (exact up to 2^53). */
  uint(no: number): number | undefined {
    const k = this.find(no, WireType.Varint);
    return k < 0 ? undefined : this.f[k + 3];
  }

  /** The first varint of field `no` as a signed 64-bit integer (exact). */
  int64(no: number): bigint | undefined {
    const k = this.find(no, WireType.Varint);
    if (k < 0) return undefined;
    const n = this.f[k + 3] ?? 0;
    if (n <= Number.MAX_SAFE_INTEGER) return BigInt(n);
    // Negative int64 values are ten-byte varints: re-read them exactly.
    return BigInt(new BinaryReader(this.bytes.subarray(this.f[k + 1], this.f[k + 2])).int64());
  }

  /** The first varint of field `no` as a signed 32-bit integer (an int32 such as an exit code). */
  int32(no: number): number | undefined {
    const v = this.int64(no);
    return v === undefined ? undefined : Number(BigInt.asIntN(32, v));
  }

  /** A `google.protobuf.Timestamp {1: seconds, 2: nanos}` in field `no`; undefined when out of range. */
  timestamp(no: number): EpochTime | undefined {
    const m = this.message(no);
    return m === undefined ? undefined : readTimestamp(m);
  }
}

const EMPTY = new Uint8Array(0);

/** Decode the longest well-formed prefix of `bytes`. Never throws. */
export function decode(bytes: Uint8Array | null | undefined): ProtoMessage {
  return ProtoMessage.decode(bytes);
}

/** Seconds and nanos of a decoded `google.protobuf.Timestamp`, if in range. */
function readTimestamp(m: ProtoMessage): EpochTime | undefined {
  const raw = m.uint(1) ?? 0;
  const seconds = raw <= Number.MAX_SAFE_INTEGER ? raw : Number(m.int64(1));
  const nanos = m.uint(2) ?? 0;
  if (seconds < MIN_SECONDS || seconds > MAX_SECONDS || nanos > 999_999_999) return undefined;
  return { seconds, nanos };
}

/** UTF-8 text of a byte view (bad sequences become U+FFFD). */
function bytesToText(bytes: Uint8Array): string {
  return bytes.length === 0 ? "" : utf8.decodeUtf8(bytes);
}

// ---------------------------------------------------------------------------
// Writing

/**
 * A message writer. Fields are written in call order; nothing is omitted
 * implicitly (the codec decides which defaults to leave out).
 */
export class ProtoWriter {
  private readonly w = new BinaryWriter(utf8.encodeUtf8);

  /** An unsigned varint (uint32/uint64/enum). */
  uint(no: number, value: number | bigint): this {
    this.w.tag(no, WireType.Varint).uint64(value);
    return this;
  }

  /** A signed varint (int32/int64; negative values take ten bytes). */
  int(no: number, value: number | bigint): this {
    this.w.tag(no, WireType.Varint).int64(value);
    return this;
  }

  bool(no: number, value: boolean): this {
    this.w.tag(no, WireType.Varint).bool(value);
    return this;
  }

  string(no: number, value: string): this {
    this.w.tag(no, WireType.LengthDelimited).string(value);
    return this;
  }

  bytes(no: number, value: Uint8Array): this {
    this.w.tag(no, WireType.LengthDelimited).bytes(value);
    return this;
  }

  /** A sub-message built by `build`. */
  message(no: number, build: (w: this) => void): this {
    this.w.tag(no, WireType.LengthDelimited).fork();
    build(this);
    this.w.join();
    return this;
  }

  /** A `google.protobuf.Timestamp`; zero parts are left out, as proto3 does. */
  timestamp(no: number, t: EpochTime): this {
    return this.message(no, (w) => {
      if (t.seconds !== 0) w.int(1, t.seconds);
      if (t.nanos !== 0) w.uint(2, t.nanos);
    });
  }

  /** All bytes written; the writer is reset. */
  finish(): Uint8Array {
    return this.w.finish();
  }
}

/** Build one message (nested `encode` calls are fine: each has its own writer). */
export function encode(build: (w: ProtoWriter) => void): Uint8Array {
  const w = new ProtoWriter();
  build(w);
  return w.finish();
}
