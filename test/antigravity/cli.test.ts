/**
 * `txcript convert --from antigravity` / `--to antigravity` through the built
 * binary: to and from Common, Simple and every other harness; errors name
 * the file and the row; the source is never touched.
 */

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderAntigravity } from "../../src/harness/antigravity/text.js";
import { EPOCH } from "../../src/time.js";
import { HARNESS_IDS } from "../../src/transcript.js";
import { legacyLayoutSession, TOOLS_PROMPT, toolsSession120 } from "../support/agy-fixtures.js";
import { ROOT, txcript } from "../support/cli.js";
import { hashTree, tempDir } from "../support/tmp.js";

function agyDocument(dir: string, name = "conv.json") {
  const body = toolsSession120();
  const path = join(dir, name);
  writeFileSync(path, renderAntigravity({ meta: { id: body.id, timestamp: EPOCH }, body }));
  return path;
}

describe("convert --from antigravity", () => {
  it("to Common: the conversation's turns and meta; the source is untouched", () => {
    const dir = tempDir();
    const path = agyDocument(dir);
    const before = hashTree(dir);
    const r = txcript(["convert", path, "--from", "antigravity", "--to", "common"]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.meta.id).toBe(toolsSession120().id);
    expect(doc.meta.model).toBe("gemini-3.8-flash");
    expect(doc.messages[0].content).toEqual([{ type: "text", text: TOOLS_PROMPT }]);
    expect(doc.messages.filter((m: { role: string }) => m.role === "assistant").length).toBe(5);
    expect(hashTree(dir)).toEqual(before);
  });

  it("to Simple and back to agy, from stdin", () => {
    const dir = tempDir();
    const simple = txcript([
      "convert",
      agyDocument(dir),
      "--from",
      "antigravity",
      "--to",
      "simple",
    ]);
    expect(simple.status).toBe(0);
    const agy = txcript(["convert", "-", "--from", "simple", "--to", "antigravity"], {
      input: simple.stdout,
    });
    expect(agy.status).toBe(0);
    const doc = JSON.parse(agy.stdout);
    expect(doc.trajectory_meta[0].cascade_id).toBe(toolsSession120().id);
    expect(doc.steps.map((s: { step_type: number }) => s.step_type)).toEqual([
      // The failed view (an error a VIEW_FILE step cannot carry) rides GENERIC.
      14, 15, 132, 15, 132, 15, 132, 15, 8, 15,
    ]);
    const common = txcript(["convert", "-", "--from", "antigravity", "--to", "common"], {
      input: agy.stdout,
    });
    expect(JSON.parse(common.stdout).messages[0].content[0].text).toBe(TOOLS_PROMPT);
  });

  it("to every harness and back: the prompt and every call survive", /* dozens of CLI runs: a loaded machine needs more than the default minute */ {
    timeout: 240_000,
  }, () => {
    const dir = tempDir();
    const body = legacyLayoutSession();
    const path = join(dir, "legacy.json");
    writeFileSync(path, renderAntigravity({ meta: { id: body.id, timestamp: EPOCH }, body }));
    for (const to of HARNESS_IDS) {
      const out = txcript(["convert", path, "--from", "antigravity", "--to", to]);
      expect(out.status, `${to}: ${out.stderr}`).toBe(0);
      const back = txcript(["convert", "-", "--from", to, "--to", "antigravity"], {
        input: out.stdout,
      });
      expect(back.status, `${to} back: ${back.stderr}`).toBe(0);
      const common = JSON.parse(
        txcript(["convert", "-", "--from", "antigravity", "--to", "common"], { input: back.stdout })
          .stdout,
      );
      const texts = common.messages.flatMap((m: { content: { type: string; text?: string }[] }) =>
        m.content.filter((b) => b.type === "text").map((b) => b.text),
      );
      expect(texts, to).toContain("The login test is flaky");
      const calls = common.messages.flatMap((m: { content: { type: string; id?: string }[] }) =>
        m.content.filter((b) => b.type === "tool_use").map((b) => b.id),
      );
      expect(calls.length, to).toBe(9);
    }
  });
});

describe("convert --to antigravity", () => {
  it("is deterministic: the same document gives the same bytes", () => {
    const simple = readFileSync(
      join(ROOT, "test", "fixtures", "common", "full.simple.json"),
      "utf8",
    );
    const a = txcript(["convert", "-", "--from", "simple", "--to", "antigravity"], {
      input: simple,
    });
    const b = txcript(["convert", "-", "--from", "simple", "--to", "antigravity"], {
      input: simple,
    });
    expect(a.status, a.stderr).toBe(0);
    expect(b.status, b.stderr).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    expect(JSON.parse(a.stdout).transcript_full).toContain('"type":"PLANNER_RESPONSE"');
  });

  it("a document it wrote converts to itself, byte for byte", () => {
    const simple = readFileSync(
      join(ROOT, "test", "fixtures", "common", "full.simple.json"),
      "utf8",
    );
    const once = txcript(["convert", "-", "--from", "simple", "--to", "antigravity"], {
      input: simple,
    });
    const twice = txcript(["convert", "-", "--from", "antigravity", "--to", "antigravity"], {
      input: once.stdout,
    });
    expect(twice.status, twice.stderr).toBe(0);
    expect(twice.stdout).toBe(once.stdout);
  });
});

describe("errors", () => {
  it("a bad blob: one line naming the file, row and column; exit 1", () => {
    const dir = tempDir();
    const path = agyDocument(dir);
    const doc = JSON.parse(readFileSync(path, "utf8"));
    doc.steps[3].step_payload = "abc";
    writeFileSync(path, JSON.stringify(doc));
    const before = hashTree(dir);
    const r = txcript(["convert", path, "--from", "antigravity", "--to", "common"]);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(`txcript: ${path}: steps[3].step_payload: odd-length hex\n`);
    expect(hashTree(dir)).toEqual(before);
  });

  it("a document of another harness", () => {
    const r = txcript(["convert", "-", "--from", "antigravity", "--to", "common"], {
      input: '{"messages": []}',
    });
    expect(r.status).toBe(1);
    // The input is recognized for what it is, and the message says which --from fits.
    expect(r.stderr).toBe(
      "txcript: <stdin>: this is a Simple document, not an Antigravity CLI (agy) text dump; use --from simple (or leave --from out)\n",
    );
  });
});
