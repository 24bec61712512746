/**
 * Output into a pipe its reader leaves full for a while: the CLI's stdout
 * writes are then queued, and the bytes that reach the reader must be those
 * a file gets (the batches' buffer is never written again while queued).
 */

import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, txcript } from "../support/cli.js";
import { tempDir } from "../support/tmp.js";

const SID = "aaaaaaaa-0000-4000-8000-00000000051e";

/** A Claude Code home with one session of `n` short turns, some characters outside Latin-1. */
function home(n: number): string {
  const root = tempDir("slow-reader-");
  const dir = join(root, ".claude", "projects", "-tmp-x");
  mkdirSync(dir, { recursive: true });
  const lines: string[] = [];
  let parent: string | null = null;
  for (let i = 0; i < n; i++) {
    const uuid = `00000000-0000-4000-8000-${String(i + 1).padStart(12, "0")}`;
    const user = i % 2 === 0;
    const message = user
      ? { role: "user", content: `ask ${i} café € \u{1F600} ${"lorem ipsum ".repeat(20)}` }
      : {
          role: "assistant",
          model: "m",
          content: [{ type: "text", text: `reply ${i} ${"dolor ".repeat(30)}` }],
        };
    lines.push(
      JSON.stringify({
        type: user ? "user" : "assistant",
        uuid,
        parentUuid: parent,
        sessionId: SID,
        timestamp: "2026-12-01T10:00:00.000Z",
        cwd: "/tmp/x",
        message,
      }),
    );
    parent = uuid;
  }
  writeFileSync(join(dir, `${SID}.jsonl`), `${lines.join("\n")}\n`);
  return root;
}

/** The CLI's stdout read only after `waitMs`, then whole. */
function readLate(args: string[], env: Record<string, string>, waitMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { PATH: process.env.PATH ?? "", NO_COLOR: "1", ...env },
      stdio: ["ignore", "pipe", "inherit"],
    });
    const parts: Buffer[] = [];
    child.stdout.pause();
    setTimeout(() => {
      child.stdout.on("data", (b: Buffer) => parts.push(b));
      child.stdout.resume();
    }, waitMs);
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve(Buffer.concat(parts)) : reject(new Error(`exit ${code}`)),
    );
  });
}

describe("stdout into a pipe read late", () => {
  it("gets the bytes a file gets, for export and view", { timeout: 240_000 }, async () => {
    const root = home(6_000);
    const env = { HOME: root, TXCRIPT_CACHE: join(root, "cache") };
    for (const args of [
      ["export", SID, "--format", "markdown"],
      ["view", SID, "--no-pager"],
    ]) {
      const out = join(root, "out.txt");
      const direct = txcript([...args], { env });
      expect(direct.status).toBe(0);
      writeFileSync(out, direct.stdout);
      const late = await readLate(args, env, 1_500);
      expect(late.length).toBeGreaterThan(1 << 20);
      expect(late.equals(readFileSync(out)), args.join(" ")).toBe(true);
    }
  });
});
