/**
 * zstd decompression (src/harness/shared/zstd.ts) on frames built here by
 * hand from raw and RLE blocks (RFC 8878), so every header form can be
 * made: a stated content size in each field width, single-segment frames,
 * none stated, several frames, and headers that lie. The memory case runs
 * the built module in its own process and reads its peak RSS.
 */

import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decompressCapped, statedContentSize } from "../../src/harness/shared/zstd.js";
import { ROOT } from "../support/cli.js";

const MAX_BLOCK = 128 * 1024;

/** How a frame's header states its content size. */
type Stated = "none" | "single" | 1 | 2 | 3;

/** A zstd frame of `content` in raw blocks (or RLE blocks where `rle` and a run repeats). */
function frame(content: Uint8Array, stated: Stated, rle = false): Uint8Array {
  const parts: number[] = [0x28, 0xb5, 0x2f, 0xfd];
  const size = content.length;
  const single = stated === "single";
  const flag =
    stated === "none" ? 0 : stated === "single" ? (size < 256 ? 0 : size < 65_792 ? 1 : 2) : stated;
  parts.push((flag << 6) | (single ? 1 << 5 : 0));
  if (!single) parts.push(7 << 3); // a 128 KiB window: room for any block
  const width = flag === 0 ? (single ? 1 : 0) : 1 << flag;
  const value = width === 2 ? size - 256 : size;
  for (let i = 0, v = value; i < width; i++, v = Math.floor(v / 256)) parts.push(v % 256);
  if (size === 0) parts.push(1, 0, 0); // one empty last raw block
  for (let at = 0; at < size; at += MAX_BLOCK) {
    const block = content.subarray(at, Math.min(size, at + MAX_BLOCK));
    const last = at + MAX_BLOCK >= size ? 1 : 0;
    const run = rle && block.every((b) => b === block[0]);
    const header = (block.length << 3) | ((run ? 1 : 0) << 1) | last;
    parts.push(header & 0xff, (header >> 8) & 0xff, (header >> 16) & 0xff);
    if (run) parts.push(block[0] ?? 0);
    else for (const b of block) parts.push(b);
  }
  return Uint8Array.from(parts);
}

/** Bytes as their length and hash: compared in one step, where vitest compares a typed array element by element. */
function digest(bytes: Uint8Array): string {
  return `${bytes.length} ${createHash("sha256").update(bytes).digest("hex")}`;
}

function concat(...arrays: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(arrays.reduce((n, a) => n + a.length, 0));
  let at = 0;
  for (const a of arrays) {
    out.set(a, at);
    at += a.length;
  }
  return out;
}

/** `frame` with its stated size (a 4-byte field, written at byte 6) replaced. */
function restated(content: Uint8Array, claimed: number): Uint8Array {
  const f = frame(content, 2);
  new DataView(f.buffer).setUint32(6, claimed, true);
  return f;
}

const stated = fc.constantFrom<Stated>("none", "single", 1, 2, 3);

describe("zstd frames", () => {
  it("decodes any content in any header form, and reads the size the header states", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300_000 }), stated, (content, how) => {
        if (how === 1 && (content.length < 256 || content.length >= 65_792)) return;
        const f = frame(content, how);
        expect(statedContentSize(f)).toBe(how === "none" ? undefined : content.length);
        if (content.length > 0) expect(digest(decompressCapped(f, 1 << 20))).toBe(digest(content));
      }),
      { numRuns: 60 },
    );
  });

  it("decodes several frames one after another, whatever the first states", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.uint8Array({ minLength: 1, maxLength: 200_000 }), stated), {
          minLength: 2,
          maxLength: 4,
        }),
        (frames) => {
          const usable = frames.filter(
            ([c, how]) => how !== 1 || (c.length >= 256 && c.length < 65_792),
          );
          if (usable.length === 0) return;
          const data = concat(...usable.map(([c, how]) => frame(c, how)));
          expect(digest(decompressCapped(data, 1 << 21))).toBe(
            digest(concat(...usable.map(([c]) => c))),
          );
        },
      ),
      { numRuns: 40 },
    );
  });

  it("gives the real content when the header over- or understates it", () => {
    const content = new TextEncoder().encode('{"type":"event_msg"}\n'.repeat(20_000));
    expect(digest(decompressCapped(restated(content, content.length * 3), 1 << 24))).toBe(
      digest(content),
    );
    expect(digest(decompressCapped(restated(content, 1000), 1 << 24))).toBe(digest(content));
    // A claim past the cap is not believed, and the real (small) output is given.
    expect(digest(decompressCapped(restated(content, 0xffff_fff0), 1 << 24))).toBe(digest(content));
  });

  it("refuses output past the cap whether or not the header states it, and empty or foreign data", () => {
    const content = new Uint8Array(300_000).fill(97);
    for (const how of ["none", 2, 3] as const) {
      expect(() => decompressCapped(frame(content, how, true), 200_000)).toThrow(
        /more than 200000 bytes/,
      );
    }
    expect(() => decompressCapped(restated(content, 100), 200_000)).toThrow(/more than 200000/);
    expect(() => decompressCapped(new Uint8Array(0), 1000)).toThrow(/empty/);
    expect(statedContentSize(new TextEncoder().encode("not zstd at all"))).toBeUndefined();
    expect(statedContentSize(Uint8Array.of(0x28, 0xb5, 0x2f, 0xfd, 0xc0))).toBeUndefined();
    expect(() => decompressCapped(new TextEncoder().encode("not zstd at all"), 1000)).toThrow();
  });

  it("holds a stated-size output once, not its blocks and a joined copy besides", () => {
    // 96 MiB of content from a few kilobytes of RLE blocks, in a process of its own.
    const url = pathToFileURL(join(ROOT, "dist", "harness", "shared", "zstd.js")).href;
    const script = `
      const { decompressCapped } = await import(${JSON.stringify(url)});
      const { readFileSync } = await import("node:fs");
      const peak = () => Number(/VmHWM:\\s+(\\d+)/.exec(readFileSync("/proc/self/status", "utf8"))[1]) * 1024;
      const data = Uint8Array.from(JSON.parse(process.argv[1]));
      const before = peak();
      const out = decompressCapped(data, 2 ** 31 - 1);
      console.log(JSON.stringify({ length: out.length, grew: peak() - before }));
    `;
    const size = 96 * 1024 * 1024;
    const data = frame(new Uint8Array(size).fill(120), 3, true);
    const r = spawnSync(
      process.execPath,
      ["--input-type=module", "-e", script, JSON.stringify([...data])],
      { encoding: "utf8" },
    );
    expect(r.stderr).toBe("");
    const { length, grew } = JSON.parse(r.stdout) as { length: number; grew: number };
    expect(length).toBe(size);
    // Blocks plus their joined copy grow it by twice the output; one buffer by about once.
    expect(grew).toBeLessThan(size * 1.5);
  });
});
