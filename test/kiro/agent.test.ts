/**
 * Kiro's agent engine (KAS: `kiro-cli chat --v3`, the Kiro IDE) read from
 * stores built from the documented format (`sessions/<bucket>/sess_<uuid>/`
 * with `session.json` and `messages.jsonl`): every payload kind, a revert
 * tombstone withdrawing its turn, a summarization keeping what was said,
 * unknown kinds kept as Raw records, the text form byte for byte, the
 * 2.x engine's `cli` folder and duplicate buckets, malformed, truncated and
 * huge inputs, properties of the row parser, and the CLI through the built
 * binary (list, view, query), leaving the files untouched.
 */

import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../src/common.js";
import { ParseError, UnsupportedError } from "../../src/errors.js";
import { harness } from "../../src/harness/index.js";
import { KiroStore } from "../../src/harness/kiro/index.js";
import { sampleOf } from "../../src/sniff.js";
import { txcript } from "../support/cli.js";
import { createKiroSessions, everyKindSession } from "../support/kiro.js";
import {
  AGENT_ID,
  agentSessionJson,
  BUCKET,
  createKiroAgentSessions,
  everyKindAgentSession,
  row,
  SUB_ID,
  subAgentRows,
} from "../support/kiro-agent.js";
import { hashTree, tempDir } from "../support/tmp.js";

const kiro = harness("kiro");
const messagesOf = (root: string, id = AGENT_ID, bucket = BUCKET) =>
  join(root, "sessions", bucket, id, "messages.jsonl");

function storeWith(...sessions: Parameters<typeof createKiroAgentSessions>[1]) {
  const root = tempDir("kiro-agent-");
  createKiroAgentSessions(root, sessions);
  return { root, store: new KiroStore({ root, env: {} }) };
}

describe("Kiro agent-engine sessions", () => {
  it("reads every payload kind, joining chunks and withdrawing a reverted turn", () => {
    const { store } = storeWith(everyKindAgentSession());
    const t = kiro.codec.toCommon(store.load(AGENT_ID));
    expect(t.meta).toEqual({
      id: AGENT_ID,
      timestamp: "2026-07-29T10:00:00Z",
      cwd: "/work/shop",
      title: "Fix the cart total",
      model: "claude-sonnet-4.5",
    });
    expect(t.body.map((m) => m.role)).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
    const [prompt, first, results, read, readResult, delegated, subResult, last] = t.body;
    expect(prompt?.content).toEqual([
      { type: "text", text: "npm test fails on the cart total" },
      { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw==" } },
    ]);
    expect(prompt?.timestamp).toBe("2026-07-29T10:00:01Z");
    // Reasoning and Say chunks of one execution join; the reasoning's model is the reply's.
    expect(first?.model).toBe("claude-opus-4.5");
    expect(first?.content).toEqual([
      { type: "thinking", text: "Run the tests first.", signature: "sig-1" },
      { type: "text", text: "Running the tests." },
      { type: "tool_use", id: "t1", tool: { name: "Bash", command: "npm test" } },
    ]);
    expect(results?.content).toEqual([
      { type: "tool_result", tool_use_id: "t1", content: "1 failing", is_error: true },
    ]);
    expect(read?.content).toEqual([
      {
        type: "tool_use",
        id: "t2",
        tool: { name: "Raw", tool_name: "fs_read", input: { path: "cart.js" } },
      },
    ]);
    expect(readResult?.content).toEqual([
      { type: "tool_result", tool_use_id: "t2", content: "const TAX = 1.2" },
    ]);
    // A hook run is a Raw record; a subagent is a call and its result.
    expect(delegated?.content.map((b) => (b.type === "tool_use" ? b.id : b.type))).toEqual([
      "kiro-record:h1",
      "sub-1",
    ]);
    expect(delegated?.content[1]).toEqual({
      type: "tool_use",
      id: "sub-1",
      tool: {
        name: "Raw",
        tool_name: "sub_agent",
        input: {
          subAgentName: "researcher",
          prompt: "find the tax constant",
          explanation: "look it up",
        },
      },
    });
    expect(subResult?.content).toEqual([
      { type: "tool_result", tool_use_id: "sub-1", content: "TAX is in cart.js" },
    ]);
    // The reverted turn and the compaction summary are not shown; errors, mode
    // changes and an unknown kind are Raw records.
    expect(last?.stop_reason).toBe("end_turn");
    expect(last?.content).toEqual([
      { type: "text", text: "Fixed: the constant was wrong." },
      {
        type: "tool_use",
        id: "kiro-record:mode",
        tool: {
          name: "Raw",
          tool_name: "mode_change",
          input: { fromMode: "vibe", toMode: "spec", reason: "user" },
        },
      },
      {
        type: "tool_use",
        id: "kiro-record:err",
        tool: {
          name: "Raw",
          tool_name: "error",
          input: { message: "ModelThrottleError", code: "throttled" },
        },
      },
      {
        type: "tool_use",
        id: "kiro-record:odd",
        tool: { name: "Raw", tool_name: "teleport", input: { to: "mars" } },
      },
    ]);
    const text = JSON.stringify(t.body);
    for (const gone of ["a wrong turn", "going the wrong way", "The user fixed", "bootstrap"])
      expect(text).not.toContain(gone);
    // Every row stays in the Body, the row without a type included.
    const body = store.load(AGENT_ID).body;
    expect(body.layout === "agent" ? body.rows.length : 0).toBe(37);
  });

  it("lists the session from session.json, beside the 2.x engine's cli folder", async () => {
    const { root, store } = storeWith(everyKindAgentSession());
    createKiroSessions(root, [everyKindSession()]);
    const found = await store.discover();
    expect(found.skipped).toEqual([]);
    const agent = found.sessions.find((s) => s.id === AGENT_ID);
    expect(agent).toMatchObject({
      path: messagesOf(root),
      updated: "2026-07-29T10:05:00Z",
      status: "idle",
      lane: "agent",
      meta: { cwd: "/work/shop", title: "Fix the cart total" },
    });
    expect(found.sessions.map((s) => s.id).sort()).toEqual(store.ids());
    expect(store.fingerprint(AGENT_ID)?.files.map((f) => f.path)).toEqual([
      messagesOf(root),
      join(root, "sessions", BUCKET, AGENT_ID, "session.json"),
    ]);
  });

  it("reads a fork's parent, a session without session.json, and one id in two buckets once", async () => {
    const fork = "sess_00000000-0000-4000-8000-000000000002";
    const bare = "sess_00000000-0000-4000-8000-000000000003";
    const { root, store } = storeWith(
      everyKindAgentSession(),
      {
        id: fork,
        session: agentSessionJson(fork, { parentSessionId: AGENT_ID, createdReason: "rewind" }),
        rows: [row("f1", { type: "user", content: "forked" }, 70)],
      },
      { id: bare, rows: [row("b1", { type: "user", content: "no metadata" }, 80)] },
      // Kiro copies metadata to other buckets; a second full copy is named and skipped.
      { id: AGENT_ID, bucket: "ffffffffffffffff", rows: [] },
    );
    const found = await store.discover();
    expect(found.sessions.find((s) => s.id === fork)?.parent_id).toBe(AGENT_ID);
    const b = kiro.codec.toCommon(store.load(bare));
    expect(b.meta).toEqual({ id: bare, timestamp: "2026-07-29T10:01:20Z" });
    expect(b.body).toEqual([
      {
        role: "user",
        content: [{ type: "text", text: "no metadata" }],
        timestamp: "2026-07-29T10:01:20Z",
      },
    ]);
    expect(found.skipped).toEqual([
      {
        path: messagesOf(root, AGENT_ID, "ffffffffffffffff"),
        reason: `Kiro session ${AGENT_ID} is also in an earlier workspace folder, which is read`,
      },
    ]);
  });

  it("lists each subagent transcript as a sub-session of its root, and reads its rows", async () => {
    const fork = "sess_00000000-0000-4000-8000-000000000004";
    const { root, store } = storeWith(
      { ...everyKindAgentSession(), subs: { [SUB_ID]: subAgentRows() } },
      // A fork copies the sub-execution files it references, under the same names.
      {
        id: fork,
        session: agentSessionJson(fork, { parentSessionId: AGENT_ID }),
        rows: [row("f1", { type: "user", content: "forked" }, 70)],
        subs: { [SUB_ID]: subAgentRows() },
      },
    );
    const subPath = join(root, "sessions", BUCKET, AGENT_ID, "sub-executions", `${SUB_ID}.jsonl`);
    const subId = `${AGENT_ID}.${SUB_ID}`;
    const found = await store.discover();
    expect(found.skipped).toEqual([]);
    expect(found.sessions.find((s) => s.id === subId)).toMatchObject({
      path: subPath,
      lane: "subagent",
      parent_id: AGENT_ID,
      message_count: 5,
      meta: { id: subId, cwd: "/work/shop", model: "claude-sonnet-4.5" },
    });
    expect(found.sessions.find((s) => s.id === `${fork}.${SUB_ID}`)?.parent_id).toBe(fork);
    expect(found.sessions.map((s) => s.id).sort()).toEqual(store.ids());
    expect(store.fingerprint(subId)?.files.map((f) => f.path)).toEqual([
      subPath,
      join(root, "sessions", BUCKET, AGENT_ID, "session.json"),
    ]);
    const t = kiro.codec.toCommon(store.load(subId));
    expect(t.meta).toMatchObject({
      id: subId,
      title: "researcher",
      timestamp: "2026-07-29T10:00:15Z",
    });
    // Its prompt, from the root's start row, opens it.
    expect(t.body[0]).toEqual({
      role: "user",
      content: [{ type: "text", text: "find the tax constant" }],
      timestamp: "2026-07-29T10:00:15Z",
    });
    expect(t.body.slice(1).map((m) => [m.role, m.content.map((b) => b.type)])).toEqual([
      ["assistant", ["thinking", "text", "tool_use"]],
      ["user", ["tool_result"]],
      ["assistant", ["tool_use"]],
      ["user", ["tool_result"]],
      ["assistant", ["text"]],
    ]);
    // The nested subagent's failure is an error result naming why.
    expect(t.body[4]?.content[0]).toMatchObject({
      tool_use_id: "sub-2",
      content: "timed out",
      is_error: true,
    });
    expect(t.body[1]?.content[2]).toMatchObject({
      id: "x-t1",
      tool: { name: "Bash", command: "grep -n TAX cart.js" },
    });
    // The text form keeps the start row: title and prompt come back.
    const text = kiro.text.render(store.load(subId));
    expect(text.split("\n")[0]).toMatch(/^\{"kiro_agent_session":\{\},"kiro_agent_start":/);
    expect(kiro.text.render(kiro.text.parse(text))).toBe(text);
    expect(kiro.codec.toCommon(kiro.text.parse(text)).body[0]).toEqual(t.body[0]);
    // The root's call to the subagent has the sub-execution's id as its own.
    const parent = kiro.codec.toCommon(store.load(AGENT_ID));
    const call = parent.body
      .flatMap((m) => m.content)
      .find((b) => b.type === "tool_use" && b.id === SUB_ID);
    expect(call).toBeDefined();
  });

  it("skips a subagent transcript that is not JSON lines, naming it, and ignores other files", async () => {
    const { root, store } = storeWith({
      ...everyKindAgentSession(),
      subs: { [SUB_ID]: "not json\n{}\n", empty: "" },
    });
    const dir = join(root, "sessions", BUCKET, AGENT_ID, "sub-executions");
    writeFileSync(join(dir, "notes.txt"), "not a transcript");
    mkdirSync(join(dir, "nested.jsonl"));
    const found = await store.discover();
    expect(found.sessions.map((s) => s.id).sort()).toEqual([AGENT_ID, `${AGENT_ID}.empty`]);
    expect(found.sessions.find((s) => s.id === `${AGENT_ID}.empty`)?.message_count).toBe(0);
    expect(found.skipped).toHaveLength(1);
    expect(found.skipped[0]?.path).toBe(join(dir, `${SUB_ID}.jsonl`));
    expect(found.skipped[0]?.reason).toMatch(/not a JSON line/);
    expect(() => store.load(`${AGENT_ID}.${SUB_ID}`)).toThrow(ParseError);
    // A hostile line (deeply nested) is one line of error, not a crash.
    writeFileSync(join(dir, `${SUB_ID}.jsonl`), `${"[".repeat(100_000)}${"]".repeat(100_000)}\n`);
    let error: unknown;
    try {
      store.load(`${AGENT_ID}.${SUB_ID}`);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(Error);
    expect(error instanceof Error ? error.message : "").not.toContain("\n");
  });

  it("round-trips messages.jsonl byte for byte through the text form, and detects it", () => {
    const { root, store } = storeWith(everyKindAgentSession());
    const raw = readFileSync(messagesOf(root), "utf8");
    expect(kiro.text.detect?.(sampleOf(new TextEncoder().encode(raw)))).toBe("text");
    const parsed = kiro.text.parse(raw, messagesOf(root));
    expect(parsed.meta.id).toBe(AGENT_ID);
    expect(kiro.text.render(parsed)).toBe(raw);
    // With its session.json as a header line, the text keeps id, folder, title and model.
    const full = kiro.text.render(store.load(AGENT_ID));
    expect(full.split("\n")[0]).toMatch(/^\{"kiro_agent_session":\{"schemaVersion"/);
    expect(kiro.text.detect?.(sampleOf(new TextEncoder().encode(full)))).toBe("text");
    const back = kiro.codec.toCommon(kiro.text.parse(full));
    expect(back.meta).toMatchObject({
      id: AGENT_ID,
      cwd: "/work/shop",
      title: "Fix the cart total",
    });
    expect(kiro.text.render(kiro.text.parse(full))).toBe(full);
  });

  it("leaves out a last line cut short, and names a malformed line", () => {
    const cut = storeWith({ ...everyKindAgentSession(), tail: '{"id":"late","timestamp":"2026' });
    expect(kiro.codec.toCommon(cut.store.load(AGENT_ID)).body).toHaveLength(8);
    const bad = storeWith({ ...everyKindAgentSession(), tail: "not json\n" });
    expect(() => bad.store.load(AGENT_ID)).toThrow(ParseError);
    expect(() => bad.store.load(AGENT_ID)).toThrow(/line 38: not a JSON line/);
    const list = storeWith({ ...everyKindAgentSession(), tail: "[1,2]\n" });
    expect(() => list.store.load(AGENT_ID)).toThrow(/expected a JSON object/);
  });

  it("refuses a huge line in one line, and names a session.json that is not JSON", async () => {
    const { root, store } = storeWith(everyKindAgentSession());
    const path = messagesOf(root);
    writeFileSync(join(root, "sessions", BUCKET, AGENT_ID, "session.json"), "{oops");
    const found = await store.discover();
    expect(found.sessions).toEqual([]);
    expect(found.skipped[0]?.reason).toMatch(/metadata is not JSON/);
    writeFileSync(path, `${JSON.stringify(row("x", { type: "user", content: "y".repeat(64) }))}\n`);
    writeFileSync(join(root, "sessions", BUCKET, AGENT_ID, "session.json"), "{}");
    const nested = `${"[".repeat(100_000)}${"]".repeat(100_000)}\n`;
    writeFileSync(path, nested);
    let error: unknown;
    try {
      store.load(AGENT_ID);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(Error);
    expect(String((error as Error).message)).not.toContain("\n");
  });

  it("refuses to write or delete an agent session", () => {
    const { store } = storeWith(everyKindAgentSession());
    expect(() => store.save()).toThrow(UnsupportedError);
    expect(() => store.delete()).toThrow(UnsupportedError);
  });
});

describe("Kiro agent-engine rows (properties)", () => {
  const rowArb = fc.record({
    id: fc.string({ maxLength: 6 }),
    timestamp: fc.constantFrom("2026-07-29T10:00:00.000Z", "soon", ""),
    payload: fc.oneof(
      fc.jsonValue(),
      fc.record({
        type: fc.constantFrom(
          "user",
          "assistant",
          "tool_call",
          "tool_result",
          "tombstone",
          "turn_end",
          "sub_agent_start",
          "sub_agent_complete",
          "error",
          "novel",
        ),
        content: fc.jsonValue(),
        operationType: fc.constantFrom("Say", "Reasoning", "Summary", 7),
        toolCallId: fc.jsonValue(),
        subSessionId: fc.string({ maxLength: 3 }),
        kind: fc.constantFrom("checkpoint_revert", "summarization"),
        effectiveFromMessageId: fc.string({ maxLength: 6 }),
        images: fc.jsonValue(),
        success: fc.jsonValue(),
        stopReason: fc.jsonValue(),
      }),
    ),
  });

  it("never crashes: a Transcript whose text renders back as parsed, or a one-line error", () => {
    fc.assert(
      fc.property(fc.array(rowArb, { minLength: 1, maxLength: 12 }), (rows) => {
        const text = rows.map((r) => `${JSON.stringify(r)}\n`).join("");
        const t = kiro.text.parse(text, "x/sess_1/messages.jsonl");
        expect(t.meta.id).toBe("sess_1");
        expect(kiro.text.render(t)).toBe(text);
        const c = kiro.codec.toCommon(t);
        for (const m of c.body) expect(m.content.length).toBeGreaterThan(0);
      }),
      { numRuns: 200 },
    );
  });

  it("a revert to a prompt removes it and everything after it", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 0, max: 5 }), (n, k) => {
        const at = Math.min(k, n - 1);
        const rows: JsonObject[] = [];
        for (let i = 0; i < n; i++) {
          rows.push(row(`u${i}`, { type: "user", content: `prompt ${i}` }, i * 2));
          rows.push(row(`a${i}`, { type: "assistant", content: `reply ${i}` }, i * 2 + 1));
        }
        rows.push(
          row("t", {
            type: "tombstone",
            kind: "checkpoint_revert",
            effectiveFromMessageId: `u${at}`,
          }),
        );
        const text = rows.map((r) => `${JSON.stringify(r)}\n`).join("");
        const c = kiro.codec.toCommon(kiro.text.parse(text));
        expect(c.body).toHaveLength(at * 2);
      }),
      { numRuns: 50 },
    );
  });
});

describe("txcript with Kiro agent-engine sessions", () => {
  it("lists, views and queries them through the built binary, leaving the files untouched", () => {
    const root = tempDir("kiro-agent-cli-");
    createKiroAgentSessions(root, [
      { ...everyKindAgentSession(), subs: { [SUB_ID]: subAgentRows() } },
    ]);
    const before = hashTree(root);
    const env = { TXCRIPT_KIRO_ROOT: root, TXCRIPT_CACHE: join(tempDir("kiro-cache-"), "c") };
    const list = txcript(["list", "--json", "--from", "kiro"], { env });
    expect(list.stderr).toBe("");
    expect(list.status).toBe(0);
    const doc = JSON.parse(list.stdout) as {
      sessions: { id: string; title?: string; cwd?: string }[];
    };
    const rows = doc.sessions.map((s) => [s.id, s.title, s.cwd]);
    expect(rows.sort((a, b) => String(a[0]).localeCompare(String(b[0])))).toEqual([
      [AGENT_ID, "Fix the cart total", "/work/shop"],
      [`${AGENT_ID}.${SUB_ID}`, "researcher", "/work/shop"],
    ]);
    const sub = txcript(["view", `${AGENT_ID}.${SUB_ID}`, "--no-pager"], { env });
    expect(sub.status).toBe(0);
    expect(sub.stdout).toContain("grep -n TAX cart.js");
    expect(sub.stdout).toContain("find the tax constant");
    expect(sub.stdout).toContain("TAX is in cart.js");
    const view = txcript(["view", AGENT_ID, "--no-pager"], { env });
    expect(view.status).toBe(0);
    expect(view.stdout).toContain("npm test fails on the cart total");
    expect(view.stdout).toContain("Fixed: the constant was wrong.");
    expect(view.stdout).not.toContain("going the wrong way");
    const query = txcript(["query", "researcher", "--json"], { env });
    expect(query.status).toBe(0);
    expect(query.stdout).toContain(AGENT_ID);
    expect(hashTree(root)).toEqual(before);
  });
});
