/**
 * The real-source suite for one CLI: the real binary writes its two-turn
 * session, then txcript lists it, views it (`--format json`) and converts it,
 * and the test checks message by message what the CLI recorded. A CLI whose
 * harness id the built txcript does not know yet is skipped with the reason
 * printed; it enables itself once the harness lands.
 */

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockServer, startMockServer } from "../server/index.js";
import { type CliId, cliVersion, knownHarnesses, txcript } from "./cli.js";
import {
  assertScriptedSession,
  type CommonDoc,
  listSessions,
  outline,
  viewCommon,
} from "./session.js";
import { makeSource, PROMPT_1, type RealSource, THINKING } from "./sources.js";

export async function realSourceSuite(cli: CliId) {
  const known = (await knownHarnesses()).includes(cli);
  const version = cliVersion(cli);
  if (!known)
    console.log(`[test:real] ${cli} ${version}: skipped, txcript has no harness "${cli}" yet`);

  describe.skipIf(!known)(`${cli} ${version} writes a real session`, () => {
    let server: MockServer;
    let src: RealSource;
    let id: string;

    beforeAll(async () => {
      server = await startMockServer();
      src = await makeSource(cli, server);
    });
    afterAll(async () => {
      await server?.close();
      src?.box.dispose();
    });

    it("reaches nothing but the mock server", () => {
      expect(server.unexpected).toEqual([]);
      expect(server.scripted().length).toBeGreaterThanOrEqual(8);
    });

    it("is listed with its cwd and message count", async () => {
      const listed = await listSessions(src.box.home, cli);
      expect(listed).toHaveLength(1);
      const s = listed[0]!;
      if (src.sessionId) expect(s.id).toBe(src.sessionId);
      id = s.id;
      expect(s.harness).toBe(cli);
      expect(s.cwd).toBe(src.box.project);
      const doc = await viewCommon(src.box.home, id, cli);
      expect(s.message_count).toBe(doc.messages.length);
    });

    it("views as what the CLI recorded, message by message", async () => {
      const doc = await viewCommon(src.box.home, id, cli);
      expect(doc.meta.id).toBe(id);
      expect(doc.meta.cwd).toBe(src.box.project);
      // Gemini CLI's and pi's session files do not name the CLI's version.
      if (cli !== "gemini_cli" && cli !== "pi") expect(doc.meta.cli_version).toBe(version);
      console.log(`[test:real] ${cli} ${version} session outline:\n  ${outline(doc).join("\n  ")}`);
      assertScriptedSession(doc, cli, src.box.project);
    });

    it("converts to every text form and back to the same messages", async () => {
      const doc = await viewCommon(src.box.home, id, cli);
      const common = join(src.box.root, "session.common.json");
      writeFileSync(common, JSON.stringify(doc));
      for (const form of ["simple", "claude_code", "codex", "antigravity"]) {
        const to = await txcript(
          ["convert", common, "--from", "common", "--to", form],
          src.box.home,
        );
        const file = join(src.box.root, `session.${form}`);
        writeFileSync(file, to.stdout);
        const back = await txcript(
          ["convert", file, "--from", form, "--to", "common"],
          src.box.home,
        );
        const again = JSON.parse(back.stdout) as CommonDoc;
        // Claude Code keeps another vendor's thinking as text (docs/conversions.md c1).
        const texts = (d: CommonDoc) =>
          d.messages.flatMap((m) =>
            m.content
              .filter((b) => b.type === "text" && b.text !== THINKING)
              .map((b) => `${m.role}: ${String(b.text)}`),
          );
        expect(texts(again), form).toEqual(texts(doc));
      }
      expect(doc.messages[0]!.content[0]).toMatchObject({ type: "text", text: PROMPT_1 });
    });
  });
}
