/**
 * The tolerant protobuf reader and the writer (src/protobuf.ts): every wire
 * type, the inputs that end a readable prefix, zero-copy views, and 100,000+
 * random, mutated and truncated inputs that must never throw.
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decode, encode, type ProtoMessage, WireType } from "../../src/protobuf.js";
import { seedUserStep, toolsSession120 } from "../support/agy-fixtures.js";

const bytes = (hex: string) => new Uint8Array(Buffer.from(hex.replace(/\s+/g, ""), "hex"));

/** A varint's value from its bytes, computed independently of the library. */
function varint(b: Uint8Array): bigint {
  let v = 0n;
  b.forEach((byte, i) => {
    v |= BigInt(byte & 0x7f) << BigInt(7 * i);
  });
  return BigInt.asUintN(64, v);
}

/** Every field of a message as plain data, for comparisons. */
function fields(m: ProtoMessage): { no: number; wire: WireType; value: string }[] {
  const out = [];
  for (let i = 0; i < m.length; i++) {
    out.push({
      no: m.fieldNo(i),
      wire: m.wireType(i),
      value: Buffer.from(m.valueBytes(i)).toString("hex"),
    });
  }
  return out;
}

describe("reader", () => {
  it("decodes the seed's real user step: Fix the flaky test, with its timestamp", () => {
    const step = decode(seedUserStep().step_payload);
    expect(step.complete).toBe(true);
    expect(step.uint(1)).toBe(14);
    expect(step.uint(4)).toBe(3);
    const meta = step.message(5)!;
    expect(meta.timestamp(1)).toEqual({ seconds: 1754820000, nanos: 0 });
    expect(new Date(1754820000 * 1000).toISOString()).toBe("2025-08-10T10:00:00.000Z");
    expect(meta.uint(3)).toBe(4);
    const input = step.message(19)!;
    expect(input.string(2)).toBe("Fix the flaky test");
    expect(input.message(3)?.string(1)).toBe("Fix the flaky test");
  });

  it("reads every wire type", () => {
    // 1: varint 150, 2: fixed64, 3: "hi", 5: fixed32
    const m = decode(bytes("08 9601 11 0102030405060708 1a 02 6869 2d 0a0b0c0d"));
    expect(m.complete).toBe(true);
    expect(fields(m)).toEqual([
      { no: 1, wire: WireType.Varint, value: "9601" },
      { no: 2, wire: WireType.Bit64, value: "0102030405060708" },
      { no: 3, wire: WireType.LengthDelimited, value: "6869" },
      { no: 5, wire: WireType.Bit32, value: "0a0b0c0d" },
    ]);
    expect(m.uint(1)).toBe(150);
    expect(m.string(3)).toBe("hi");
  });

  it("reads 64-bit and negative varints exactly", () => {
    const m = decode(
      encode((w) =>
        w
          .int(1, -62135596800)
          .uint(2, 2n ** 63n)
          .int(3, -1)
          .uint(4, 2 ** 53),
      ),
    );
    expect(m.int64(1)).toBe(-62135596800n);
    expect(m.int64(2)).toBe(-(2n ** 63n));
    expect(m.int32(3)).toBe(-1);
    expect(m.uint(4)).toBe(2 ** 53);
  });

  it("returns sub-messages and bytes as views of the same buffer (zero copy)", () => {
    const buf = encode((w) => w.message(7, (m) => m.string(1, "inner")));
    const outer = decode(buf);
    const view = outer.bytesOf(7)!;
    expect(view.buffer).toBe(buf.buffer);
    expect(view.byteOffset).toBe(buf.byteOffset + 2);
    const inner = outer.message(7)!;
    expect(inner.bytes.buffer).toBe(buf.buffer);
    expect(inner.string(1)).toBe("inner");
  });

  it.each([
    ["a zero field number", "08 01 00 05 10 02", 2],
    ["a start-group wire type", "08 01 0b 10 02", 2],
    ["an end-group wire type", "08 01 0c 10 02", 2],
    ["wire type 6", "08 01 0e 10 02", 2],
    ["wire type 7", "08 01 0f", 2],
    ["a length past the end", "08 01 12 05 6162", 2],
    ["a length of 2^32 or more", "08 01 12 8080808010 61", 2],
    ["a fixed64 past the end", "08 01 11 010203", 2],
    ["a fixed32 past the end", "08 01 15 0102", 2],
    ["a truncated varint", "08 01 10 ff", 2],
    ["a varint longer than ten bytes", "08 01 10 ffffffffffffffffffffff01", 2],
    ["a truncated tag", "08 01 ff", 2],
    ["a tag whose field number overflows", "08 01 ffffffffff0f 01", 2],
  ])("%s ends the prefix; the fields before it are kept", (_, hex, end) => {
    const m = decode(bytes(hex));
    expect(m.complete).toBe(false);
    expect(m.end).toBe(end);
    expect(fields(m)).toEqual([{ no: 1, wire: WireType.Varint, value: "01" }]);
  });

  it("treats null, undefined and empty input as an empty message", () => {
    for (const input of [null, undefined, new Uint8Array(0)]) {
      const m = decode(input);
      expect(m.length).toBe(0);
      expect(m.complete).toBe(true);
      expect(m.string(1)).toBeUndefined();
    }
  });

  it("takes the first value with the expected wire type and ignores the others", () => {
    const m = decode(bytes("10 05 12 01 78 12 01 79"));
    expect(m.uint(2)).toBe(5);
    expect(m.string(2)).toBe("x");
    expect(m.strings(2)).toEqual(["x", "y"]);
    expect(m.uint(3)).toBeUndefined();
  });

  it("replaces invalid UTF-8 with U+FFFD and keeps a leading BOM as text", () => {
    expect(decode(bytes("0a 03 61ff62")).string(1)).toBe("a\ufffdb");
    expect(decode(encode((w) => w.string(1, "\ufeffx"))).string(1)).toBe("\ufeffx");
  });

  it("rejects out-of-range timestamps instead of inventing a date", () => {
    const ts = (s: number, n: number) =>
      decode(encode((w) => w.message(1, (t) => t.int(1, s).uint(2, n)))).timestamp(1);
    expect(ts(253402300800, 0)).toBeUndefined();
    expect(ts(-62135596801, 0)).toBeUndefined();
    expect(ts(0, 1_000_000_000)).toBeUndefined();
    expect(ts(1754820000, 5)).toEqual({ seconds: 1754820000, nanos: 5 });
  });
});

describe("writer", () => {
  const field = fc.oneof(
    fc.record({
      no: fc.integer({ min: 1, max: 536870911 }),
      kind: fc.constant("uint" as const),
      value: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
    }),
    fc.record({
      no: fc.integer({ min: 1, max: 536870911 }),
      kind: fc.constant("string" as const),
      value: fc.string({ unit: "binary", maxLength: 30 }),
    }),
    fc.record({
      no: fc.integer({ min: 1, max: 536870911 }),
      kind: fc.constant("bytes" as const),
      value: fc.uint8Array({ maxLength: 30 }),
    }),
  );

  it("writes fields that the reader reads back in order, for any values", () => {
    fc.assert(
      fc.property(fc.array(field, { maxLength: 12 }), (list) => {
        const buf = encode((w) => {
          for (const f of list) {
            if (f.kind === "uint") w.uint(f.no, f.value);
            else if (f.kind === "string") w.string(f.no, f.value);
            else w.bytes(f.no, f.value);
          }
        });
        const m = decode(buf);
        expect(m.complete).toBe(true);
        expect(m.length).toBe(list.length);
        list.forEach((f, i) => {
          expect(m.fieldNo(i)).toBe(f.no);
          if (f.kind === "uint") {
            expect(m.wireType(i)).toBe(WireType.Varint);
            expect(varint(m.valueBytes(i))).toBe(f.value);
          } else if (f.kind === "string") {
            expect(Buffer.from(m.valueBytes(i)).toString("utf8")).toBe(f.value);
          } else {
            expect(Buffer.from(m.valueBytes(i))).toEqual(Buffer.from(f.value));
          }
        });
      }),
    );
  });

  it("round-trips unsigned 64-bit varints exactly", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), (v) => {
        const back = decode(encode((w) => w.uint(1, v))).int64(1)!;
        expect(BigInt.asUintN(64, back)).toBe(v);
      }),
    );
  });

  it("leaves zero parts of a timestamp out, as proto3 does", () => {
    expect(
      Buffer.from(encode((w) => w.timestamp(1, { seconds: 0, nanos: 0 }))).toString("hex"),
    ).toBe("0a00");
    const m = decode(encode((w) => w.timestamp(1, { seconds: -5, nanos: 0 })));
    expect(m.timestamp(1)).toEqual({ seconds: -5, nanos: 0 });
  });
});

describe("tolerance", () => {
  const samples = [
    seedUserStep().step_payload!,
    ...toolsSession120().steps.map((s) => s.step_payload!),
  ];

  /** Decode recursively into every LEN field, as a hostile-input walker would. */
  function walk(m: ProtoMessage, depth: number): number {
    let n = m.length;
    if (depth > 6) return n;
    for (let i = 0; i < m.length; i++) {
      if (m.wireType(i) === WireType.LengthDelimited) n += walk(decode(m.valueBytes(i)), depth + 1);
    }
    m.string(1);
    m.uint(2);
    m.int64(3);
    m.timestamp(1);
    return n;
  }

  it("never throws on 100,000 random, mutated and truncated inputs", () => {
    const mutated = fc
      .tuple(
        fc.constantFrom(...samples),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 4 }),
        fc.nat(),
      )
      .map(([base, edits, cut]) => {
        const copy = new Uint8Array(base);
        for (const [at, value] of edits) copy[at % copy.length] = value;
        return copy.subarray(0, cut % (copy.length + 1));
      });
    const input = fc.oneof(fc.uint8Array({ maxLength: 64 }), mutated);
    let decoded = 0;
    fc.assert(
      fc.property(input, (buf) => {
        const m = decode(buf);
        expect(m.end).toBeLessThanOrEqual(buf.length);
        walk(m, 0);
        decoded++;
      }),
      { numRuns: 100_000 },
    );
    expect(decoded).toBe(100_000);
  });

  it("decodes every truncation of a well-formed step to a prefix of its fields", () => {
    for (const full of samples) {
      const whole = fields(decode(full));
      for (let cut = 0; cut <= full.length; cut++) {
        const part = decode(full.subarray(0, cut));
        const got = fields(part);
        expect(got).toEqual(whole.slice(0, got.length));
        // Exactly the fields that end within the cut are kept.
        expect(part.end).toBeLessThanOrEqual(cut);
        if (cut === full.length) expect(got.length).toBe(whole.length);
      }
    }
  });

  it("reads a huge message (a 16 MB string field) without copying it", () => {
    const big = new Uint8Array(16 * 1024 * 1024).fill(0x61);
    const buf = encode((w) => w.uint(1, 132).bytes(140, big));
    const m = decode(buf);
    expect(m.complete).toBe(true);
    expect(m.bytesOf(140)!.buffer).toBe(buf.buffer);
    expect(m.bytesOf(140)!.length).toBe(big.length);
  });
});
