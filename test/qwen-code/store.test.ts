/**
 * Qwen Code's store on real temporary directories: the roots as the CLI
 * finds them, save into `projects/<sanitized cwd>/chats/<id>.jsonl` (atomic,
 * never overwriting, never through a symlinked folder), discovery, load
 * byte for byte, and deletion inside the root only.
 */

import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConflictError, InvalidRequestError, TxcriptError } from "../../src/errors.js";
import {
  projectId,
  QwenCodeStore,
  qwenCodec,
  qwenCodeRoot,
} from "../../src/harness/qwen-code/index.js";
import type { Common, Transcript } from "../../src/transcript.js";
import { hashTree, tempDir } from "../support/tmp.js";

const FIXTURE = join(import.meta.dirname, "..", "fixtures", "qwen-code", "basic.jsonl");
const ID = "3b9d2f4e-7a1c-4e5b-9d8f-6c2a1e0b7d43";
const CWD = "/home/dana/my_shop";
const session: Transcript<Common> = {
  meta: { id: ID, timestamp: "2026-09-14T08:30:00Z", cwd: CWD },
  body: [
    { role: "user", content: [{ type: "text", text: "list" }], timestamp: "2026-09-14T08:30:00Z" },
    {
      role: "assistant",
      content: [{ type: "tool_use", id: "c1", tool: { name: "Bash", command: "ls" } }],
      timestamp: "2026-09-14T08:30:01Z",
    },
    {
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "c1", content: "a.txt" }],
      timestamp: "2026-09-14T08:30:02Z",
    },
  ],
};

describe("the roots", () => {
  it("finds its root as the CLI does: explicit, TXCRIPT_QWEN_CODE_ROOT, QWEN_RUNTIME_DIR, QWEN_HOME, ~/.qwen", () => {
    expect(qwenCodeRoot({ root: "/r", env: { TXCRIPT_QWEN_CODE_ROOT: "/t" } })).toBe("/r");
    expect(qwenCodeRoot({ env: { TXCRIPT_QWEN_CODE_ROOT: "/t", QWEN_HOME: "/q" } })).toBe("/t");
    expect(qwenCodeRoot({ env: { QWEN_RUNTIME_DIR: "/rt", QWEN_HOME: "/q" } })).toBe("/rt");
    expect(qwenCodeRoot({ env: { QWEN_HOME: "/q", HOME: "/h" } })).toBe("/q");
    expect(qwenCodeRoot({ env: { HOME: "/h" } })).toBe("/h/.qwen");
    expect(projectId("/home/dana/my_shop")).toBe("-home-dana-my-shop");
  });
});

describe("save, discover, load, delete", () => {
  it("writes the session where the CLI looks for its cwd, lists it, loads it byte for byte", async () => {
    const root = tempDir();
    const store = new QwenCodeStore({ root });
    const native = qwenCodec.fromCommon(session);
    const saved = store.save(native);
    const path = join(root, "projects", "-home-dana-my-shop", "chats", `${ID}.jsonl`);
    expect(saved.path).toBe(path);
    expect(store.ids()).toEqual([ID]);
    const { sessions, skipped } = await store.discover();
    expect(skipped).toEqual([]);
    expect(sessions.map((s) => [s.id, s.meta.cwd, s.message_count])).toEqual([[ID, CWD, 3]]);
    expect(qwenCodec.toCommon(store.load(ID)).body).toHaveLength(3);
    expect(readFileSync(path, "utf8")).toBe(
      [...native.body.lines].map((l) => `${l.text}\n`).join(""),
    );
    expect(store.fingerprint(ID)?.files[0]?.path).toBe(path);
  });

  it("never overwrites, and refuses a session without a cwd in one line", () => {
    const root = tempDir();
    const store = new QwenCodeStore({ root });
    store.save(qwenCodec.fromCommon(session));
    const before = hashTree(root);
    expect(() => store.save(qwenCodec.fromCommon(session))).toThrow(ConflictError);
    const noCwd = qwenCodec.fromCommon({
      ...session,
      meta: { id: "other", timestamp: session.meta.timestamp },
    });
    expect(() => store.save(noCwd)).toThrow(InvalidRequestError);
    expect(hashTree(root)).toEqual(before);
  });

  it("refuses to write through a symlinked project folder", () => {
    const root = tempDir();
    const outside = tempDir();
    mkdirSync(join(root, "projects"), { recursive: true });
    symlinkSync(outside, join(root, "projects", "-home-dana-my-shop"));
    const store = new QwenCodeStore({ root });
    expect(() => store.save(qwenCodec.fromCommon(session))).toThrow(TxcriptError);
    expect(hashTree(outside)).toEqual({});
  });

  it("discovers the real CLI's file, skips what is not a session, and deletes inside the root", async () => {
    const root = tempDir();
    const chats = join(root, "projects", "-p", "chats");
    mkdirSync(chats, { recursive: true });
    copyFileSync(FIXTURE, join(chats, "7b0223dc-fbae-402e-9cac-d4b70d9c1bd1.jsonl"));
    writeFileSync(join(chats, "empty.jsonl"), "");
    writeFileSync(join(chats, "junk.jsonl"), "not json\n");
    const store = new QwenCodeStore({ root });
    const { sessions, skipped } = await store.discover();
    expect(sessions.map((s) => [s.id, s.message_count, s.meta.title])).toEqual([
      ["7b0223dc-fbae-402e-9cac-d4b70d9c1bd1", 6, "Set up"],
    ]);
    expect(skipped.map((s) => s.reason)).toEqual([
      "empty file",
      expect.stringContaining("not a Qwen Code session"),
    ]);
    expect(store.delete("7b0223dc-fbae-402e-9cac-d4b70d9c1bd1")).toHaveLength(1);
    expect(existsSync(join(chats, "7b0223dc-fbae-402e-9cac-d4b70d9c1bd1.jsonl"))).toBe(false);
    expect(() => store.delete("../x")).toThrow(TxcriptError);
  });
});
