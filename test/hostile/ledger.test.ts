/**
 * The copy ledger is appended to by every `continue`, with no lock: each
 * record is one line in one O_APPEND write, which the kernel places whole
 * at the end. Many processes appending at once lose or tear nothing (at most
 * a blank line appears), and a
 * line torn by a crash elsewhere cannot swallow the next (issue 31, item 10).
 */

import { spawn } from "node:child_process";
import { appendFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { CopyLedger } from "../../src/copies.js";
import { ROOT } from "../support/cli.js";
import { tempDir } from "../support/tmp.js";

const COPIES = pathToFileURL(join(ROOT, "dist", "copies.js")).href;

/** A child that appends `n` records tagged `tag` to the ledger under `state`. */
function appender(state: string, tag: string, n: number): Promise<number | null> {
  const script = `
    const { CopyLedger } = await import(${JSON.stringify(COPIES)});
    const ledger = new CopyLedger({ TXCRIPT_STATE_DIR: ${JSON.stringify(state)} });
    const pad = "x".repeat(2000); // lines longer than one small write
    for (let i = 0; i < ${n}; i++) {
      ledger.record({
        harness: "codex", id: "${tag}-" + i, from: { harness: "simple", id: pad },
        sha256: "0".repeat(64), path: "/p/${tag}/" + i, written: "2026-12-05T00:00:00Z",
      });
    }`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  return new Promise((resolve) => child.once("exit", resolve));
}

describe("the copy ledger under concurrent continues", () => {
  it("keeps every record of 8 processes appending 200 each at once, each line whole", async () => {
    const state = tempDir("txcript-ledger-");
    const tags = ["a", "b", "c", "d", "e", "f", "g", "h"];
    const codes = await Promise.all(tags.map((t) => appender(state, t, 200)));
    expect(codes).toEqual(tags.map(() => 0));
    // A writer that looked at the last byte while another's write was still
    // growing the file adds a newline first: a blank line, never a torn one.
    const lines = readFileSync(join(state, "copies.jsonl"), "utf8")
      .split("\n")
      .filter((l) => l !== "");
    expect(lines).toHaveLength(1600);
    const ids = new Set(lines.map((l) => JSON.parse(l).id));
    expect(ids.size).toBe(1600);
    const ledger = new CopyLedger({ TXCRIPT_STATE_DIR: state });
    for (const t of tags) expect(ledger.lookup("codex", `${t}-199`)?.path).toBe(`/p/${t}/199`);
  }, 120_000);

  it("starts a new line after a torn one, so the record after a crash is kept", () => {
    const state = tempDir("txcript-ledger-");
    const first = new CopyLedger({ TXCRIPT_STATE_DIR: state });
    const record = (id: string) => ({
      harness: "codex" as const,
      id,
      from: { harness: "simple" as const, id: "doc" },
      sha256: "0".repeat(64),
      path: `/p/${id}`,
      written: "2026-12-05T00:00:00Z",
    });
    first.record(record("before"));
    appendFileSync(join(state, "copies.jsonl"), '{"harness":"codex","id":"torn","fr');
    first.record(record("after"));
    const again = new CopyLedger({ TXCRIPT_STATE_DIR: state });
    expect(again.lookup("codex", "before")?.path).toBe("/p/before");
    expect(again.lookup("codex", "after")?.path).toBe("/p/after");
    expect(again.lookup("codex", "torn")).toBeUndefined();
  });
});
