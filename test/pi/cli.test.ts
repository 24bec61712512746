/**
 * pi through the built binary, as a user runs it: list, view, query and
 * usage over a `~/.pi/agent/sessions` (left untouched), a damaged file
 * skipped without a crash, and `continue --with pi` writing a copy where
 * `pi --session <id>` finds it.
 */

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { txcript } from "../support/cli.js";
import { everyKindLines, PI_ID, writePiSession } from "../support/pi.js";
import { hashTree, tempDir } from "../support/tmp.js";

describe("txcript with pi", () => {
  it("lists, views, queries and totals pi sessions, leaving the files untouched", () => {
    const home = tempDir("pi-home-");
    const root = join(home, ".pi", "agent", "sessions");
    const dir = writePiSession(root, everyKindLines()).replace(/\/[^/]*$/, "");
    writeFileSync(join(dir, "2026-09-15T00-00-00-000Z_torn.jsonl"), '{"type":"sess');
    const before = hashTree(root);
    const env = { HOME: home, TXCRIPT_CACHE: join(tempDir("pi-cache-"), "c") };
    const list = txcript(["list", "--json", "--from", "pi"], { env });
    expect(list.status).toBe(0);
    const doc = JSON.parse(list.stdout) as { sessions: { id: string; title?: string }[] };
    expect(doc.sessions.map((s) => [s.id, s.title])).toEqual([[PI_ID, "Cart rounding"]]);
    const view = txcript(["view", PI_ID, "--no-pager"], { env });
    expect(view.status).toBe(0);
    expect(view.stdout).toContain("npm test");
    expect(view.stdout).toContain("Fixed: the constant was wrong.");
    expect(view.stdout).not.toContain("going the wrong way");
    const query = txcript(["query", "constant", "--json"], { env });
    expect(query.status).toBe(0);
    expect(query.stdout).toContain(PI_ID);
    const usage = txcript(["usage", "--json", "--by", "model"], { env });
    expect(usage.status).toBe(0);
    expect(usage.stdout).toContain("claude-sonnet-4-5");
    expect(hashTree(root)).toEqual(before);
  });

  it("continues a Common document into pi, in the folder pi looks in", () => {
    const home = tempDir("pi-home-");
    const dir = tempDir("pi-doc-");
    const doc = join(dir, "doc.json");
    writeFileSync(
      doc,
      JSON.stringify({
        meta: { id: "d", timestamp: "2026-01-01T00:00:00Z", cwd: "/work/app" },
        messages: [
          {
            role: "user",
            content: [{ type: "text", text: "hi" }],
            timestamp: "2026-01-01T00:00:01Z",
          },
          {
            role: "assistant",
            content: [{ type: "text", text: "hello" }],
            timestamp: "2026-01-01T00:00:02Z",
          },
        ],
      }),
    );
    const env = { HOME: home, TXCRIPT_CACHE: join(tempDir("pi-cache-"), "c") };
    const r = txcript(["continue", doc, "--with", "pi", "--no-resume"], { env });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain("pi --session");
    const files = Object.keys(hashTree(join(home, ".pi", "agent", "sessions"))).filter((f) =>
      f.endsWith(".jsonl"),
    );
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(
      /^--work-app--\/\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z_[0-9a-f-]+\.jsonl$/,
    );
  });
});
