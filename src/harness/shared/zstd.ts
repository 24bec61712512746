/**
 * zstd decompression with a cap on its output (a small hostile file can
 * claim gigabytes), through fzstd: a maintained pure-JS decoder, as Node 20
 * has no zstd of its own. Pure: bytes in, bytes out.
 */

import { Decompress } from "fzstd";

/** Field sizes of a frame header's dictionary id, by its 2-bit flag (RFC 8878, 3.1.1.1.1). */
const DICT_ID_BYTES = [0, 1, 2, 4] as const;

/**
 * The content size a zstd frame's header states (RFC 8878, 3.1.1.1.4), or
 * undefined when the data is not a zstd frame or the header states none
 * (a streaming writer may leave it out).
 */
export function statedContentSize(data: Uint8Array): number | undefined {
  if (data[0] !== 0x28 || data[1] !== 0xb5 || data[2] !== 0x2f || data[3] !== 0xfd)
    return undefined;
  const descriptor = data[4] ?? 0;
  const singleSegment = (descriptor >> 5) & 1;
  const sizeFlag = descriptor >> 6;
  const sizeBytes = sizeFlag === 0 ? singleSegment : 1 << sizeFlag;
  if (sizeBytes === 0) return undefined;
  // Magic, descriptor, a window byte unless single-segment, then the dictionary id.
  const at = 5 + (singleSegment === 1 ? 0 : 1) + (DICT_ID_BYTES[descriptor & 3] ?? 0);
  if (at + sizeBytes > data.length) return undefined;
  let size = 0;
  for (let i = sizeBytes - 1; i >= 0; i--) size = size * 256 + (data[at + i] ?? 0);
  // A two-byte field counts from 256 (sizes below need only one byte).
  return sizeBytes === 2 ? size + 256 : size;
}

/**
 * Decompress `data`, refusing output beyond `cap` bytes (a RangeError).
 * When the first frame states its size (as `zstd` writes a file's), the
 * output is written into one buffer of that size as it is decoded: peak
 * memory is the input and the output, not the decoded blocks and their
 * joined copy besides. A larger real output (more frames) falls back to
 * collecting blocks.
 */
export function decompressCapped(data: Uint8Array, cap: number): Uint8Array {
  if (data.length === 0) throw new RangeError("empty zstd file");
  const stated = statedContentSize(data);
  // Untouched pages of a large zeroed buffer are not resident, so a header
  // that overstates costs address space, not memory.
  let out =
    stated !== undefined && stated > 0 && stated <= cap ? new Uint8Array(stated) : undefined;
  const chunks: Uint8Array[] = [];
  let size = 0;
  const stream = new Decompress((chunk) => {
    if (size + chunk.length > cap) throw new RangeError(`decompresses to more than ${cap} bytes`);
    if (out !== undefined && size + chunk.length <= out.length) {
      out.set(chunk, size);
    } else {
      if (out !== undefined) chunks.push(out.subarray(0, size));
      out = undefined;
      chunks.push(chunk);
    }
    size += chunk.length;
  });
  const step = 1 << 16;
  for (let i = 0; i < data.length; i += step) {
    stream.push(data.subarray(i, i + step), i + step >= data.length);
  }
  if (out !== undefined) return size === out.length ? out : out.subarray(0, size);
  const joined = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    joined.set(c, at);
    at += c.length;
  }
  return joined;
}
