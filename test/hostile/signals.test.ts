/**
 * Signals during a save (issue 11, item 7): SIGINT, SIGTERM or SIGHUP that
 * reach `continue --with antigravity` while it is writing never leave a
 * brain/<id> without its database (or a database without its brain), nor
 * a temporary or a lock: the save is finished, then the signal reported.
 */

import { spawn } from "node:child_process";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { copyId } from "../../src/local.js";
import { BIN, ROOT } from "../support/cli.js";
import { tempDir } from "../support/tmp.js";
import { SID } from "./support.js";

function bigDoc(): string {
  const messages = [];
  for (let i = 0; i < 600; i++) {
    messages.push({ role: "user", content: `question ${i} ${"x".repeat(200)}` });
    messages.push({ role: "assistant", content: `answer ${i} ${"y".repeat(400)}` });
  }
  return JSON.stringify({ id: SID, timestamp: "2026-11-30T09:15:00Z", cwd: "/p", messages });
}

/** Start continue, send `signal` as soon as `trigger` exists under the root, and wait for the end. */
async function interrupt(
  root: string,
  doc: string,
  trigger: (root: string) => boolean,
  signal: NodeJS.Signals,
): Promise<{ status: number | null; stderr: string; sent: boolean }> {
  const child = spawn(
    process.execPath,
    [BIN, "continue", doc, "--with", "antigravity", "--out", root],
    { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"], env: { PATH: process.env.PATH, HOME: root } },
  );
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  child.stdout.resume();
  const done = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  let sent = false;
  let over = false;
  void done.then(() => {
    over = true;
  });
  while (!over && !sent) {
    if (trigger(root)) {
      sent = child.kill(signal);
      break;
    }
    await new Promise((r) => setTimeout(r, 1));
  }
  return { status: await done, stderr, sent };
}

/** The id the copy of the document gets in agy (its own, derived from the document's). */
const COPY = copyId({ harness: "simple", id: SID }, "antigravity", 0);
/** `--out DIR` is agy's `~/.gemini` (GEMINI_HOME): the CLI lane is its `antigravity-cli`. */
const lane = (root: string) => join(root, "antigravity-cli");
const brain = (root: string) => join(lane(root), "brain", COPY);
const db = (root: string) => join(lane(root), "conversations", `${COPY}.db`);
const tempDb = (root: string) =>
  existsSync(join(lane(root), "conversations")) &&
  readdirSync(join(lane(root), "conversations")).some((n) => n.includes(".tmp-"));

describe("a signal during an agy save", () => {
  it.each([
    ["SIGINT", "the brain folder appears", (root: string) => existsSync(brain(root))],
    ["SIGTERM", "the temporary database appears", tempDb],
  ] as const)(
    "%s when %s: the save is whole or absent, nothing temporary left",
    async (signal, _, when) => {
      const dir = tempDir("txcript-signal-");
      const doc = join(dir, "doc.json");
      writeFileSync(doc, bigDoc());
      // The trigger is polled: on a loaded machine the signal can land after
      // the command has finished (the brain folder appears near the save's
      // end), and the run then ends 0 with the save whole. Such a late
      // signal proves nothing, so the run is repeated, a few times at most.
      let root = "";
      let r: Awaited<ReturnType<typeof interrupt>> | undefined;
      for (let attempt = 0; attempt < 5 && (r === undefined || r.status === 0); attempt++) {
        root = join(dir, `agy-${attempt}`);
        r = await interrupt(root, doc, when, signal);
        if (r.status === 0) {
          expect(r.stderr).not.toContain("interrupted");
          expect(existsSync(db(root)) && existsSync(brain(root))).toBe(true);
        }
      }
      if (r === undefined) throw new Error("no run");
      expect(r.sent).toBe(true);
      expect(existsSync(brain(root))).toBe(existsSync(db(root)));
      expect(existsSync(db(root))).toBe(true);
      const left = readdirSync(join(lane(root), "conversations")).filter((n) =>
        /\.tmp-|\.lock$/.test(n),
      );
      expect(left).toEqual([]);
      expect(r.status).toBe(130);
      expect(r.stderr).toContain(`interrupted (${signal}) after the session was saved`);
    },
    30_000,
  );
});
