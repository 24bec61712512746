import { describe, expect, it } from "vitest";
import { Utf8Batches } from "../../src/utf8-batches.js";

/** The bytes Utf8Batches hands over for `pieces`, joined. */
function encoded(pieces: readonly string[], fresh: boolean): Buffer {
  const out: Buffer[] = [];
  const batches = new Utf8Batches(
    (data) => out.push(Buffer.from(typeof data === "string" ? Buffer.from(data) : data)),
    () => fresh,
  );
  for (const piece of pieces) batches.write(piece);
  batches.end();
  return Buffer.concat(out);
}

describe("Utf8Batches", () => {
  it("gives the bytes of the joined string, pairs split between pieces kept whole", () => {
    const pair = "\u{1F600}"; // two UTF-16 units
    const pieces = [
      "plain ",
      `caf\u00e9 ${pair[0]}`,
      `${pair[1]} after`,
      "\ud800", // a lone high surrogate, then a piece that does not pair it
      "x",
      "\udc00 lone low",
      "y".repeat(400_000), // more than a batch can take in one
      "z".repeat(300_000),
      `${"\u20ac".repeat(200_000)}${pair[0]}`,
    ];
    for (const fresh of [false, true]) {
      expect(encoded(pieces, fresh).equals(Buffer.from(pieces.join(""), "utf8"))).toBe(true);
      // A high surrogate that ends the whole text is encoded as a string would be.
      expect(encoded(["a\ud83d"], fresh).equals(Buffer.from("a\ud83d", "utf8"))).toBe(true);
    }
  });

  it("never hands over a buffer it writes again when asked for fresh ones", () => {
    const kept: Uint8Array[] = [];
    const batches = new Utf8Batches(
      (data) => {
        if (typeof data !== "string") kept.push(data);
      },
      () => true,
    );
    for (let i = 0; i < 5_000; i++) batches.write(`${String(i).padStart(200, "-")}\n`);
    batches.end();
    const text = Buffer.concat(kept).toString("utf8");
    expect(text.split("\n")).toHaveLength(5_001);
    expect(text.startsWith(`${"0".padStart(200, "-")}\n`)).toBe(true);
  });

  it("reuses its buffer after a hand-over not kept, and never writes again one that was", () => {
    const held: { data: Uint8Array; copy: Buffer }[] = [];
    const seen = new Set<ArrayBufferLike>();
    let n = 0;
    let keep = false;
    const batches = new Utf8Batches(
      (data) => {
        if (typeof data === "string") return;
        n++;
        keep = n % 3 === 0; // every third hand-over is kept, as a queued write would be
        seen.add(data.buffer);
        if (keep) held.push({ data, copy: Buffer.from(data) });
      },
      () => keep,
    );
    for (let i = 0; i < 40_000; i++) batches.write(`${String(i).padStart(200, "-")}\n`);
    batches.end();
    expect(n).toBeGreaterThan(6);
    // A new buffer only after each kept hand-over: far fewer buffers than hand-overs.
    expect(seen.size).toBeLessThanOrEqual(Math.ceil(n / 3) + 1);
    for (const h of held) expect(Buffer.compare(Buffer.from(h.data), h.copy)).toBe(0);
  });
});
