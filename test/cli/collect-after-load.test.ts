/**
 * `view` and `export` force a full collection between loading and
 * rendering only after a large load (src/cli/collect.ts): a small session
 * pays no new context and no collection, and `export` of many sessions no
 * collection each. V8's `--trace-gc` names a forced one "testing".
 */

import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, ROOT, TEST_CACHE } from "../support/cli.js";
import { writeLines } from "../support/large-sessions.js";

const TS = "2026-11-30T09:15:00.000Z";
const ID = "e8e8e8e8-0000-4000-8000-00000000e8e8";

let dir = "";
const rollout = (lines: number) => join(dir, `rollout-${lines}.jsonl`);

function write(lines: number): void {
  writeLines(rollout(lines), lines, (i) =>
    i === 0
      ? `{"timestamp":"${TS}","type":"session_meta","payload":{"id":"${ID}","timestamp":"${TS}","cwd":"/w"}}`
      : `{"timestamp":"${TS}","type":"response_item","payload":{"type":"message","role":"${i % 2 ? "user" : "assistant"}","content":[{"type":"${i % 2 ? "input" : "output"}_text","text":"line ${i} ${"of a long enough message ".repeat(6)}"}]}}`,
  );
}

/** The command's forced collections, from V8's trace on stdout; its status. */
function forced(args: readonly string[]): { status: number | null; forced: number } {
  const r = spawnSync(process.execPath, ["--trace-gc", BIN, ...args], {
    env: { PATH: process.env.PATH ?? "", HOME: dir, NO_COLOR: "1", TXCRIPT_CACHE: TEST_CACHE },
    cwd: ROOT,
    encoding: "utf8",
    maxBuffer: 512 * 1024 * 1024,
  });
  return { status: r.status, forced: (r.stdout.match(/\btesting; /g) ?? []).length };
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "txcript-collect-"));
  write(20);
  write(400_000); // about 90 MB
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a collection between load and render", () => {
  it("is not forced for a small session", () => {
    expect(forced(["view", rollout(20), "--no-pager"])).toEqual({ status: 0, forced: 0 });
    expect(forced(["export", rollout(20), "--format", "markdown"])).toEqual({
      status: 0,
      forced: 0,
    });
  });

  it("is forced once after a large one", () => {
    expect(forced(["view", rollout(400_000), "--no-pager"])).toEqual({ status: 0, forced: 1 });
  });
});
