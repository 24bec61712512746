/**
 * The Codex store on real temporary Codex homes: discovery, load, byte-exact
 * save, atomic writes, titles, deletion containment, zstd rollouts, and
 * hostile files. Rollouts are hand-built fixtures or written by our writer
 * and then checked against the resume rules.
 */

import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  ConflictError,
  InvalidRequestError,
  NotFoundError,
  StoreError,
  UnsafePathError,
} from "../../src/errors.js";
import { Lines } from "../../src/harness/codex/body.js";
import { codexCodec } from "../../src/harness/codex/codec.js";
import { parseRolloutName } from "../../src/harness/codex/probe.js";
import { CodexStore, estimateMessages } from "../../src/harness/codex/store.js";
import { codexText } from "../../src/harness/codex/text.js";
import { harness } from "../../src/harness/index.js";
import { decompressCapped } from "../../src/harness/shared/zstd.js";
import { ROOT } from "../support/cli.js";
import { hashTree, tempDir } from "../support/tmp.js";
import { realisticSession, resumeProblems } from "./support.js";

const FIX = join(ROOT, "test/fixtures/codex");
const SESSION_ID = "019a1b2c-3d4e-7f00-8a9b-0c1d2e3f4a5b";
const TOOLS_ID = "0199aa00-1111-7222-8333-944455556666";

function put(home: string, rel: string, content: string | Buffer): string {
  const path = join(home, rel);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  return path;
}
const fixture = (name: string) => readFileSync(join(FIX, name));
const metaLine = (id: string, ts = "2026-09-01T08:00:00.000Z") =>
  JSON.stringify({
    timestamp: ts,
    type: "session_meta",
    payload: {
      id,
      timestamp: ts,
      cwd: "/w",
      originator: "codex_cli_rs",
      cli_version: "0.61.0",
      source: "cli",
      model_provider: "openai",
      base_instructions: null,
    },
  });
const store = (home: string) => new CodexStore({ root: home, env: {} });

/** A home with a dated session, an archived zstd one, an index and some junk. */
function populatedHome(): string {
  const home = tempDir("codex-home-");
  put(
    home,
    `sessions/2026/08/10/rollout-2026-08-10T12-00-00-${SESSION_ID}.jsonl`,
    fixture("session.jsonl"),
  );
  put(
    home,
    `archived_sessions/rollout-2026-08-11T09-00-00-${TOOLS_ID}.jsonl.zst`,
    fixture("compressed.jsonl.zst"),
  );
  put(
    home,
    "session_index.jsonl",
    [
      JSON.stringify({
        id: SESSION_ID,
        thread_name: "Old name",
        updated_at: "2026-08-10T12:00:00Z",
      }),
      "{broken",
      JSON.stringify({
        id: SESSION_ID,
        thread_name: "  Flaky login test  ",
        updated_at: "2026-08-10T13:00:00Z",
      }),
      JSON.stringify({ id: TOOLS_ID, thread_name: "   ", updated_at: "2026-08-10T13:00:00Z" }),
      "",
    ].join("\n"),
  );
  put(home, "sessions/2026/08/10/notes.jsonl", "not a rollout name\n");
  put(home, "history.jsonl", '{"session_id":"x"}\n');
  return home;
}

describe("where the store looks", () => {
  it("prefers the root option, then TXCRIPT_CODEX_ROOT, then CODEX_HOME, then ~/.codex", () => {
    const env = { HOME: "/h", CODEX_HOME: "/ch", TXCRIPT_CODEX_ROOT: "/tx" };
    expect(new CodexStore({ root: "/r", env }).roots).toEqual(["/r"]);
    expect(new CodexStore({ env }).roots).toEqual(["/tx"]);
    expect(new CodexStore({ env: { HOME: "/h", CODEX_HOME: "/ch" } }).roots).toEqual(["/ch"]);
    expect(new CodexStore({ env: { HOME: "/h", CODEX_HOME: "" } }).roots).toEqual(["/h/.codex"]);
  });

  it("reads only the environment it is given", () => {
    const saved = process.env.CODEX_HOME;
    process.env.CODEX_HOME = "/from-process-env";
    try {
      expect(new CodexStore({ env: { HOME: "/h" } }).roots).toEqual(["/h/.codex"]);
    } finally {
      if (saved === undefined) delete process.env.CODEX_HOME;
      else process.env.CODEX_HOME = saved;
    }
  });

  it("parses rollout names the way Codex does, and nothing else", () => {
    expect(parseRolloutName(`rollout-2026-08-10T12-00-00-${SESSION_ID}.jsonl`)).toEqual({
      stamp: "2026-08-10T12-00-00",
      id: SESSION_ID,
      compressed: false,
    });
    expect(
      parseRolloutName(`rollout-2026-08-10T12-00-00-${SESSION_ID}.jsonl.zst`)?.compressed,
    ).toBe(true);
    expect(parseRolloutName(`rollout-2026-08-10T12-00-00-${SESSION_ID}.json`)).toBeUndefined();
    expect(
      parseRolloutName(`.rollout-2026-08-10T12-00-00-${SESSION_ID}.jsonl.abc.tmp`),
    ).toBeUndefined();
    expect(
      parseRolloutName("rollout-2026-08-10T12-00-00-not-a-uuid-at-all-000000000000.jsonl"),
    ).toBeUndefined();
  });
});

describe("discovery", () => {
  it("lists dated and archived rollouts, zstd included, with metadata and titles", async () => {
    const home = populatedHome();
    const { sessions, skipped } = await store(home).discover();
    expect(skipped).toEqual([]);
    expect(sessions.map((s) => s.id)).toEqual([SESSION_ID, TOOLS_ID]);
    const [a, b] = sessions;
    expect(a?.meta).toEqual({
      id: SESSION_ID,
      timestamp: "2026-08-10T12:00:00Z",
      cwd: "/home/al/my_app",
      git_branch: "main",
      title: "Flaky login test",
      cli_version: "0.50.0",
      model: "gpt-5-codex",
    });
    expect(a?.lane).toBe("cli");
    expect(b?.lane).toBe("archived");
    // No title in session_index.jsonl: the first prompt names it, as in Codex's own list.
    expect(b?.meta.title).toBe("Try every tool");
    expect(b?.path.endsWith(".jsonl.zst")).toBe(true);
    expect(a?.fingerprint.files[0]?.size).toBe(fixture("session.jsonl").length);
  });

  it("counts messages exactly as view numbers them", async () => {
    const home = populatedHome();
    const s = store(home);
    for (const found of (await await s.discover()).sessions) {
      const common = codexCodec.toCommon(s.load(found.id));
      expect(found.message_count).toBe(common.body.length);
    }
    const realistic = codexText.render(codexCodec.fromCommon(realisticSession()));
    expect(estimateMessages(codexText.parse(realistic).body.lines)).toBe(50);
  });

  it("passes over bad files with a reason, never aborting, and never changes the store", async () => {
    const home = populatedHome();
    const id = (n: number) => `0199aa00-1111-7222-8333-00000000000${n}`;
    put(
      home,
      `sessions/2026/09/01/rollout-2026-09-01T08-00-00-${id(1)}.jsonl`,
      '{"type":"response_item","payload":{}}\n',
    );
    put(
      home,
      `sessions/2026/09/01/rollout-2026-09-01T08-00-00-${id(2)}.jsonl`,
      Buffer.from([0x7b, 0xff, 0xfe, 0x0a]),
    );
    put(
      home,
      `sessions/2026/09/01/rollout-2026-09-01T08-00-00-${id(3)}.jsonl.zst`,
      Buffer.from("not zstd at all"),
    );
    put(
      home,
      `sessions/2026/09/01/rollout-2026-09-01T08-00-00-${id(4)}.jsonl`,
      `${metaLine(SESSION_ID)}\n`,
    );
    put(home, `sessions/2026/09/01/rollout-2026-09-01T08-00-00-${id(5)}.jsonl`, "");
    const before = hashTree(home);
    const { sessions, skipped } = await store(home).discover();
    expect(sessions.map((s) => s.id)).toEqual([SESSION_ID, TOOLS_ID]);
    const reasons = Object.fromEntries(
      skipped.map((s) => [s.path.slice(s.path.lastIndexOf("-") + 1), s.reason]),
    );
    expect(reasons).toEqual({
      "000000000001.jsonl": "no session_meta line with an id",
      "000000000002.jsonl": "the rollout is not valid UTF-8",
      "000000000003.jsonl.zst": expect.stringMatching(/^not a readable zstd rollout/),
      "000000000004.jsonl": expect.stringMatching(
        new RegExp(`^duplicate of session ${SESSION_ID} in .*/sessions/2026/08/10/`),
      ),
      "000000000005.jsonl": "no session_meta line with an id",
    });
    expect(hashTree(home)).toEqual(before);
  });

  it("prefers a plain rollout over its zstd sibling, and does not follow symlinked directories", async () => {
    const home = populatedHome();
    const plain = `sessions/2026/08/11/rollout-2026-08-11T09-00-00-${TOOLS_ID}.jsonl`;
    put(home, plain, fixture("tools.jsonl"));
    put(home, `${plain}.zst`, fixture("compressed.jsonl.zst"));
    const elsewhere = tempDir("codex-elsewhere-");
    put(
      elsewhere,
      `rollout-2026-01-01T00-00-00-${"0".repeat(8)}-0000-4000-8000-${"0".repeat(12)}.jsonl`,
      `${metaLine("00000000-0000-4000-8000-000000000000")}\n`,
    );
    symlinkSync(elsewhere, join(home, "sessions/2026/07"));
    const { sessions, skipped } = await store(home).discover();
    expect(sessions.map((s) => s.path.slice(home.length))).toEqual([
      `/sessions/2026/08/10/rollout-2026-08-10T12-00-00-${SESSION_ID}.jsonl`,
      `/${plain}`,
    ]);
    expect(skipped.map((s) => s.reason)).toEqual([
      expect.stringMatching(new RegExp(`^duplicate of session ${TOOLS_ID}`)),
    ]);
  });

  it("finds nothing, and complains about nothing, in a home that does not exist", async () => {
    expect(await store(join(tempDir(), "missing")).discover()).toEqual({
      sessions: [],
      skipped: [],
    });
  });
});

describe("load", () => {
  it("loads by exact id, plain or zstd, with the title from the index", () => {
    const home = populatedHome();
    const s = store(home);
    const a = s.load(SESSION_ID);
    expect(codexText.render(a)).toBe(fixture("session.jsonl").toString("utf8"));
    expect(a.meta.title).toBe("Flaky login test");
    expect(codexText.render(s.load(TOOLS_ID))).toBe(fixture("tools.jsonl").toString("utf8"));
  });

  it("finds a rollout whose file name was changed by its session_meta id", () => {
    const home = tempDir();
    put(
      home,
      "sessions/2026/08/10/rollout-2026-08-10T12-00-00-aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa.jsonl",
      fixture("session.jsonl"),
    );
    expect(store(home).load(SESSION_ID).meta.id).toBe(SESSION_ID);
  });

  it("refuses unknown, non-UUID and unsafe ids with the right error", () => {
    const s = store(populatedHome());
    expect(() => s.load("0199aa00-1111-7222-8333-ffffffffffff")).toThrow(NotFoundError);
    expect(() => s.load("latest")).toThrow(NotFoundError);
    expect(() => s.load("../../etc/passwd")).toThrow(UnsafePathError);
    expect(() => s.load("a\u0000b")).toThrow(UnsafePathError);
    expect(s.fingerprint("../x")).toBeUndefined();
    expect(s.fingerprint("0199aa00-1111-7222-8333-ffffffffffff")).toBeUndefined();
  });
});

describe("save", () => {
  it("round-trips byte for byte: CRLF, no final newline, BOM, unknown and malformed lines", () => {
    const id = "0199aa00-1111-7222-8333-000000000042";
    const text = `\uFEFF${metaLine(id)}\r\n{"type":"world_state","payload":{"x":1}}\r\n\r\n{broken json\n${JSON.stringify({ timestamp: "2026-09-01T08:00:01.000Z", type: "response_item", payload: { type: "message", role: "user", content: [{ type: "input_text", text: "é 🎉 \u0000" }] } })}`;
    const src = tempDir();
    const path = put(src, `sessions/2026/09/01/rollout-2026-09-01T08-00-00-${id}.jsonl`, text);
    const loaded = store(src).load(id);
    const dst = tempDir();
    const saved = store(dst).save(loaded);
    expect(saved.path).toBe(
      join(dst, `sessions/2026/09/01/rollout-2026-09-01T08-00-00-${id}.jsonl`),
    );
    expect(readFileSync(saved.path)).toEqual(readFileSync(path));
    // And again over itself, with overwrite.
    store(src).save(loaded, { overwrite: true });
    expect(readFileSync(path)).toEqual(Buffer.from(text, "utf8"));
  });

  it("round-trips every fixture through a fresh home, a zstd rollout as its plain text", () => {
    const src = populatedHome();
    const dst = tempDir();
    for (const id of [SESSION_ID, TOOLS_ID]) {
      const saved = store(dst).save(store(src).load(id));
      expect(saved.path.endsWith(".jsonl")).toBe(true);
      expect(readFileSync(saved.path, "utf8")).toBe(codexText.render(store(src).load(id)));
    }
    expect(
      readFileSync(join(dst, "session_index.jsonl"), "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l).thread_name),
    ).toEqual(["Flaky login test"]);
  });

  it("writes what codex resume accepts: the dated path and file name with the session uuid", async () => {
    const home = tempDir();
    const s = store(home);
    const session = realisticSession();
    const saved = s.save(codexCodec.fromCommon(session));
    expect(saved.id).toBe(session.meta.id);
    expect(saved.path).toBe(
      join(home, `sessions/2026/08/10/rollout-2026-08-10T12-00-00-${session.meta.id}.jsonl`),
    );
    const text = readFileSync(saved.path, "utf8");
    expect(resumeProblems(text, saved.id)).toEqual([]);
    // Our reader finds it, reads it back, and the title landed in session_index.jsonl.
    const found = (await await s.discover()).sessions;
    expect(found.map((f) => [f.id, f.meta.title, f.message_count])).toEqual([
      [session.meta.id, "Fix the flaky login test", 50],
    ]);
    expect(codexCodec.toCommon(s.load(saved.id)).body).toEqual(session.body);
    expect(harness("codex").resume?.(saved, { ...session.meta })).toEqual({
      argv: ["codex", "resume", session.meta.id],
      cwd: "/home/al/my_app",
    });
    expect(
      harness("codex").resume?.(saved, { id: saved.id, timestamp: "2026-08-10T12:00:00Z" }),
    ).toEqual({
      argv: ["codex", "resume", session.meta.id],
    });
  });

  it("refuses to overwrite unless asked, leaving the store untouched", () => {
    const home = populatedHome();
    const before = hashTree(home);
    const t = store(home).load(SESSION_ID);
    expect(() => store(home).save(t)).toThrow(ConflictError);
    expect(hashTree(home)).toEqual(before);
  });

  it("on overwrite replaces every copy of the session, zstd and archived ones included", async () => {
    const home = populatedHome();
    const t = codexCodec.fromCommon({
      meta: { id: TOOLS_ID, timestamp: "2026-09-02T10:00:00Z" },
      body: [],
    });
    const saved = store(home).save(t, { overwrite: true });
    expect(saved.path).toBe(
      join(home, `sessions/2026/09/02/rollout-2026-09-02T10-00-00-${TOOLS_ID}.jsonl`),
    );
    expect(readdirSync(join(home, "archived_sessions"))).toEqual([]);
    expect((await store(home).discover()).sessions.map((s) => s.path)).toContain(saved.path);
  });

  it("leaves no temporary files behind and does not repeat a title already in the index", () => {
    const home = populatedHome();
    const t = store(home).load(SESSION_ID);
    store(home).save(t, { overwrite: true });
    const all = Object.keys(hashTree(home));
    expect(all.filter((p) => p.endsWith(".tmp"))).toEqual([]);
    expect(
      readFileSync(join(home, "session_index.jsonl"), "utf8").match(/Flaky login test/g),
    ).toHaveLength(1);
  });

  it("refuses a body without session_meta, a non-UUID id and an unsafe id, writing nothing", () => {
    const home = tempDir();
    const s = store(home);
    const meta = { id: "x", timestamp: "2026-09-01T08:00:00Z" };
    expect(() => s.save({ meta, body: { lines: Lines.of([]) } })).toThrow(InvalidRequestError);
    expect(() => s.save(codexText.parse(`${metaLine("not-a-uuid")}\n`))).toThrow(
      InvalidRequestError,
    );
    expect(() => s.save(codexText.parse(`${metaLine("../../../tmp/evil")}\n`))).toThrow(
      UnsafePathError,
    );
    expect(existsSync(join(home, "sessions"))).toBe(false);
  });
});

describe("delete", () => {
  it("removes every file of that session and nothing else", async () => {
    const home = populatedHome();
    const plain = put(
      home,
      `sessions/2026/08/11/rollout-2026-08-11T09-00-00-${TOOLS_ID}.jsonl`,
      fixture("tools.jsonl"),
    );
    const removed = store(home).delete(TOOLS_ID);
    expect(removed).toHaveLength(2);
    expect(existsSync(plain)).toBe(false);
    expect((await store(home).discover()).sessions.map((s) => s.id)).toEqual([SESSION_ID]);
    expect(existsSync(join(home, "session_index.jsonl"))).toBe(true);
    expect(() => store(home).delete(TOOLS_ID)).toThrow(NotFoundError);
  });

  it("refuses a rollout that resolves outside the home, removing nothing", () => {
    const home = populatedHome();
    const outside = tempDir("codex-outside-");
    const target = put(
      outside,
      "victim.jsonl",
      `${metaLine("0199aa00-1111-7222-8333-0000000000aa")}\n`,
    );
    mkdirSync(join(home, "sessions/2026/09/01"), { recursive: true });
    symlinkSync(
      target,
      join(
        home,
        "sessions/2026/09/01/rollout-2026-09-01T08-00-00-0199aa00-1111-7222-8333-0000000000aa.jsonl",
      ),
    );
    const before = hashTree(home);
    expect(() => store(home).delete("0199aa00-1111-7222-8333-0000000000aa")).toThrow(
      UnsafePathError,
    );
    expect(existsSync(target)).toBe(true);
    expect(hashTree(home)).toEqual(before);
  });
});

describe("hostile and huge rollouts", () => {
  it("caps zstd output instead of inflating a bomb", () => {
    const data = new Uint8Array(readFileSync(join(FIX, "compressed.jsonl.zst")));
    expect(decompressCapped(data, 1 << 20).length).toBe(fixture("tools.jsonl").length);
    expect(() => decompressCapped(data, 1000)).toThrow(/more than 1000 bytes/);
    expect(() => decompressCapped(new Uint8Array(0), 1000)).toThrow(/empty/);
  });

  it("refuses a rollout past 2 GiB less a byte (the cap since rollouts are held as bytes) in one line naming it", () => {
    // A sparse file: its size is refused from a stat, so nothing that size is written or read.
    const home = tempDir();
    const id = "0199aa00-1111-7222-8333-0000000000cc";
    const path = put(home, `sessions/2026/09/01/rollout-2026-09-01T08-00-00-${id}.jsonl`, "");
    truncateSync(path, 2 ** 31);
    try {
      store(home).load(id);
      expect.unreachable("a rollout past the cap was read");
    } catch (error) {
      expect(error).toBeInstanceOf(StoreError);
      expect(String(error)).toContain("the file is larger than 2147483647 bytes");
      expect(error instanceof StoreError && error.file).toBe(path);
    }
  });

  it("loads and re-saves a 40 MB rollout exactly", () => {
    const id = "0199aa00-1111-7222-8333-0000000000bb";
    const big = JSON.stringify({
      timestamp: "2026-09-01T08:00:01.000Z",
      type: "response_item",
      payload: { type: "function_call_output", call_id: "c", output: "y".repeat(40 * 1024 * 1024) },
    });
    const src = tempDir();
    const path = put(
      src,
      `sessions/2026/09/01/rollout-2026-09-01T08-00-00-${id}.jsonl`,
      `${metaLine(id)}\n${big}\n`,
    );
    const dst = tempDir();
    const saved = store(dst).save(store(src).load(id));
    expect(readFileSync(saved.path).equals(readFileSync(path))).toBe(true);
  });

  it("copies of a rollout under another id are told apart by their session_meta", async () => {
    const home = populatedHome();
    const other = "0199aa00-1111-7222-8333-0000000000cc";
    copyFileSync(
      join(home, `sessions/2026/08/10/rollout-2026-08-10T12-00-00-${SESSION_ID}.jsonl`),
      join(home, `sessions/2026/08/10/rollout-2026-08-10T12-00-00-${other}.jsonl`),
    );
    const { sessions, skipped } = await store(home).discover();
    expect(sessions).toHaveLength(2);
    expect(skipped).toHaveLength(1);
  });
});
