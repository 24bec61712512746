import { describe, expect, it } from "vitest";
import { Utf8Batches } from "../../src/utf8-batches.js";

/** The bytes Utf8Batches hands over for `pieces`, joined. */
function encoded(pieces: readonly string[], fresh: boolean): Buffer {
  const out: Buffer[] = [];
  const batches = new Utf8Batches(
    (data) => out.push(Buffer.from(typeof data === "string" ? Buffer.from(data) : data)),
    fresh,
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
    const batches = new Utf8Batches((data) => {
      if (typeof data !== "string") kept.push(data);
    }, true);
    for (let i = 0; i < 5_000; i++) batches.write(`${String(i).padStart(200, "-")}\n`);
    batches.end();
    const text = Buffer.concat(kept).toString("utf8");
    expect(text.split("\n")).toHaveLength(5_001);
    expect(text.startsWith(`${"0".padStart(200, "-")}\n`)).toBe(true);
  });
});
