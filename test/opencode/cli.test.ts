/**
 * OpenCode through the built binary, as a user runs it: list and view the
 * database the real OpenCode wrote, convert its export document, continue
 * a Simple document into an OpenCode database (with the resume command
 * printed), delete it again, and one-line errors for bad input.
 */

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { OpenCodeStore } from "../../src/harness/opencode/index.js";
import { ROOT, txcript } from "../support/cli.js";
import { copyOpenCodeFixture, createOpenCodeDatabase } from "../support/opencode.js";
import { hashTree, tempDir } from "../support/tmp.js";
import { counts, integrity } from "./support.js";

const FIX = join(ROOT, "test/fixtures/opencode");
const TOOLS = "ses_dc5706968ffewv6oHAOSJ6GSwm";

describe("txcript with OpenCode", () => {
  it("lists and views the real OpenCode's sessions, leaving the database untouched", () => {
    const root = tempDir("opencode-cli-");
    copyOpenCodeFixture(root);
    const before = hashTree(root);
    const env = { TXCRIPT_OPENCODE_ROOT: root };
    const list = txcript(["list", "--json", "--from", "opencode"], { env });
    expect(list.status).toBe(0);
    const doc = JSON.parse(list.stdout) as {
      sessions: { id: string; message_count: number; parent_id: string | null }[];
    };
    expect(doc.sessions).toHaveLength(7);
    expect(doc.sessions.find((s) => s.id === TOOLS)!.message_count).toBe(16);
    const view = txcript(["view", `${TOOLS.slice(0, 12)}#10-11`, "--no-pager"], { env });
    expect(view.status).toBe(0);
    expect(view.stdout).toContain("false && echo no; exit 3");
    expect(view.stdout).toContain("(no output)");
    expect(hashTree(root)).toEqual(before);
  });

  it("converts the export document to Common and Common back to an export", () => {
    const common = txcript([
      "convert",
      join(FIX, "tools.export.json"),
      "--from",
      "opencode",
      "--to",
      "common",
    ]);
    expect(common.status).toBe(0);
    expect(JSON.parse(common.stdout).messages).toHaveLength(16);
    const back = txcript(["convert", "-", "--from", "common", "--to", "opencode"], {
      input: common.stdout,
    });
    expect(back.status).toBe(0);
    const exported = JSON.parse(back.stdout) as { info: { id: string }; messages: unknown[] };
    expect(exported.info.id).toBe(TOOLS);
    expect(exported.messages).toHaveLength(10);
  });

  it("continues a document into OpenCode, prints the resume command, and deletes it again", () => {
    const root = tempDir("opencode-cli-");
    const db = createOpenCodeDatabase(root);
    const env = { TXCRIPT_OPENCODE_ROOT: root };
    const cont = txcript(
      [
        "continue",
        join(ROOT, "test/fixtures/common/full.simple.json"),
        "--with",
        "opencode",
        "--no-resume",
      ],
      { env },
    );
    expect(cont.status).toBe(0);
    const id = /ses_[0-9a-f]{12}[0-9A-Za-z]{14}/.exec(cont.stdout)?.[0];
    expect(id).toBeDefined();
    expect(cont.stdout).toMatch(new RegExp(`opencode --session ${id}`));
    expect(integrity(db)).toEqual({ integrity: "ok", foreignKeys: [] });
    expect(new OpenCodeStore({ root, env: {} }).ids()).toEqual([id]);
    const del = txcript(["delete", id!, "--yes"], { env });
    expect(del.status).toBe(0);
    expect(counts(db)).toMatchObject({ session: 0, message: 0, part: 0 });
  });

  it("continues A, then B, then A again into one database: A's copy is its own rows, not the whole file", () => {
    const home = tempDir("opencode-home-");
    const root = join(home, ".local", "share", "opencode");
    const env = { HOME: home, TXCRIPT_OPENCODE_ROOT: root };
    const a = join(ROOT, "test/fixtures/common/full.simple.json");
    const b = join(home, "b.json");
    writeFileSync(
      b,
      JSON.stringify({ id: "doc-b", cwd: "/tmp", messages: [{ role: "user", content: "hi" }] }),
    );
    const go = (file: string) =>
      txcript(["continue", file, "--with", "opencode", "--no-resume"], { env });
    const first = go(a);
    expect(first.status, first.stderr).toBe(0);
    expect(go(b).status).toBe(0);
    const again = go(a);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stderr).not.toContain("has changed since txcript wrote it");
    expect(again.stderr).toContain("already holds this copy, unchanged");
    expect(again.stdout.split("\n")[0]).toBe(first.stdout.split("\n")[0]);
    const list = txcript(["list", "--json", "--from", "opencode"], { env });
    expect((JSON.parse(list.stdout) as { sessions: unknown[] }).sessions).toHaveLength(2);
  });

  it("answers bad input with one line naming the file", () => {
    const root = tempDir("opencode-cli-");
    const bad = join(root, "bad.json");
    writeFileSync(bad, '{"info":{"id":"nope"},"messages":[]}');
    const r = txcript(["convert", bad, "--from", "opencode", "--to", "common"]);
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain(bad);
    expect(r.stderr).toContain('does not start with "ses"');
    const nowhere = txcript(
      [
        "continue",
        join(ROOT, "test/fixtures/common/full.simple.json"),
        "--with",
        "opencode",
        "--no-resume",
      ],
      {
        env: { TXCRIPT_OPENCODE_ROOT: join(root, "empty") },
      },
    );
    // A home where OpenCode never ran gets the database OpenCode would have made.
    expect(nowhere.status, nowhere.stderr).toBe(0);
    expect(nowhere.stderr).toContain(join(root, "empty", "opencode.db"));
  });
});
