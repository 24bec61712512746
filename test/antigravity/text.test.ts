/**
 * The Antigravity text form: byte-exact round trips of every row, column,
 * blob and extra table; txcript's keys and key order; errors that name the
 * row and column; malformed, hostile and huge documents.
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ParseError } from "../../src/errors.js";
import type {
  AntigravityBody,
  ExtraTable,
  SqlValue,
  StepRow,
} from "../../src/harness/antigravity/body.js";
import {
  antigravityText,
  parseAntigravity,
  renderAntigravity,
} from "../../src/harness/antigravity/text.js";
import { EPOCH } from "../../src/time.js";
import {
  buildConversation,
  legacyLayoutSession,
  resumedSession120,
  seedUserStep,
  toolsSession120,
} from "../support/agy-fixtures.js";

const render = (body: AntigravityBody) =>
  renderAntigravity({ meta: { id: body.id, timestamp: EPOCH }, body });

// ---------------------------------------------------------------------------
// Arbitrary bodies: every column, NULL and empty blobs, extra tables.

const blobArb = fc.oneof(
  { arbitrary: fc.constant(null), weight: 1 },
  { arbitrary: fc.uint8Array({ maxLength: 24 }), weight: 4 },
);
const int = fc.oneof(
  fc.integer({ min: -1000, max: 1000 }),
  fc.constantFrom(Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER),
);
const textArb = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: "binary", maxLength: 12 }),
);

const stepArb: fc.Arbitrary<Omit<StepRow, "idx">> = fc.record({
  step_type: int,
  status: int,
  has_subtrajectory: fc.boolean(),
  metadata: blobArb,
  error_details: blobArb,
  permissions: blobArb,
  task_details: blobArb,
  render_info: blobArb,
  step_payload: blobArb,
  step_format: int,
});

const cellArb: fc.Arbitrary<SqlValue> = fc.oneof(
  fc.constant(null),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Object.is(d, -0)),
  textArb,
  fc.uint8Array({ maxLength: 8 }),
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
);

const extraTableArb: fc.Arbitrary<ExtraTable> = fc.integer({ min: 1, max: 3 }).chain((width) =>
  fc.record({
    name: fc.stringMatching(/^[a-z_]{1,10}$/),
    sql: fc.constant("CREATE TABLE t(a, b, c)"),
    columns: fc.array(fc.stringMatching(/^[a-z]{1,5}$/), { minLength: width, maxLength: width }),
    rows: fc.array(fc.array(cellArb, { minLength: width, maxLength: width }), { maxLength: 3 }),
  }),
);

const idxRows = <T>(arb: fc.Arbitrary<T>) =>
  fc.uniqueArray(fc.tuple(int, arb), { selector: ([i]) => i, maxLength: 3 });

const bodyArb: fc.Arbitrary<AntigravityBody> = fc
  .record({
    id: fc.string({ minLength: 1, maxLength: 20 }),
    meta: fc.array(
      fc.record({
        trajectory_id: textArb,
        cascade_id: fc.option(textArb, { nil: null }),
        trajectory_type: fc.option(int, { nil: null }),
        source: fc.option(int, { nil: null }),
      }),
      { maxLength: 1 },
    ),
    steps: idxRows(stepArb),
    gen: idxRows(fc.record({ data: blobArb, size: int })),
    executor: idxRows(blobArb),
    parents: idxRows(blobArb),
    battles: idxRows(blobArb),
    blobs: fc.uniqueArray(fc.record({ id: textArb, data: blobArb }), {
      selector: (r) => r.id,
      maxLength: 2,
    }),
    extra: fc.array(extraTableArb, { maxLength: 2 }),
    transcript: fc.option(textArb, { nil: undefined }),
    transcript_full: fc.option(textArb, { nil: undefined }),
    lane: fc.option(fc.constantFrom("cli" as const, "acp" as const), { nil: undefined }),
    acp_meta: fc.option(textArb, { nil: undefined }),
  })
  .map((r) => {
    const body: AntigravityBody = {
      id: r.id,
      trajectory_meta: r.meta,
      steps: r.steps.map(([idx, s]) => ({ idx, ...s })),
      gen_metadata: r.gen.map(([idx, g]) => ({ idx, ...g })),
      executor_metadata: r.executor.map(([idx, data]) => ({ idx, data })),
      parent_references: r.parents.map(([idx, data]) => ({ idx, data })),
      battle_mode_infos: r.battles.map(([idx, data]) => ({ idx, data })),
      trajectory_metadata_blob: r.blobs,
      extra_tables: r.extra,
    };
    if (r.transcript !== undefined) body.transcript = r.transcript;
    if (r.transcript_full !== undefined) body.transcript_full = r.transcript_full;
    if (r.lane !== undefined) body.lane = r.lane;
    if (r.acp_meta !== undefined) body.acp_meta = r.acp_meta;
    return body;
  });

describe("round trip", () => {
  it("parse(render(body)) is the same Body, and render(parse(text)) the same bytes", () => {
    fc.assert(
      fc.property(bodyArb, (body) => {
        const text = render(body);
        const back = parseAntigravity(text);
        expect(back.body).toEqual(body);
        expect(renderAntigravity(back)).toBe(text);
      }),
      { numRuns: 200 },
    );
  });

  it("the sample replicas and generated conversations round-trip byte-exact", () => {
    for (const body of [
      toolsSession120(),
      resumedSession120(),
      legacyLayoutSession(),
      buildConversation({ steps: 60, layout: "typed", modelName: "gemini-3.8-flash" }),
    ]) {
      const text = render(body);
      const back = antigravityText.parse(text, "x.json");
      expect(back.body).toEqual(body);
      expect(antigravityText.render(back)).toBe(text);
    }
  });
});

describe("shape", () => {
  it("writes txcript's keys in its order, blobs as lowercase hex, empty and false omitted", () => {
    const step: StepRow = {
      ...seedUserStep(),
      error_details: new Uint8Array(0),
      has_subtrajectory: false,
    };
    const body: AntigravityBody = {
      id: "c1",
      trajectory_meta: [{ trajectory_id: "t1", cascade_id: "c1", trajectory_type: 4, source: 17 }],
      steps: [
        step,
        { ...step, idx: 1, has_subtrajectory: true, render_info: new Uint8Array([0xab, 0xcd]) },
      ],
      gen_metadata: [{ idx: 0, data: new Uint8Array([1]), size: 1 }],
      executor_metadata: [],
      parent_references: [],
      battle_mode_infos: [],
      trajectory_metadata_blob: [{ id: "main", data: new Uint8Array([0xff]) }],
      extra_tables: [],
      transcript_full: "{}\n",
    };
    const doc = JSON.parse(render(body));
    expect(Object.keys(doc)).toEqual([
      "trajectory_meta",
      "steps",
      "gen_metadata",
      "trajectory_metadata_blob",
      "transcript_full",
    ]);
    expect(Object.keys(doc.steps[0])).toEqual([
      "idx",
      "step_type",
      "status",
      "metadata",
      "step_payload",
      "step_format",
      "x_empty",
    ]);
    expect(Object.keys(doc.steps[1])).toEqual([
      "idx",
      "step_type",
      "status",
      "has_subtrajectory",
      "metadata",
      "render_info",
      "step_payload",
      "step_format",
      "x_empty",
    ]);
    expect(doc.steps[0].metadata).toBe("0a0608a0dbe1c4061804");
    expect(doc.steps[1].render_info).toBe("abcd");
    expect(doc.steps[0].x_empty).toEqual(["error_details"]);
    expect(doc.trajectory_metadata_blob).toEqual([{ id: "main", data: "ff" }]);
  });

  it("reads a document as txcript writes it (the seed's step), without our extra keys", () => {
    const text = `{
  "trajectory_meta": [{"trajectory_id": "t", "cascade_id": "0b9f6c1e", "trajectory_type": 4, "source": 17}],
  "steps": [{"idx": 0, "step_type": 14, "status": 3, "metadata": "0a0608a0dbe1c4061804",
    "step_payload": "080e20032a0a0a0608a0dbe1c40618049a012a12124669782074686520666c616b7920746573741a140a124669782074686520666c616b792074657374",
    "step_format": 0}]
}`;
    const t = parseAntigravity(text);
    expect(t.meta).toEqual({
      id: "0b9f6c1e",
      timestamp: "2025-08-10T10:00:00Z",
      title: "Fix the flaky test",
    });
    expect(t.body.steps[0]).toEqual(seedUserStep());
    // Uppercase hex is read too; our output is lowercase.
    expect(
      parseAntigravity(text.replace("0a0608a0dbe1c4061804", "0A0608A0DBE1C4061804")).body.steps[0]!
        .metadata,
    ).toEqual(seedUserStep().metadata);
  });

  it("keeps the Body id (the db stem) when it is not the cascade id", () => {
    const body = toolsSession120();
    body.id = "renamed-stem";
    const doc = JSON.parse(render(body));
    expect(doc.x_id).toBe("renamed-stem");
    expect(parseAntigravity(render(body)).body.id).toBe("renamed-stem");
    expect(JSON.parse(render(toolsSession120())).x_id).toBeUndefined();
  });

  it("a document with no id at all gets the same derived id every time", () => {
    const text = '{"trajectory_meta": [], "steps": []}';
    const a = parseAntigravity(text).body.id;
    expect(a).toMatch(/^[0-9a-f-]{36}$/);
    expect(parseAntigravity(text).body.id).toBe(a);
    expect(parseAntigravity(text).meta.id).toBe(a);
  });
});

describe("errors name the row and column", () => {
  const base = () => JSON.parse(render(toolsSession120()));
  const fail = (doc: unknown, origin = "conv.json") => {
    try {
      parseAntigravity(typeof doc === "string" ? doc : JSON.stringify(doc), origin);
    } catch (e) {
      expect(e).toBeInstanceOf(ParseError);
      return (e as Error).message;
    }
    throw new Error("parsed");
  };

  // biome-ignore lint/suspicious/noExplicitAny: each case edits the untyped JSON document
  it.each<[string, (d: any) => void, string]>([
    [
      "odd-length hex",
      (d) => {
        while (d.steps.length < 13) d.steps.push({ ...d.steps[0], idx: d.steps.length });
        d.steps[12].step_payload = "abc";
      },
      "conv.json: steps[12].step_payload: odd-length hex",
    ],
    [
      "a bad hex digit",
      (d) => {
        d.steps[1].metadata = "0g";
      },
      'conv.json: steps[1].metadata: invalid hex digit "g" at offset 1',
    ],
    [
      "a missing column",
      (d) => {
        delete d.steps[2].step_payload;
      },
      'conv.json: steps[2]: a steps row needs "step_payload"',
    ],
    [
      "a wrong type",
      (d) => {
        d.steps[0].idx = "0";
      },
      'conv.json: steps[0].idx: expected an integer, got "0"',
    ],
    [
      "a fractional number",
      (d) => {
        d.steps[0].status = 1.5;
      },
      "conv.json: steps[0].status: expected an integer, got 1.5",
    ],
    [
      "a duplicate idx",
      (d) => {
        d.steps[3].idx = 1;
      },
      "conv.json: steps[3].idx: 1 is used twice",
    ],
    [
      "a duplicate blob id",
      (d) => {
        d.trajectory_metadata_blob.push(d.trajectory_metadata_blob[0]);
      },
      'conv.json: trajectory_metadata_blob[1].id: "main" is used twice',
    ],
    [
      "gen_metadata data",
      (d) => {
        d.gen_metadata[0].data = 5;
      },
      "conv.json: gen_metadata[0].data: expected a string, got 5",
    ],
    [
      "a missing table",
      (d) => {
        delete d.steps;
      },
      'conv.json: an Antigravity document needs "steps"',
    ],
    [
      "x_empty naming a column with data",
      (d) => {
        d.steps[0].x_empty = ["metadata"];
      },
      'conv.json: steps[0].x_empty[0]: expected one of error_details, permissions, task_details, render_info, got "metadata"',
    ],
    [
      "a bad lane",
      (d) => {
        d.x_lane = "hub";
      },
      'conv.json: x_lane: expected "cli", "acp", "desktop" or "ide", got "hub"',
    ],
    [
      "a short extra-table row",
      (d) => {
        d.x_extra_tables = [
          { name: "t", sql: "CREATE TABLE t(a)", columns: ["a", "b"], rows: [[1]] },
        ];
      },
      "conv.json: x_extra_tables[0].rows[0]: has 1 cells for 2 columns",
    ],
    [
      "an extra-table cell",
      (d) => {
        d.x_extra_tables = [{ name: "t", sql: "", columns: ["a"], rows: [[{ int: "1e3" }]] }];
      },
      'conv.json: x_extra_tables[0].rows[0][0].int: expected a decimal integer, got "1e3"',
    ],
  ])("%s", (_, mutate, message) => {
    const d = base();
    mutate(d);
    expect(fail(d)).toBe(message);
  });

  it("not JSON, empty, not an object, another tool's document", () => {
    expect(fail('{\n  "steps": [\n    {,]\n}')).toMatch(
      /^conv\.json: line 3, column 6: invalid JSON/,
    );
    expect(fail("")).toBe("conv.json: invalid JSON: the input is empty");
    expect(fail("[]")).toBe("conv.json: expected an object, got an array");
    expect(fail({ messages: [{ role: "user", content: "hi" }] })).toBe(
      'conv.json: an Antigravity document needs "trajectory_meta"',
    );
  });

  it("hostile documents: deep nesting, huge strings, prototype keys, never a crash", () => {
    const deep = `{"trajectory_meta": [], "steps": ${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
    expect(() => parseAntigravity(deep, "deep.json")).toThrow(ParseError);
    const proto =
      '{"__proto__": {"polluted": true}, "trajectory_meta": [], "steps": [], "constructor": 1}';
    expect(parseAntigravity(proto).body.steps).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // A 24 MB step payload parses, and a 24 MB odd-length one is refused with its location.
    const big = "ab".repeat(12 * 1024 * 1024);
    const doc = (payload: string) =>
      `{"trajectory_meta": [], "steps": [{"idx": 0, "step_type": 132, "status": 3, "metadata": null, "step_payload": "${payload}"}]}`;
    expect(parseAntigravity(doc(big)).body.steps[0]!.step_payload!.length).toBe(12 * 1024 * 1024);
    expect(fail(doc(`${big}a`))).toBe("conv.json: steps[0].step_payload: odd-length hex");
  });

  it("unknown keys are ignored (documents from newer writers still load)", () => {
    const d = base();
    d.future_table = [{ idx: 0 }];
    d.steps[0].future_column = "x";
    expect(parseAntigravity(JSON.stringify(d)).body).toEqual(toolsSession120());
  });
});
