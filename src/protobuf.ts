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
  // Parallel arrays, one entry per field: cheaper than an object per field.
  private readonly nos: number[];
  private readonly wires: WireType[];
  /** Value start: the payload of a LEN field, the first byte of a varint or fixed value. */
  private readonly starts: number[];
  private readonly ends: number[];
  /** Varint values as numbers (exact up to 2^53; see `int64` for the rest). */
  private readonly nums: number[];

  private constructor(bytes: Uint8Array) {
    this.bytes = bytes;
    this.nos = [];
    this.wires = [];
    this.starts = [];
    this.ends = [];
    this.nums = [];
    this.end = this.scan();
  }

  /** Decode the longest well-formed prefix of `bytes`. Never throws. */
  static decode(bytes: Uint8Array | null | undefined): ProtoMessage {
    return new ProtoMessage(bytes ?? EMPTY);
  }

  /** Number of fields read. */
  get length(): number {
    return this.nos.length;
  }

  /** True when every byte of the input belongs to a well-formed field. */
  get complete(): boolean {
    return this.end === this.bytes.length;
  }

  private scan(): number {
    const buf = this.bytes;
    const reader = new BinaryReader(buf, utf8.decodeUtf8);
    let end = 0;
    try {
      while (reader.pos < reader.len) {
        const [no, wire] = reader.tag();
        let start = reader.pos;
        let num = 0;
        switch (wire) {
          case WireType.Varint: {
            const b = buf[start]!;
            if (b < 0x80) {
              // One-byte fast path: most varints (types, statuses, flags) are small.
              num = b;
              reader.pos = start + 1;
            } else {
              num = Number(reader.uint64());
            }
            break;
          }
          case WireType.LengthDelimited: {
            const len = reader.uint32();
            const used = reader.pos - start;
            // A length of 2^32 or more is always past the end; uint32() would
            // silently truncate it, so it ends the prefix here.
            if (used > 5 || (used === 5 && buf[reader.pos - 1]! > 0x0f)) return end;
            if (len > reader.len - reader.pos) return end;
            start = reader.pos;
            reader.pos += len;
            break;
          }
          case WireType.Bit64:
          case WireType.Bit32:
            reader.skip(wire);
            break;
          default:
            // Groups (deprecated, unused by agy) end the prefix.
            return end;
        }
        this.nos.push(no);
        this.wires.push(wire);
        this.starts.push(start);
        this.ends.push(reader.pos);
        this.nums.push(num);
        end = reader.pos;
      }
    } catch {
      // The first malformed field ends the readable prefix.
    }
    return end;
  }

  /** Field number of the i-th field. */
  fieldNo(i: number): number {
    return this.nos[i] ?? 0;
  }

  /** Wire type of the i-th field. */
  wireType(i: number): WireType {
    return this.wires[i] ?? WireType.Varint;
  }

  /** The value bytes of the i-th field (a view): a LEN payload, a varint or fixed value. */
  valueBytes(i: number): Uint8Array {
    return this.bytes.subarray(this.starts[i] ?? 0, this.ends[i] ?? 0);
  }

  /** The varint value of the i-th field (exact up to 2^53). */
  valueNumber(i: number): number {
    return this.nums[i] ?? 0;
  }

  private find(no: number, wire: WireType): number {
    const nos = this.nos;
    for (let i = 0; i < nos.length; i++) {
      if (nos[i] === no && this.wires[i] === wire) return i;
    }
    return -1;
  }

  /** True when a field with this number is present (any wire type). */
  has(no: number): boolean {
    return this.nos.includes(no);
  }

  /** The first length-delimited value of field `no`, as a view. */
  bytesOf(no: number): Uint8Array | undefined {
    const i = this.find(no, WireType.LengthDelimited);
    return i < 0 ? undefined : this.bytes.subarray(this.starts[i], this.ends[i]);
  }

  /** Every length-delimited value of field `no`, in order, as views. */
  allBytes(no: number): Uint8Array[] {
    const out: Uint8Array[] = [];
    for (let i = 0; i < this.nos.length; i++) {
      if (this.nos[i] === no && this.wires[i] === WireType.LengthDelimited) {
        out.push(this.bytes.subarray(this.starts[i], this.ends[i]));
      }
    }
    return out;
  }

  /** The first length-delimited value of field `no` as UTF-8 text (bad sequences become U+FFFD). */
  string(no: number): string | undefined {
    const i = this.find(no, WireType.LengthDelimited);
    return i < 0 ? undefined : decodeText(this.bytes, this.starts[i]!, this.ends[i]!);
  }

  /** Every length-delimited value of field `no` as text. */
  strings(no: number): string[] {
    const out: string[] = [];
    for (let i = 0; i < this.nos.length; i++) {
      if (this.nos[i] === no && this.wires[i] === WireType.LengthDelimited) {
        out.push(decodeText(this.bytes, this.starts[i]!, this.ends[i]!));
      }
    }
    return out;
  }

  /** The first length-delimited value of field `no`, decoded as a message. */
  message(no: number): ProtoMessage | undefined {
    const b = this.bytesOf(no);
    return b === undefined ? undefined : new ProtoMessage(b);
  }

  /** Every length-delimited value of field `no`, decoded as messages. */
  messages(no: number): ProtoMessage[] {
    return this.allBytes(no).map((b) => new ProtoMessage(b));
  }

  /** The first varint of field `no` as a number (exact up to 2^53). */
  uint(no: number): number | undefined {
    const i = this.find(no, WireType.Varint);
    return i < 0 ? undefined : this.nums[i];
  }

  /** The first varint of field `no` as a signed 64-bit integer (exact). */
  int64(no: number): bigint | undefined {
    const i = this.find(no, WireType.Varint);
    if (i < 0) return undefined;
    const n = this.nums[i]!;
    if (n <= Number.MAX_SAFE_INTEGER) return BigInt(n);
    // Negative int64 values are ten-byte varints: re-read them exactly.
    return BigInt(new BinaryReader(this.bytes.subarray(this.starts[i], this.ends[i])).int64());
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
export function readTimestamp(m: ProtoMessage): EpochTime | undefined {
  const seconds = Number(m.int64(1) ?? 0n);
  const nanos = m.uint(2) ?? 0;
  if (seconds < MIN_SECONDS || seconds > MAX_SECONDS || nanos > 999_999_999) return undefined;
  return { seconds, nanos };
}

function decodeText(bytes: Uint8Array, start: number, end: number): string {
  if (start === end) return "";
  return utf8.decodeUtf8(bytes.subarray(start, end));
}

/** UTF-8 text of a byte view (bad sequences become U+FFFD). */
export function bytesToText(bytes: Uint8Array): string {
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

/** Build one message. */
export function encode(build: (w: ProtoWriter) => void): Uint8Array {
  const w = new ProtoWriter();
  build(w);
  return w.finish();
}
