/**
 * Grok's `/rewind` read as Grok replays it (xai-org/grok-build, the
 * `rewind_marker` update and its dead-branch filter): the turns after the
 * target prompt drop out of Common while every line stays in the Body;
 * `promptIndex`-marked runs, host turns and out-of-range targets; a
 * property over random logs; and `view` through the built binary.
 */

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../src/common.js";
import { harness } from "../../src/harness/index.js";
import { txcript } from "../support/cli.js";
import { hashTree, tempDir } from "../support/tmp.js";

const grok = harness("grok");
const SID = "0199e0a1-7c2b-7d4e-9f10-3a5b6c7d8e77";

function acp(update: JsonObject, t: number): JsonObject {
  return {
    timestamp: 1_784_388_000 + t,
    method: "session/update",
    params: { sessionId: SID, update },
  };
}
function xai(update: JsonObject, t: number): JsonObject {
  return {
    timestamp: 1_784_388_000 + t,
    method: "_x.ai/session/update",
    params: { sessionId: SID, update },
  };
}
const user = (text: string, t: number, meta?: JsonObject) =>
  acp(
    {
      sessionUpdate: "user_message_chunk",
      content: { type: "text", text },
      ...(meta ? { _meta: meta } : {}),
    },
    t,
  );
const agent = (text: string, t: number) =>
  acp({ sessionUpdate: "agent_message_chunk", content: { type: "text", text } }, t);
const rewind = (target: number, t: number) =>
  xai(
    {
      sessionUpdate: "rewind_marker",
      target_prompt_index: target,
      created_at: "2026-07-18T10:00:00Z",
    },
    t,
  );

const textOf = (lines: JsonObject[]) => lines.map((l) => `${JSON.stringify(l)}\n`).join("");
const said = (lines: JsonObject[]) =>
  grok.codec
    .toCommon(grok.text.parse(textOf(lines), `x/${SID}/updates.jsonl`))
    .body.flatMap((m) => m.content.flatMap((b) => (b.type === "text" ? [b.text] : [b.type])));

describe("Grok rewinds", () => {
  it("drops the turns after the target prompt, as Grok's replay does, keeping every line in the Body", () => {
    const lines = [
      user("p1", 1),
      agent("r1", 2),
      user("p2", 3),
      agent("r2", 4),
      rewind(1, 5),
      user("p3", 6),
      agent("r3", 7),
      rewind(1, 8),
      user("final", 9),
      agent("done", 10),
    ];
    expect(said(lines)).toEqual(["p1", "r1", "final", "done"]);
    const parsed = grok.text.parse(textOf(lines), `x/${SID}/updates.jsonl`);
    expect(parsed.body.updates).toHaveLength(10);
    expect(grok.text.render(parsed)).toContain('"rewind_marker"');
  });

  it("counts promptIndex-marked runs, skips host turns, and keeps all for a target past the prompts", () => {
    const marked = [
      user("a", 1, { promptIndex: 0 }),
      user("b", 2, { promptIndex: 1 }),
      agent("r", 3),
      user("host", 4, { hostTurn: true }),
      agent("r2", 5),
      rewind(1, 6),
    ];
    // Two prompts in one run of user chunks: the rewind to 1 keeps the first.
    expect(said(marked)).toEqual(["a"]);
    expect(said([user("a", 1), agent("r", 2), rewind(5, 3), agent("more", 4)])).toEqual([
      "a",
      "rmore",
    ]);
    expect(said([user("a", 1), agent("r", 2), rewind(0, 3), user("b", 4)])).toEqual(["b"]);
  });

  it("a rewind to prompt k keeps exactly k prompts and their replies", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.nat(8), (n, k) => {
        const lines: JsonObject[] = [];
        for (let i = 0; i < n; i++) lines.push(user(`p${i}`, i * 2), agent(`r${i}`, i * 2 + 1));
        lines.push(rewind(k, 99));
        const kept = Math.min(k, n);
        const expected = Array.from({ length: kept }, (_, i) => [`p${i}`, `r${i}`]).flat();
        expect(said(lines)).toEqual(expected);
      }),
      { numRuns: 60 },
    );
  });

  it("views a rewound session through the built binary without the dropped turn", () => {
    const home = tempDir("grok-rewind-");
    const dir = join(home, "sessions", "%2Fwork%2Fshop", SID);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, "updates.jsonl"),
      textOf([
        user("keep this", 1),
        agent("kept", 2),
        user("a wrong turn", 3),
        agent("undone", 4),
        rewind(1, 5),
      ]),
    );
    const before = hashTree(home);
    const env = { TXCRIPT_GROK_ROOT: home, TXCRIPT_CACHE: join(tempDir("grok-cache-"), "c") };
    const view = txcript(["view", SID, "--no-pager"], { env });
    expect(view.stderr).toBe("");
    expect(view.status).toBe(0);
    expect(view.stdout).toContain("keep this");
    expect(view.stdout).not.toContain("a wrong turn");
    expect(view.stdout).not.toContain("rewind_marker");
    expect(hashTree(home)).toEqual(before);
  });
});
