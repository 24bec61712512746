/**
 * The listing summary agrees with toCommon on every field a listing shows,
 * from only the rows discovery reads; and the brain mirror regenerated from
 * the sample replicas matches what agy 1.2.0 wrote.
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AntigravityBody, StepRow } from "../../src/harness/antigravity/body.js";
import { antigravityLineage, toCommon } from "../../src/harness/antigravity/codec.js";
import { renderMirror } from "../../src/harness/antigravity/mirror.js";
import { type ListingRows, listingRows, summarize } from "../../src/harness/antigravity/summary.js";
import { EPOCH } from "../../src/time.js";
import {
  buildConversation,
  checkpointPayload,
  genMetadataRow,
  legacyLayoutSession,
  mainBlobData,
  parentReferenceRow,
  readSample,
  resumedSession120,
  S,
  stepRow,
  T,
  toolsSession120,
  userInputPayload,
} from "../support/agy-fixtures.js";

function metaOf(body: AntigravityBody) {
  return toCommon({ meta: { id: body.id, timestamp: EPOCH }, body }).meta;
}

/** The rows a store reads, picked here independently of `listingRows`. */
function pickRows(body: AntigravityBody): ListingRows {
  const byIdx = [...body.steps].sort((a, b) => a.idx - b.idx);
  const last = <T>(xs: T[]) => xs[xs.length - 1];
  const rows: ListingRows = {
    id: body.id,
    trajectory_meta: body.trajectory_meta,
    trajectory_metadata_blob: body.trajectory_metadata_blob,
    parent_references: body.parent_references,
  };
  const firstUser = byIdx.find((s) => s.step_type === 14);
  const checkpoint = last(byIdx.filter((s) => s.step_type === 23));
  const planner = last(byIdx.filter((s) => s.step_type === 15));
  const gen = [...body.gen_metadata].sort((a, b) => b.idx - a.idx).slice(0, 8);
  if (firstUser) rows.first_user_input = firstUser;
  if (checkpoint) rows.latest_checkpoint = checkpoint;
  if (planner) rows.latest_planner = planner;
  if (gen.length > 0) rows.recent_gen_metadata = gen;
  if (byIdx[0]) rows.first_step = byIdx[0];
  if (last(byIdx)) rows.last_step = last(byIdx)!;
  return rows;
}

describe("summarize", () => {
  it("agrees with toCommon on the sample replicas and the legacy session", () => {
    for (const body of [toolsSession120(), resumedSession120(), legacyLayoutSession()]) {
      const listing = summarize(pickRows(body));
      expect(listing.meta).toEqual(metaOf(body));
      expect(listing).toEqual(summarize(listingRows(body)));
    }
  });

  it("gives last activity, subagent parent and fork origin", () => {
    const body = toolsSession120();
    expect(summarize(pickRows(body)).updated).toBe("2026-09-10T15:14:21Z");
    body.trajectory_metadata_blob = [
      { id: "main", data: mainBlobData({ parentConversationId: "p-1", conversationId: "root" }) },
    ];
    body.parent_references = [parentReferenceRow(0, { type: 2, conversationId: "fork-src" })];
    const listing = summarize(pickRows(body));
    expect(listing.parent_id).toBe("p-1");
    expect(listing.forked_from).toBe("fork-src");
    const lineage = antigravityLineage(body);
    expect([lineage.parent_id, lineage.forked_from]).toEqual(["p-1", "fork-src"]);
  });

  it("an empty database: the stem, the epoch, nothing else", () => {
    expect(
      summarize({
        id: "stem",
        trajectory_meta: [],
        trajectory_metadata_blob: [],
        parent_references: [],
      }),
    ).toEqual({
      meta: { id: "stem", timestamp: EPOCH },
    });
  });

  it("agrees with toCommon for any mix of blobs, checkpoints, models and missing rows", () => {
    const variant = fc.record({
      layout: fc.constantFrom("generic" as const, "typed" as const),
      steps: fc.integer({ min: 0, max: 30 }),
      seed: fc.nat(),
      dropMain: fc.boolean(),
      dropCascade: fc.boolean(),
      emptyPrompt: fc.boolean(),
      checkpoint: fc.option(
        fc.record({
          title: fc.option(fc.string(), { nil: undefined }),
          intent: fc.option(fc.string(), { nil: undefined }),
        }),
        { nil: undefined },
      ),
      gen: fc.option(
        fc.record({
          name: fc.option(fc.string(), { nil: undefined }),
          display: fc.option(fc.string(), { nil: undefined }),
        }),
        { nil: undefined },
      ),
      shuffle: fc.boolean(),
    });
    fc.assert(
      fc.property(variant, (v) => {
        const body = buildConversation({
          layout: v.layout,
          steps: v.steps,
          seed: v.seed,
          payloadBytes: 100,
        });
        if (v.steps === 0) body.steps = [];
        if (v.dropMain) body.trajectory_metadata_blob = [];
        if (v.dropCascade)
          body.trajectory_meta = [{ ...body.trajectory_meta[0]!, cascade_id: null }];
        if (v.emptyPrompt && body.steps[0]) {
          body.steps[0] = stepRow({
            idx: 0,
            type: T.USER_INPUT,
            status: S.DONE,
            meta: {},
            payload: userInputPayload(""),
          });
        }
        if (v.checkpoint) {
          const p: { title?: string; intent?: string } = {};
          if (v.checkpoint.title !== undefined) p.title = v.checkpoint.title;
          if (v.checkpoint.intent !== undefined) p.intent = v.checkpoint.intent;
          body.steps.push(
            stepRow({
              idx: 1000,
              type: T.CHECKPOINT,
              status: S.DONE,
              meta: {},
              payload: checkpointPayload(p),
            }),
          );
        }
        if (v.gen) {
          const g: { name?: string; display?: string } = {};
          if (v.gen.name !== undefined) g.name = v.gen.name;
          if (v.gen.display !== undefined) g.display = v.gen.display;
          body.gen_metadata.push(genMetadataRow(7, g));
        }
        if (v.shuffle) body.steps.reverse();
        const listing = summarize(pickRows(body));
        expect(listing.meta).toEqual(metaOf(body));
        const lineage = antigravityLineage(body);
        expect(listing.parent_id).toBe(lineage.parent_id);
        expect(listing.forked_from).toBe(lineage.forked_from);
      }),
      { numRuns: 150 },
    );
  });
});

// ---------------------------------------------------------------------------

/** One mirror file's lines, parsed. */
const lines = (text: string) =>
  text
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);

function expectMirror(steps: StepRow[], file: string, which: "full" | "compact") {
  const got = lines(renderMirror(steps)[which]);
  const want = lines(readSample(file));
  expect(got.map((l) => l.step_index)).toEqual(want.map((l) => l.step_index));
  got.forEach((line, i) => {
    const sample = want[i]!;
    if (line.type === "USER_INPUT") {
      // agy appends a <USER_SETTINGS_CHANGE> block the database does not hold.
      const { content, ...rest } = line;
      const { content: sampleContent, ...sampleRest } = sample;
      expect(rest).toEqual(sampleRest);
      expect((sampleContent as string).startsWith(content as string)).toBe(true);
      expect(JSON.stringify(Object.keys(line))).toBe(JSON.stringify(Object.keys(sample)));
    } else {
      // Same keys, same order, same values.
      expect(JSON.stringify(line)).toBe(JSON.stringify(sample));
    }
  });
}

describe("brain mirror", () => {
  it("regenerates the tools sample's transcript_full.jsonl from the replica's steps", () => {
    expectMirror(toolsSession120().steps, "tools-1.2.0.transcript_full.jsonl", "full");
  });

  it("regenerates the compact transcript.jsonl (argument values JSON-encoded)", () => {
    expectMirror(toolsSession120().steps, "tools-1.2.0.transcript.jsonl", "compact");
  });

  it("regenerates the resumed sample: RUNNING step, restart notice", () => {
    expectMirror(resumedSession120().steps, "resumed-1.2.0.transcript_full.jsonl", "full");
  });

  it("an empty conversation has empty mirror files; every line ends with a newline", () => {
    expect(renderMirror([])).toEqual({ full: "", compact: "" });
    const m = renderMirror(legacyLayoutSession().steps);
    expect(m.full.endsWith("}\n")).toBe(true);
    expect(lines(m.full).map((l) => l.type)).toContain("CHECKPOINT");
  });
});
