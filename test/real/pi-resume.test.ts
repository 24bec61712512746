/**
 * pi's resume matrix with the real CLIs: a real Claude Code session and a
 * real Codex session, each continued into pi by txcript and resumed by the
 * real pi (`pi --session <file>`); and a session the real pi wrote,
 * continued into Claude Code and into Codex and resumed by each
 * (`claude -p … --resume <id>`, `codex exec … resume <id> …`). The first
 * request the resuming CLI sends must hold the source's texts, call ids and
 * results, in order, then the new prompt; each CLI appends its answer to
 * the copy.
 */

import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockServer, startMockServer } from "./server/index.js";
import {
  baseEnv,
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
import { listSessions, viewCommon } from "./support/session.js";
import { makeSource, promptArgs } from "./support/sources.js";

const PI = join(REPO, "test", "real", "node_modules", ".bin", "pi");
const PI_VERSION = (
  JSON.parse(
    readFileSync(
      join(
        REPO,
        "test",
        "real",
        "node_modules",
        "@mariozechner",
        "pi-coding-agent",
        "package.json",
      ),
      "utf8",
    ),
  ) as { version: string }
).version;
const known = await knownHarnesses();
const enabled = known.includes("pi");
const PI_ARGS = ["--provider", "mock", "--model", "mock-model", "--no-skills"];
const RESUME_PROMPT = "Please pick up where we left off.";
const RESUMED = "Picked up: all earlier turns are in view.";

function piEnv(home: string, url: string): Record<string, string> {
  const agent = join(home, ".pi", "agent");
  mkdirSync(agent, { recursive: true });
  const models = {
    providers: {
      mock: {
        baseUrl: url,
        api: "anthropic-messages",
        apiKey: "sk-ant-mock",
        models: [{ id: "mock-model", input: ["text", "image"] }],
      },
    },
  };
  writeFileSync(join(agent, "models.json"), JSON.stringify(models, null, 2));
  return { ...baseEnv(home, url), PI_OFFLINE: "1", PI_SKIP_VERSION_CHECK: "1", PI_TELEMETRY: "0" };
}

describe.skipIf(!enabled)(`pi ${PI_VERSION} resume matrix`, () => {
  let server: MockServer;
  const box = sandbox("pi-resume");

  beforeAll(async () => {
    server = await startMockServer([]);
  });
  afterAll(async () => {
    await server.close();
    box.dispose();
  });

  for (const [cli, from, rel] of [
    ["claude_code", "claude", ".claude/projects"],
    ["codex", "codex", ".codex/sessions"],
  ] as const)
    it.skipIf(!known.includes(cli))(
      `resumes a real ${cli} ${cliVersion(cli)} session continued into pi`,
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
          server.setScript([{ prompt: RESUME_PROMPT, steps: [{ text: RESUMED }] }]);
          const n = server.requests.length;
          const ran = await run(PI, [...PI_ARGS, "--session", copy.path, "-p", RESUME_PROMPT], {
            cwd: src.box.project,
            env: piEnv(home, server.url),
            timeoutMs: 120_000,
          });
          expect(ran.status, ran.stderr + ran.stdout).toBe(0);
          const request = server.requests.slice(n).find((r) => r.scripted);
          expect(request).toBeDefined();
          expectInOrder(JSON.stringify(request!.body), [...historyPieces(before), RESUME_PROMPT]);
          const after = await viewCommon(home, copy.id, "pi");
          expect(after.messages.at(-1)?.content).toEqual([{ type: "text", text: RESUMED }]);
          expect(server.unexpected).toEqual([]);
        } finally {
          src.box.dispose();
        }
      },
      400_000,
    );

  it("resumes a session the real pi wrote, continued into Claude Code and into Codex", async () => {
    const home = join(box.root, "from-pi");
    mkdirSync(home, { recursive: true });
    writeFileSync(join(box.project, "notes.txt"), "remember the milk\n");
    server.setScript([
      {
        prompt: "Set up the notes project",
        steps: [
          { text: "I'll look around first.", calls: [{ name: "bash", input: { command: "ls" } }] },
          { calls: [{ name: "bash", input: { command: "cat missing.txt" } }] },
          { text: "notes.txt is there; missing.txt is not." },
        ],
      },
    ]);
    const wrote = await run(PI, [...PI_ARGS, "-p", "Set up the notes project"], {
      cwd: box.project,
      env: piEnv(home, server.url),
      timeoutMs: 120_000,
    });
    expect(wrote.status, wrote.stderr + wrote.stdout).toBe(0);
    const id = (await listSessions(home, "pi"))[0]!.id;
    const before = await viewCommon(home, id, "pi");

    for (const target of ["claude_code", "codex"] as const) {
      if (!known.includes(target)) continue;
      // Codex writes the copy under the provider of the user's config.toml: make it first.
      const env = cliEnv(target, home, server.url);
      const written = await txcript(
        ["continue", id, "--from", "pi", "--with", target, "--no-resume"],
        home,
      );
      expect(written.status).toBe(0);
      const copy = (await listSessions(home, target)).find((s) => s.id !== id)!;
      server.setScript([{ prompt: RESUME_PROMPT, steps: [{ text: RESUMED }] }]);
      const n = server.requests.length;
      const ran = await run(CLIS[target].bin, promptArgs(target, RESUME_PROMPT, copy.id, false), {
        cwd: box.project,
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
  }, 600_000);
});
