/**
 * Copilot CLI's resume matrix with the real CLI: agy conversations
 * (examples/home), a real Claude Code, Codex and Cline session,
 * each continued into Copilot CLI by txcript and resumed by the real
 * `copilot --resume <id> -p <prompt>` offline against the mock. The first
 * request it sends must hold the source's texts, call ids and results, in
 * order, then the new prompt; the CLI appends its answer to the copy.
 */

import { cpSync, existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockServer, startMockServer } from "./server/index.js";
import { cliVersion, knownHarnesses, REPO, run, sandbox, txcript } from "./support/cli.js";
import { CLINE_VERSION, makeClineSource } from "./support/cline.js";
import { COPILOT_BIN, COPILOT_VERSION, copilotEnv } from "./support/copilot.js";
import { listSessions, viewCommon } from "./support/session.js";
import { makeSource } from "./support/sources.js";

const known = await knownHarnesses();
const RESUME_PROMPT = "Please pick up where we left off.";
const RESUMED = "Picked up: all earlier turns are in view.";

function historyPieces(doc: { messages: { role: string; content: Record<string, unknown>[] }[] }) {
  const out: string[] = [];
  for (const m of doc.messages)
    for (const b of m.content) {
      if (b.type === "text" && String(b.text ?? "").trim() !== "") out.push(String(b.text));
      if (b.type === "tool_use") out.push(String(b.id));
      if (b.type === "tool_result" && typeof b.content === "string" && b.content.trim() !== "")
        out.push(b.content.trim());
    }
  return out;
}

function expectInOrder(sent: string, pieces: string[]) {
  let at = 0;
  for (const p of pieces) {
    const needle = JSON.stringify(p).slice(1, -1);
    const found = sent.indexOf(needle, at);
    expect(found, `in order in the request: ${p.slice(0, 80)}`).toBeGreaterThanOrEqual(0);
    at = found + needle.length;
  }
}

describe.skipIf(!known.includes("copilot"))(`Copilot CLI ${COPILOT_VERSION} resume matrix`, () => {
  let server: MockServer;
  const box = sandbox("copilot-resume");

  beforeAll(async () => {
    server = await startMockServer([]);
  });
  afterAll(async () => {
    await server.close();
    box.dispose();
  });

  async function continueAndResume(
    label: string,
    from: string,
    id: string,
    seed: (home: string) => void,
  ) {
    const home = join(box.root, `into-copilot-${label}`);
    mkdirSync(home, { recursive: true });
    seed(home);
    const before = await viewCommon(home, id, from);
    const written = await txcript(
      ["continue", id, "--from", from, "--with", "copilot", "--no-resume"],
      home,
      { allowFail: true },
    );
    expect(written.status, written.stderr).toBe(0);
    const copy = (await listSessions(home, "copilot"))[0];
    expect(copy, "the copy is listed").toBeDefined();
    server.setScript([{ prompt: RESUME_PROMPT, steps: [{ text: RESUMED }] }]);
    const n = server.requests.length;
    const ran = await run(
      COPILOT_BIN,
      ["--resume", copy!.id, "-p", RESUME_PROMPT, "--allow-all-tools"],
      {
        cwd: box.project,
        env: copilotEnv(home, server.url),
        timeoutMs: 180_000,
      },
    );
    expect(ran.status, ran.stderr.slice(-3000) + ran.stdout.slice(-3000)).toBe(0);
    const request = server.requests.slice(n).find((r) => r.scripted);
    expect(request, "Copilot CLI sent the resumed conversation").toBeDefined();
    expectInOrder(JSON.stringify(request!.body), [...historyPieces(before), RESUME_PROMPT]);
    const after = await viewCommon(home, copy!.id, "copilot");
    expect(after.messages.at(-1)?.content).toEqual([{ type: "text", text: RESUMED }]);
    expect(server.unexpected).toEqual([]);
    console.log(
      `[test:real] ${label} -> copilot ${COPILOT_VERSION}: resumed with ${before.messages.length} messages`,
    );
  }

  it("resumes agy conversations of both layouts continued into it, with the whole history", async () => {
    for (const id of [
      "8c1f2e4a-53b7-4d0e-9a61-7f3c2b9d0e15",
      "0f4c7a2e-91b3-4d5f-8e6a-3c2b1d0e9f87",
    ])
      await continueAndResume(`agy-${id.slice(0, 8)}`, "agy", id, (home) =>
        cpSync(join(REPO, "examples", "home", ".gemini"), join(home, ".gemini"), {
          recursive: true,
        }),
      );
  }, 600_000);

  it.skipIf(!known.includes("cline"))(
    `resumes a real Cline ${CLINE_VERSION} session continued into it`,
    async () => {
      const { box: src, id } = await makeClineSource(server);
      try {
        await continueAndResume("cline", "cline", id, (home) =>
          cpSync(
            join(src.home, ".cline", "data", "sessions"),
            join(home, ".cline", "data", "sessions"),
            {
              recursive: true,
            },
          ),
        );
      } finally {
        src.dispose();
      }
    },
    600_000,
  );

  for (const [cli, from, rel] of [
    ["claude_code", "claude", ".claude/projects"],
    ["codex", "codex", ".codex/sessions"],
  ] as const)
    it.skipIf(!known.includes(cli))(
      `resumes a real ${cli} ${cliVersion(cli)} session continued into it`,
      async () => {
        const src = await makeSource(cli, server);
        try {
          const listed = await listSessions(src.box.home, from);
          await continueAndResume(cli, from, listed[0]!.id, (home) => {
            const at = join(src.box.home, rel);
            if (existsSync(at)) cpSync(at, join(home, rel), { recursive: true });
          });
        } finally {
          src.box.dispose();
        }
      },
      600_000,
    );
});
