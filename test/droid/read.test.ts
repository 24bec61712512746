/**
 * Reading Factory Droid sessions: a session the real Droid 0.225.2 wrote
 * against the mock server (test/fixtures/droid: two turns, LS, Read, Create,
 * Edit, a failing Execute, and Droid's own loop guard), message by message;
 * what stays out of Common (context reminders, notices); the token totals of
 * the settings file; a byte-exact text round trip; hostile, truncated and
 * huge inputs; and the store on real temporary directories.
 */

import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ParseError } from "../../src/errors.js";
import { DroidStore } from "../../src/harness/droid/store.js";
import { harness, openStore } from "../../src/harness/index.js";
import { hashTree, tempDir } from "../support/tmp.js";

const droid = harness("droid");
const FIXTURES = join(import.meta.dirname, "..", "fixtures", "droid");
const ID = "5a44a94e-3eb4-4e37-9ebd-a4065fe28125";
const FILE = join(FIXTURES, `${ID}.jsonl`);
const SETTINGS = join(FIXTURES, `${ID}.settings.json`);
const CWD = "/tmp/dx/r4/project";
const text = readFileSync(FILE, "utf8");

/** A store root holding the fixture (and its settings file) in its cwd's folder. */
function seeded(withSettings = true): { root: string; dir: string } {
  const root = tempDir("droid-root-");
  const dir = join(root, "-tmp-dx-r4-project");
  mkdirSync(dir, { recursive: true });
  copyFileSync(FILE, join(dir, `${ID}.jsonl`));
  if (withSettings) copyFileSync(SETTINGS, join(dir, `${ID}.settings.json`));
  return { root, dir };
}

describe("a session the real Droid wrote, read as Common", () => {
  const t = droid.codec.toCommon(droid.text.parse(text, FILE));

  it("reads the session start, the first message time and the model", () => {
    expect(t.meta).toEqual({
      id: ID,
      timestamp: "2026-12-06T16:08:10.976Z",
      cwd: CWD,
      title: "Set up the notes project",
      model: "custom:Mock-0",
    });
  });

  it("keeps the prompts and leaves Droid's context reminders and notices out", () => {
    const prompts = t.body
      .filter((m) => m.role === "user")
      .flatMap((m) => m.content.flatMap((b) => (b.type === "text" ? [b.text] : [])));
    expect(prompts).toEqual(["Set up the notes project", "How many lines does hello.txt have?"]);
    expect(JSON.stringify(t.body)).not.toContain("system-reminder");
    expect(JSON.stringify(t.body)).not.toContain("stopped to avoid consuming the session");
  });

  it("types Droid's tools on a fit and pairs every result, the failure marked", () => {
    const calls = t.body.flatMap((m) =>
      m.content.flatMap((b) => (b.type === "tool_use" ? [b] : [])),
    );
    expect(calls.slice(0, 5).map((c) => c.tool)).toEqual([
      { name: "Raw", tool_name: "LS", input: { directory_path: CWD } },
      { name: "Read", file_path: `${CWD}/notes.txt` },
      { name: "Write", file_path: `${CWD}/hello.txt`, content: "hello\n" },
      {
        name: "Edit",
        file_path: `${CWD}/hello.txt`,
        old_string: "hello",
        new_string: "hello world",
      },
      { name: "Bash", command: "cat missing.txt", description: "Run a shell command here" },
    ]);
    const results = t.body.flatMap((m) =>
      m.content.flatMap((b) => (b.type === "tool_result" ? [b] : [])),
    );
    expect(results).toHaveLength(calls.length);
    expect(results.map((r) => r.tool_use_id)).toEqual(calls.map((c) => c.id));
    expect(results[4]?.is_error).toBe(true);
    expect(results[4]?.content).toContain("No such file or directory");
    expect(results.filter((r) => r.is_error === true)).toHaveLength(1);
  });

  it("has no usage through the text form: the totals live in the settings file", () => {
    expect(t.body.some((m) => m.usage !== undefined)).toBe(false);
  });

  it("renders its text byte for byte", () => {
    expect(droid.text.render(droid.text.parse(text, FILE))).toBe(text);
    const crlf = text.replaceAll("\n", "\r\n");
    expect(droid.text.render(droid.text.parse(crlf, FILE))).toBe(crlf);
  });
});

describe("hostile and damaged Droid files", () => {
  const oneLine = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      expect(e).toBeInstanceOf(ParseError);
      expect(String((e as Error).message)).not.toContain("\n");
      return String((e as Error).message);
    }
    throw new Error("expected a ParseError");
  };

  it("refuses an empty file and one without a session start, in one line naming the file", () => {
    expect(oneLine(() => droid.text.parse("", "/x/empty.jsonl"))).toContain("empty.jsonl");
    expect(
      oneLine(() => droid.text.parse('{"type":"message","id":"m"}\n', "/x/nohead.jsonl")),
    ).toContain("session start");
  });

  it("reads a file cut in the middle of its last line up to the cut", () => {
    const cut = text.slice(0, Math.floor(text.length * 0.6));
    const t = droid.codec.toCommon(droid.text.parse(cut, FILE));
    expect(t.body.length).toBeGreaterThan(3);
    expect(droid.text.render(droid.text.parse(cut, FILE))).toBe(cut);
  });

  it("reads odd records without a crash: wrong types, unknown blocks, deep nesting", () => {
    const head = text.split("\n")[0];
    const odd = [
      head,
      '{"type":"message","message":{"role":"user","content":"plain string"}}',
      '{"type":"message","message":{"role":"assistant","content":[{"type":"tool_use","name":7,"input":null},{"type":"weird"},5,null]}}',
      '{"type":"message","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":3,"content":[{"type":"image"}]}]}}',
      '{"type":"message","message":{"role":"system","content":[]}}',
      `{"type":"message","message":{"role":"user","content":${"[".repeat(5000)}${"]".repeat(5000)}}}`,
      "not json at all",
    ].join("\n");
    const t = droid.codec.toCommon(droid.text.parse(odd, "odd.jsonl"));
    expect(t.body.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(t.body[0]?.content).toEqual([{ type: "text", text: "plain string" }]);
  });

  it("reads a huge session (20,000 messages) in reasonable time", () => {
    const head = text.split("\n")[0];
    const lines = [head];
    for (let i = 0; i < 20_000; i++)
      lines.push(
        JSON.stringify({
          type: "message",
          id: `m${i}`,
          timestamp: "2026-12-06T16:08:10.976Z",
          message: {
            role: i % 2 ? "assistant" : "user",
            content: [{ type: "text", text: `n${i}` }],
          },
        }),
      );
    const started = Date.now();
    const t = droid.codec.toCommon(droid.text.parse(lines.join("\n"), "huge.jsonl"));
    expect(t.body).toHaveLength(20_000);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe("the Droid store on a temporary directory", () => {
  it("lists the session with its settings' token totals on the last answer", async () => {
    const { root } = seeded();
    const store = new DroidStore({ root, env: {} });
    const found = await store.discover();
    expect(found.sessions.map((s) => [s.id, s.meta.cwd, s.message_count])).toEqual([[ID, CWD, 25]]);
    expect(found.sessions[0]?.fingerprint.files).toHaveLength(2);
    const t = openStore(droid, { root, env: {} })?.load(ID);
    const last = t?.body.findLast((m) => m.role === "assistant");
    expect(last?.usage).toEqual({ input_tokens: 120, output_tokens: 60 });
    expect(t?.body.filter((m) => m.usage !== undefined)).toHaveLength(1);
  });

  it("reads a session whose settings file is damaged, without its usage", () => {
    const { root, dir } = seeded();
    writeFileSync(join(dir, `${ID}.settings.json`), '{"tokenUsage": {"inputTok');
    const t = openStore(droid, { root, env: {} })?.load(ID);
    expect(t?.body.some((m) => m.usage !== undefined)).toBe(false);
  });

  it("skips a file that is not UTF-8 or has no session start, naming why", async () => {
    const { root, dir } = seeded(false);
    writeFileSync(
      join(dir, "11111111-2222-4333-8444-555555555555.jsonl"),
      Buffer.from([0xff, 0xfe, 0x00]),
    );
    writeFileSync(join(dir, "21111111-2222-4333-8444-555555555555.jsonl"), '{"type":"message"}\n');
    const found = await new DroidStore({ root, env: {} }).discover();
    expect(found.sessions.map((s) => s.id)).toEqual([ID]);
    expect(found.skipped).toHaveLength(2);
    for (const s of found.skipped) expect(s.reason).not.toContain("\n");
  });

  it("saves a copy where Droid looks (its cwd's folder), never over another, and deletes it", () => {
    const root = tempDir("droid-save-");
    const store = openStore(droid, { root, env: {} });
    if (!store) throw new Error("no store");
    const common = droid.codec.toCommon(
      droid.text.parse(text.replace(ID, "00000000-0000-4000-8000-000000000001"), FILE),
    );
    common.body.at(-1)!.usage = { input_tokens: 7, output_tokens: 3 };
    const saved = store.save(common);
    expect(saved.path).toBe(join(root, "-tmp-dx-r4-project", `${saved.id}.jsonl`));
    const settings = JSON.parse(
      readFileSync(join(root, "-tmp-dx-r4-project", `${saved.id}.settings.json`), "utf8"),
    ) as { tokenUsage: { inputTokens: number } };
    expect(settings.tokenUsage.inputTokens).toBe(7);
    const head = JSON.parse(readFileSync(saved.path, "utf8").split("\n")[0]!) as Record<
      string,
      unknown
    >;
    // Droid's schema requires an owner; without one it deletes the file when it resumes.
    expect(head).toMatchObject({ type: "session_start", id: saved.id, owner: "", cwd: CWD });
    const before = hashTree(root);
    expect(() => store.save(common)).toThrow(/already exists/);
    expect(hashTree(root)).toEqual(before);
    const removed = store.native.delete(saved.id);
    expect(removed).toHaveLength(2);
    expect(
      Object.keys(hashTree(root)).filter((f) => f.endsWith(".json") || f.endsWith(".jsonl")),
    ).toEqual([]);
  });

  it("refuses to save a session that names no cwd, writing nothing", () => {
    const root = tempDir("droid-nocwd-");
    const store = openStore(droid, { root, env: {} });
    expect(() =>
      store?.save({ meta: { id: "x", timestamp: "2026-01-01T00:00:00Z" }, body: [] }),
    ).toThrow(/working directory/);
    expect(Object.keys(hashTree(root))).toEqual([]);
  });

  it("finds its root under FACTORY_HOME_OVERRIDE, then HOME", () => {
    expect(new DroidStore({ env: { HOME: "/h" } }).roots).toEqual(["/h/.factory/sessions"]);
    expect(new DroidStore({ env: { HOME: "/h", FACTORY_HOME_OVERRIDE: "/o" } }).roots).toEqual([
      "/o/.factory/sessions",
    ]);
    expect(new DroidStore({ env: { HOME: "/h", TXCRIPT_DROID_ROOT: "/t" } }).roots).toEqual(["/t"]);
  });
});
