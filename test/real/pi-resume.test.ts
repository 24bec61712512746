/**
 * pi's resume matrix with the real CLIs: a real Claude Code session, a real
 * Codex session and two agy conversations (examples/home), each continued
 * into pi by txcript and resumed by the real pi (`pi --session <id|file>`);
 * and a session the real pi wrote, continued into Claude Code and into
 * Codex and resumed by each (`claude -p … --resume <id>`, `codex exec …
 * resume <id> …`). The first request the resuming CLI sends must hold the
 * source's texts, call ids and results, in order, then the new prompt; each
 * CLI appends its answer to the copy. (pi as a source on its own:
 * source-pi.test.ts; pi's copies against its own records:
 * writer-native.test.ts; `--out`: resume-out.test.ts.)
 */

import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockServer, startMockServer } from "./server/index.js";
import {
  CLIS,
  cliEnv,
  cliVersion,
  knownHarnesses,
  REPO,
  run,
  sandbox,
  txcript,
} from "./support/cli.js";
import { expectInOrder, historyPieces } from "./support/history.js";
import { type CommonDoc, listSessions, viewCommon } from "./support/session.js";
import { makeSource, promptArgs } from "./support/sources.js";

const known = await knownHarnesses();
const PI_VERSION = cliVersion("pi");
const RESUME_PROMPT = "Please pick up where we left off.";
const RESUMED = "Picked up: all earlier turns are in view.";

describe.skipIf(!known.includes("pi"))(`pi ${PI_VERSION} resume matrix`, () => {
  let server: MockServer;
  const box = sandbox("pi-resume");

  beforeAll(async () => {
    server = await startMockServer([]);
  });
  afterAll(async () => {
    await server.close();
    box.dispose();
  });

  /** Resume `session` (an id, or a copy's file) with the real pi in `home`; its answer must follow `before`. */
  async function resumeInPi(home: string, cwd: string, session: string, before: CommonDoc) {
    server.setScript([{ prompt: RESUME_PROMPT, steps: [{ text: RESUMED }] }]);
    const n = server.requests.length;
    const ran = await run(CLIS.pi.bin, promptArgs("pi", RESUME_PROMPT, session, false), {
      cwd,
      env: cliEnv("pi", home, server.url),
      timeoutMs: 120_000,
    });
    expect(ran.status, ran.stderr + ran.stdout).toBe(0);
    const request = server.requests.slice(n).find((r) => r.scripted);
    expect(request, "pi sent the resumed conversation").toBeDefined();
    expectInOrder(JSON.stringify(request!.body), [...historyPieces(before), RESUME_PROMPT]);
    expect(server.unexpected).toEqual([]);
  }

  for (const [cli, from, rel] of [
    ["claude_code", "claude", ".claude/projects"],
    ["codex", "codex", ".codex/sessions"],
  ] as const)
    it.skipIf(!known.includes(cli))(
      `resumes a real ${cli} ${cliVersion(cli)} session continued into pi, by its id`,
      async () => {
        const src = await makeSource(cli, server);
        try {
          const home = join(box.root, `into-pi-${cli}`);
          mkdirSync(home, { recursive: true });
          const at = join(src.box.home, rel);
          if (existsSync(at)) cpSync(at, join(home, rel), { recursive: true });
          const id = (await listSessions(home, from))[0]!.id;
          const before = await viewCommon(home, id, from);
          await txcript(["continue", id, "--from", from, "--with", "pi", "--no-resume"], home);
          const copy = (await listSessions(home, "pi"))[0]!;
          await resumeInPi(home, src.box.project, copy.id, before);
          const after = await viewCommon(home, copy.id, "pi");
          expect(after.messages.at(-1)?.content).toEqual([{ type: "text", text: RESUMED }]);
        } finally {
          src.box.dispose();
        }
      },
      400_000,
    );

  it("resumes agy conversations txcript continued into it, both layouts", async () => {
    for (const source of [
      "8c1f2e4a-53b7-4d0e-9a61-7f3c2b9d0e15",
      "0f4c7a2e-91b3-4d5f-8e6a-3c2b1d0e9f87",
    ]) {
      const home = join(box.root, `agy-${source.slice(0, 8)}`);
      mkdirSync(home, { recursive: true });
      cpSync(join(REPO, "examples", "home", ".gemini"), join(home, ".gemini"), {
        recursive: true,
      });
      const before = await viewCommon(home, source, "agy");
      await txcript(["continue", source, "--from", "agy", "--with", "pi", "--no-resume"], home);
      const copy = (await listSessions(home, "pi"))[0]!;
      // The copy names the source's cwd, which is not on this machine: open it by path from the project.
      const text = readFileSync(copy.path, "utf8").split("\n");
      const header = JSON.parse(text[0]!) as Record<string, unknown>;
      header.cwd = box.project;
      text[0] = JSON.stringify(header);
      writeFileSync(copy.path, text.join("\n"));
      await resumeInPi(home, box.project, copy.path, before);
      const after = await viewCommon(home, copy.id, "pi");
      expect(after.messages.length).toBeGreaterThan(before.messages.length);
      expect(after.messages.at(-1)?.content).toEqual([{ type: "text", text: RESUMED }]);
      console.log(`[test:real] agy ${source.slice(0, 8)} -> pi ${PI_VERSION}: resumed`);
    }
  }, 400_000);

  it("resumes a session the real pi wrote, continued into Claude Code and into Codex", async () => {
    const src = await makeSource("pi", server);
    try {
      const home = src.box.home;
      const id = (await listSessions(home, "pi"))[0]!.id;
      const before = await viewCommon(home, id, "pi");
      for (const target of ["claude_code", "codex"] as const) {
        if (!known.includes(target)) continue;
        // Codex writes the copy under the provider of the user's config.toml: make it first.
        const env = cliEnv(target, home, server.url);
        await txcript(["continue", id, "--from", "pi", "--with", target, "--no-resume"], home);
        const copy = (await listSessions(home, target)).find((s) => s.id !== id)!;
        server.setScript([{ prompt: RESUME_PROMPT, steps: [{ text: RESUMED }] }]);
        const n = server.requests.length;
        const ran = await run(CLIS[target].bin, promptArgs(target, RESUME_PROMPT, copy.id, false), {
          cwd: src.box.project,
          env,
          timeoutMs: 150_000,
        });
        expect(ran.status, ran.stderr.slice(-3000) + ran.stdout.slice(-3000)).toBe(0);
        const request = server.requests.slice(n).find((r) => r.scripted);
        expect(request, `${target} sent the resumed conversation`).toBeDefined();
        expectInOrder(JSON.stringify(request!.body), [...historyPieces(before), RESUME_PROMPT]);
        const after = await viewCommon(home, copy.id, target);
        const last = after.messages.at(-1)?.content ?? [];
        expect(last.some((b) => b.type === "text" && b.text === RESUMED)).toBe(true);
        console.log(`[test:real] pi ${PI_VERSION} -> ${target} ${cliVersion(target)}: resumed`);
      }
      expect(server.unexpected).toEqual([]);
    } finally {
      src.box.dispose();
    }
  }, 600_000);
});
