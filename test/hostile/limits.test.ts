/**
 * Sessions too large to hold, and output too large for one string (issue
 * 11, item 1): `view --format json` streams Common JSON message by message
 * (the pieces join to exactly `renderCommon`'s text), and a Claude Code or
 * Codex session of more than MAX_LINES lines is refused in one line naming
 * the file and the limit (list skips it with that reason), never a V8 abort.
 */

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { renderCommon, renderCommonChunks } from "../../src/common-json.js";
import { MAX_LINES } from "../../src/lines.js";
import { transcriptArb } from "../support/arbitraries.js";
import { txcript } from "../support/cli.js";
import { tempDir } from "../support/tmp.js";
import { SID } from "./support.js";

describe("renderCommonChunks", () => {
  it("joins to exactly renderCommon's text, empty sessions included", () => {
    fc.assert(
      fc.property(transcriptArb(), fc.boolean(), (t, empty) => {
        const transcript = empty ? { ...t, body: [] } : t;
        expect([...renderCommonChunks(transcript)].join("")).toBe(renderCommon(transcript));
      }),
      { numRuns: 200 },
    );
  });
});

describe("a session of more than MAX_LINES lines", () => {
  const TS = "2026-11-30T09:15:00.000Z";
  it.each([
    [
      "claude_code",
      [".claude", "projects", "-p"],
      `${SID}.jsonl`,
      `{"type":"user","sessionId":"${SID}","uuid":"u","timestamp":"${TS}","cwd":"/p","message":{"role":"user","content":"hi"}}\n`,
    ],
    [
      "codex",
      [".codex", "sessions", "2026", "11", "30"],
      `rollout-2026-11-30T09-15-00-${SID}.jsonl`,
      `{"timestamp":"${TS}","type":"session_meta","payload":{"id":"${SID}","timestamp":"${TS}","cwd":"/p"}}\n`,
    ],
  ] as const)(
    "%s: view refuses in one line naming the file and the limit; list skips it",
    (form, dirs, name, first) => {
      const home = tempDir("txcript-lines-");
      const dir = join(home, ...dirs);
      mkdirSync(dir, { recursive: true });
      const file = join(dir, name);
      writeFileSync(file, first + "\n".repeat(MAX_LINES));
      const env = { HOME: home };
      const view = txcript(["view", SID, "--from", form, "--format", "json"], { env });
      expect(view.status).toBe(1);
      expect(view.stderr).toBe(
        `txcript: ${file}: more than 2,000,000 lines: too large a session to hold\n`,
      );
      const list = txcript(["list", "--json", "--from", form], { env });
      expect(list.status).toBe(0);
      const doc = JSON.parse(list.stdout) as { sessions: unknown[]; skipped: { reason: string }[] };
      if (form === "codex") {
        expect(doc.sessions).toEqual([]);
        expect(doc.skipped.map((s) => s.reason)).toEqual([
          "more than 2,000,000 lines: too large a session to hold",
        ]);
      }
    },
  );
});
