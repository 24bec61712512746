/**
 * Goose through the built binary, as a user runs it: list and view a
 * sessions.db built from the documented format (untouched afterwards), and
 * `continue --with goose` refused in one line saying why.
 */

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { txcript } from "../support/cli.js";
import { createGooseDatabase, everyKindSession } from "../support/goose.js";
import { hashTree, tempDir } from "../support/tmp.js";

describe("txcript with Goose", () => {
  it("lists and views Goose sessions, leaving the database untouched", () => {
    const root = tempDir("goose-cli-");
    createGooseDatabase(root, [everyKindSession()]);
    const before = hashTree(root);
    const env = { TXCRIPT_GOOSE_ROOT: root };
    const list = txcript(["list", "--json", "--from", "goose"], { env });
    expect(list.stderr).toBe("");
    expect(list.status).toBe(0);
    const doc = JSON.parse(list.stdout) as { sessions: { id: string; title?: string }[] };
    expect(doc.sessions.map((s) => s.id)).toEqual(["20261001_1"]);
    const view = txcript(["view", "20261001_1", "--no-pager"], { env });
    expect(view.status).toBe(0);
    expect(view.stdout).toContain("npm test");
    expect(view.stdout).toContain("Fixed: the constant was wrong.");
    expect(hashTree(root)).toEqual(before);
  });

  it("refuses continue --with goose in one line naming why", () => {
    const dir = tempDir("goose-cli-");
    const doc = join(dir, "doc.json");
    writeFileSync(doc, JSON.stringify({ messages: [{ role: "user", content: "hi" }] }));
    const root = tempDir("goose-root-");
    const r = txcript(["continue", doc, "--with", "goose", "--no-resume"], {
      env: { TXCRIPT_GOOSE_ROOT: root },
    });
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("does not write them");
    expect(hashTree(root)).toEqual({});
  });
});
