/**
 * Copilot CLI's resume matrix with the real CLI: agy conversations
 * (examples/home), a real Claude Code, Codex and Cline session,
 * each continued into Copilot CLI by txcript and resumed by the real
 * `copilot --resume <id> -p <prompt>` offline against the mock. The first
 * request it sends must hold the source's texts, call ids and results, in
 * order, then the new prompt; the CLI appends its answer to the copy.
 */

import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockServer, startMockServer } from "./server/index.js";
import { cliVersion, knownHarnesses, run, sandbox } from "./support/cli.js";
import { CLINE_VERSION, makeClineSource } from "./support/cline.js";
import { COPILOT_BIN, COPILOT_VERSION, copilotEnv } from "./support/copilot.js";
import {
  AGY_EXAMPLE_IDS,
  continuedCopy,
  expectInOrder,
  historyPieces,
  seedAgyExamples,
  seedFrom,
} from "./support/history.js";
import { listSessions, viewCommon } from "./support/session.js";
import { makeSource } from "./support/sources.js";

const known = await knownHarnesses();
const RESUME_PROMPT = "Please pick up where we left off.";
const RESUMED = "Picked up: all earlier turns are in view.";

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
    const { before, copy } = await continuedCopy(home, from, id, seed, "copilot");
    server.setScript([{ prompt: RESUME_PROMPT, steps: [{ text: RESUMED }] }]);
    const n = server.requests.length;
    const ran = await run(
      COPILOT_BIN,
      ["--resume", copy.id, "-p", RESUME_PROMPT, "--allow-all-tools"],
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
    const after = await viewCommon(home, copy.id, "copilot");
    expect(after.messages.at(-1)?.content).toEqual([{ type: "text", text: RESUMED }]);
    expect(server.unexpected).toEqual([]);
    console.log(
      `[test:real] ${label} -> copilot ${COPILOT_VERSION}: resumed with ${before.messages.length} messages`,
    );
  }

  it("resumes agy conversations of both layouts continued into it, with the whole history", async () => {
    for (const id of AGY_EXAMPLE_IDS)
      await continueAndResume(`agy-${id.slice(0, 8)}`, "agy", id, seedAgyExamples);
  }, 600_000);

  it.skipIf(!known.includes("cline"))(
    `resumes a real Cline ${CLINE_VERSION} session continued into it`,
    async () => {
      const { box: src, id } = await makeClineSource(server);
      try {
        await continueAndResume("cline", "cline", id, seedFrom(src.home, ".cline/data/sessions"));
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
          await continueAndResume(cli, from, listed[0]!.id, seedFrom(src.box.home, rel));
        } finally {
          src.box.dispose();
        }
      },
      600_000,
    );
});
