/**
 * Antigravity codec benchmark: toCommon of a generated 2,000-step agy
 * conversation with realistic payloads (file views, command output, edits,
 * thinking), in both layouts, as MB/s of blob input, beside a baseline
 * measured in the same run that only walks the same bytes with the wire
 * reader: every blob toCommon reads decoded along the same message tree
 * (envelope, payload, tool calls, results), every tag read, no text decoded
 * and nothing built. Also fromCommon, the text form, and peak RSS.
 * `npx tsx bench/antigravity-codec.bench.ts [steps]`
 */

import { BinaryReader } from "@bufbuild/protobuf/wire";
import type { AntigravityBody } from "../src/harness/antigravity/body.js";
import { fromCommon, toCommon } from "../src/harness/antigravity/codec.js";
import { antigravityText } from "../src/harness/antigravity/text.js";
import { decode, type ProtoMessage, WireType } from "../src/protobuf.js";
import { EPOCH } from "../src/time.js";
import { buildConversation } from "../test/support/agy-fixtures.js";
import { mb, median, report, timeMedian } from "./util.js";

const STEPS = Number(process.argv[2] ?? 2000);
const ROUNDS = 7;
const RUNS = 9;
const WARMUP = 3;

/** The blobs toCommon reads (the metadata column duplicates Step field 5 and is not read). */
function blobs(body: AntigravityBody): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (const s of body.steps) {
    if (s.step_payload !== null) out.push(s.step_payload);
    if (s.error_details !== null) out.push(s.error_details);
  }
  for (const r of [
    ...body.gen_metadata,
    ...body.parent_references,
    ...body.trajectory_metadata_blob,
  ]) {
    if (r.data !== null) out.push(r.data);
  }
  return out;
}

/** The sub-messages the codec descends into, by field number, from a Step down. */
interface Tree {
  [field: number]: Tree;
}
const LEAF: Tree = {};
const STEP_TREE: Tree = {
  5: { 1: LEAF, 4: LEAF, 8: LEAF, 9: LEAF, 20: LEAF }, // envelope: times, call, usage, step info
  10: { 1: { 1: { 4: LEAF, 9: LEAF }, 2: { 2: LEAF } }, 2: { 1: LEAF } }, // code action
  14: LEAF,
  15: { 3: LEAF }, // list directory entries
  19: { 3: LEAF, 5: LEAF, 9: LEAF }, // user input items, images, media
  20: { 7: LEAF }, // planner tool calls
  28: { 19: LEAF, 21: LEAF }, // command output
  31: LEAF,
  140: { 2: LEAF }, // generic result
};
const BLOB_TREE: Tree = { 1: { 1: LEAF, 4: LEAF }, 2: LEAF }; // main blob, gen_metadata

/** The same walk with the library's BinaryReader (tag/skip), for reference. */
function libraryWalk(bytes: Uint8Array, tree: Tree): number {
  const reader = new BinaryReader(bytes);
  let n = 0;
  while (reader.pos < reader.len) {
    const [no, wire] = reader.tag();
    n++;
    const sub = tree[no];
    if (sub !== undefined && wire === WireType.LengthDelimited)
      n += libraryWalk(reader.bytes(), sub);
    else reader.skip(wire, no);
  }
  return n;
}

/** Like `walk`, and also decodes every string field along the tree (a reference, not the baseline). */
function walkText(m: ProtoMessage, tree: Tree): number {
  let n = m.length;
  for (let i = 0; i < m.length; i++) {
    if (m.wireType(i) !== WireType.LengthDelimited) continue;
    const sub = tree[m.fieldNo(i)];
    if (sub !== undefined) n += walkText(decode(m.valueBytes(i)), sub);
    else n += m.string(m.fieldNo(i))?.length ?? 0;
  }
  return n;
}

/** Walk a message along `tree`: every field's tag is read, no text is decoded, nothing is built. */
function walk(m: ProtoMessage, tree: Tree): number {
  let fields = m.length;
  for (let i = 0; i < m.length; i++) {
    const sub = tree[m.fieldNo(i)];
    if (sub !== undefined && m.wireType(i) === WireType.LengthDelimited) {
      fields += walk(decode(m.valueBytes(i)), sub);
    }
  }
  return fields;
}

let sink = 0;

const peak = { rss: process.memoryUsage().rss };
const sample = () => {
  peak.rss = Math.max(peak.rss, process.memoryUsage().rss);
};

for (const layout of ["generic", "typed"] as const) {
  const body = buildConversation({ steps: STEPS, layout, seed: 42, modelName: "gemini-3.8-flash" });
  const transcript = { meta: { id: body.id, timestamp: EPOCH }, body };
  const input = blobs(body);
  const bytes = input.reduce((n, b) => n + b.length, 0);

  // Interleave the measurements round by round so that all see the same
  // machine state; the ratio is the median of the per-round ratios.
  const walkAll = () => {
    for (const s of body.steps) sink += walk(decode(s.step_payload), STEP_TREE);
    for (const r of body.trajectory_metadata_blob) sink += walk(decode(r.data), BLOB_TREE);
    for (const r of body.gen_metadata) sink += walk(decode(r.data), BLOB_TREE);
  };
  const times = {
    walk: [] as number[],
    library: [] as number[],
    text: [] as number[],
    codec: [] as number[],
  };
  const ratios: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const w = await timeMedian(walkAll, RUNS, WARMUP);
    const c = await timeMedian(
      () => {
        sink += toCommon(transcript).body.length;
      },
      RUNS,
      WARMUP,
    );
    times.library.push(
      await timeMedian(
        () => {
          for (const s of body.steps) sink += libraryWalk(s.step_payload!, STEP_TREE);
        },
        RUNS,
        WARMUP,
      ),
    );
    times.text.push(
      await timeMedian(
        () => {
          for (const s of body.steps) sink += walkText(decode(s.step_payload), STEP_TREE);
        },
        RUNS,
        WARMUP,
      ),
    );
    times.walk.push(w);
    times.codec.push(c);
    ratios.push(c / w);
  }
  sample();
  const walkMs = median(times.walk);
  const codecMs = median(times.codec);
  const libraryMs = median(times.library);
  const textMs = median(times.text);
  const common = toCommon(transcript);
  const fromMs = await timeMedian(() => {
    sink += fromCommon(common).body.steps.length;
  }, 7);
  const text = antigravityText.render(transcript);
  const renderMs = await timeMedian(() => {
    sink += antigravityText.render(transcript).length;
  }, 7);
  const parseMs = await timeMedian(() => {
    sink += antigravityText.parse(text).body.steps.length;
  }, 7);
  sample();
  const rate = (ms: number, n = bytes) => `${(n / 1024 / 1024 / (ms / 1000)).toFixed(0)} MB/s`;
  report([
    {
      layout,
      steps: body.steps.length,
      messages: common.body.length,
      "blob input": mb(bytes),
    },
    { "walk-only baseline": `${walkMs.toFixed(1)} ms`, throughput: rate(walkMs) },
    {
      "same walk with the library's BinaryReader (reference)": `${libraryMs.toFixed(1)} ms`,
      throughput: rate(libraryMs),
    },
    {
      "walk + decode every string (reference)": `${textMs.toFixed(1)} ms`,
      throughput: rate(textMs),
    },
    {
      toCommon: `${codecMs.toFixed(1)} ms`,
      throughput: rate(codecMs),
      "ratio to walk": `${median(ratios).toFixed(2)}x`,
    },
    { fromCommon: `${fromMs.toFixed(1)} ms`, throughput: rate(fromMs) },
    {
      "text render": `${renderMs.toFixed(1)} ms`,
      "text parse": `${parseMs.toFixed(1)} ms`,
      "text size": mb(text.length),
    },
  ]);
}
report([{ "peak RSS": mb(peak.rss), sink: sink > 0 ? "ok" : "?" }]);
