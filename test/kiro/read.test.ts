/**
 * Kiro CLI read from stores built from the documented format (Kiro CLI
 * 2.2.1's source): every entry and block kind, the log replayed as Kiro
 * replays it, unknown kinds kept in the Body, a newer log version named,
 * malformed, truncated, hostile and huge inputs refused in one line naming
 * the file, and the store refusing to write or delete.
 */

import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { ParseError, UnsupportedError } from "../../src/errors.js";
import { harness, openStore } from "../../src/harness/index.js";
import { KiroStore } from "../../src/harness/kiro/index.js";
import { sampleOf } from "../../src/sniff.js";
import { createKiroSessions, everyKindSession, sessionData } from "../support/kiro.js";
import { hashTree, tempDir } from "../support/tmp.js";

const kiro = harness("kiro");
const ID = "f2946a26-3735-4b08-8d05-c928010302d5";

function storeWith(...sessions: Parameters<typeof createKiroSessions>[1]) {
  const root = tempDir("kiro-read-");
  const dir = createKiroSessions(root, sessions);
  return { root, dir, store: new KiroStore({ root }) };
}

describe("Kiro CLI sessions", () => {
  it("reads every message and block kind, replaying cancels and resets as Kiro does", () => {
    const { store } = storeWith(everyKindSession());
    const t = kiro.codec.toCommon(store.load(ID));
    expect(t.meta).toMatchObject({
      id: ID,
      cwd: "/work/shop",
      title: "Fix the cart total",
      model: "claude-sonnet-4.5",
      timestamp: "2026-03-30T19:55:35.130832Z",
    });
    // The cancelled prompt and the turn reset away are gone; Clear and Compaction keep history.
    expect(t.body.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    const [prompt, answer, results, last] = t.body;
    expect(prompt?.content).toEqual([
      { type: "text", text: "npm test fails on the cart total" },
      { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw==" } },
    ]);
    expect(prompt?.timestamp).toBe("2026-03-30T19:55:40Z");
    expect(answer?.model).toBe("claude-sonnet-4.5");
    expect(answer?.content).toEqual([
      { type: "thinking", text: "Run the tests first.", signature: "sig-1" },
      { type: "thinking", text: "", encrypted: "AQID" },
      { type: "text", text: "Running the tests." },
      {
        type: "tool_use",
        id: "t1",
        tool: { name: "Bash", command: "npm test", workdir: "/work/shop" },
      },
      {
        type: "tool_use",
        id: "t2",
        tool: {
          name: "Raw",
          tool_name: "read",
          input: { operations: [{ mode: "Line", path: "cart.js" }] },
        },
      },
    ]);
    expect(results?.content).toEqual([
      { type: "tool_result", tool_use_id: "t1", content: "1 failing", is_error: true },
      { type: "tool_result", tool_use_id: "t2", content: [{ kind: "json", data: { lines: 12 } }] },
    ]);
    // The unknown block kind is left out of Common, and kept in the Body.
    expect(last?.content).toEqual([{ type: "text", text: "Fixed: the constant was wrong." }]);
    const body = store.load(ID).body;
    const entries = body.layout === undefined ? body.entries : [];
    expect(entries).toHaveLength(13);
    expect(entries.at(-2)).toEqual({ version: "v1", kind: "Teleport", data: { to: "mars" } });
  });

  it("round-trips its log byte for byte through the text form", () => {
    const { dir } = storeWith(everyKindSession());
    const path = join(dir, `${ID}.jsonl`);
    const text = readFileSync(path, "utf8");
    expect(kiro.text.render(kiro.text.parse(text, path))).toBe(text);
    expect(kiro.text.detect?.(sampleOf(new TextEncoder().encode(text)))).toBe("text");
  });

  it("discovers sessions with their metadata, and lists ids from file names", async () => {
    const { store, dir } = storeWith(everyKindSession(), {
      id: "a0000000-0000-4000-8000-000000000001",
      entries: [
        {
          version: "v1",
          kind: "Prompt",
          data: {
            message_id: "x",
            content: [{ kind: "text", data: "hi" }],
            meta: { timestamp: 1774900000 },
          },
        },
      ],
    });
    writeFileSync(join(dir, "notes.txt"), "not a session");
    expect(store.ids()).toEqual(["a0000000-0000-4000-8000-000000000001", ID]);
    const found = await store.discover();
    expect(found.skipped).toEqual([]);
    const byId = new Map(found.sessions.map((s) => [s.id, s]));
    expect(byId.get(ID)?.meta.title).toBe("Fix the cart total");
    expect(byId.get(ID)?.updated).toBe("2026-03-30T20:05:00Z");
    // Without its .json, a log starts at its first prompt.
    expect(byId.get("a0000000-0000-4000-8000-000000000001")?.meta.timestamp).toBe(
      "2026-03-30T19:46:40Z",
    );
    expect(store.scan?.()).toEqual(found.sessions.map((s) => s.fingerprint));
  });

  it("names a damaged older-engine SQLite database in one line, and lists the sessions", async () => {
    const home = tempDir("kiro-home-");
    createKiroSessions(join(home, ".kiro"), [everyKindSession()]);
    const db = join(home, ".local", "share", "kiro-cli", "data.sqlite3");
    mkdirSync(dirname(db), { recursive: true });
    writeFileSync(db, "not even a database");
    const store = new KiroStore({ env: { HOME: home, USERPROFILE: home } });
    const found = await store.discover();
    expect(found.sessions.map((s) => s.id)).toEqual([ID]);
    if (process.platform === "linux")
      expect(found.skipped).toEqual([
        { path: db, reason: expect.stringContaining("not a SQLite database") },
      ]);
    // An explicit root reads that folder only.
    expect(
      (await new KiroStore({ root: join(home, ".kiro"), env: { HOME: home } }).discover()).skipped,
    ).toEqual([]);
  });

  it("names a log written only in a newer entry version", () => {
    const { store } = storeWith({ id: ID, entries: [{ version: "v2", kind: "Prompt", data: {} }] });
    expect(() => store.load(ID)).toThrow(UnsupportedError);
    expect(() => store.load(ID)).toThrow(/entries v2 are newer than the v1/);
  });

  it("refuses malformed, truncated and hostile inputs in one line naming the file", async () => {
    const { store, dir } = storeWith(
      { id: "bad-line", entries: [] },
      { id: "bad-meta", session: sessionData("bad-meta"), entries: [] },
    );
    writeFileSync(
      join(dir, "bad-line.jsonl"),
      '{"version":"v1","kind":"Prompt","data":{"message_id":"m1","con',
    );
    writeFileSync(join(dir, "bad-meta.json"), "[1,2");
    expect(() => store.load("bad-line")).toThrow(ParseError);
    expect(() => store.load("bad-meta")).toThrow(/metadata is not JSON/);
    expect(() => store.load("../../etc/passwd")).toThrow();
    const found = await store.discover();
    expect(found.sessions).toEqual([]);
    expect(found.skipped.map((s) => s.path.endsWith(".jsonl"))).toEqual([true, true]);
    for (const s of found.skipped) expect(s.reason).not.toContain("\n");
    // Odd values in known places read as missing, never a crash.
    const odd = kiro.text.parse(
      [
        '{"version":"v1","kind":"Prompt","data":{"content":[{"kind":"image","data":{"source":{"data":"x"}}},{"kind":"toolUse"},null,7]}}',
        '{"version":"v1","kind":"ResetTo","data":{"target_index":-3}}',
        '{"version":"v1","kind":"AssistantMessage","data":"nope"}',
      ].join("\n"),
      "odd.jsonl",
    );
    expect(kiro.codec.toCommon(odd).body).toHaveLength(1);
  });

  it("reads a huge log (20,000 entries) whole", () => {
    const entries = Array.from({ length: 20_000 }, (_, i) => ({
      version: "v1",
      kind: i % 2 ? "AssistantMessage" : "Prompt",
      data: { message_id: `m${i}`, content: [{ kind: "text", data: `message ${i}` }] },
    }));
    const { store } = storeWith({ id: ID, session: sessionData(ID), entries });
    expect(kiro.codec.toCommon(store.load(ID)).body).toHaveLength(20_000);
  });

  it("refuses to write or delete, changing nothing", () => {
    const { root, store } = storeWith(everyKindSession());
    const before = hashTree(root);
    const t = kiro.codec.fromCommon(kiro.codec.toCommon(store.load(ID)));
    expect(() => openStore(kiro, { root })?.save(kiro.codec.toCommon(t))).toThrow(
      /does not write them/,
    );
    expect(() => store.delete()).toThrow(/only reads them/);
    expect(hashTree(root)).toEqual(before);
    expect(kiro.resume).toBeUndefined();
  });
});
