/**
 * Real GitHub Copilot CLI (`@github/copilot`, test/real/package.json) in its
 * offline mode (`COPILOT_OFFLINE=true`, a BYOK provider:
 * `COPILOT_PROVIDER_BASE_URL` at the mock, `COPILOT_PROVIDER_TYPE=anthropic`):
 * it writes a session in which it really runs a listing, a read and a
 * failing command; txcript lists and views it message by message. Sessions
 * continued into Copilot CLI and resumed by it: copilot-resume.test.ts.
 */

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockServer, startMockServer, type Turn } from "./server/index.js";
import { knownHarnesses, run, sandbox } from "./support/cli.js";
import { COPILOT_BIN, COPILOT_VERSION, copilotEnv } from "./support/copilot.js";
import { listSessions, viewCommon } from "./support/session.js";

const enabled = (await knownHarnesses()).includes("copilot");
if (!enabled)
  console.log(
    `[test:real] copilot ${COPILOT_VERSION}: skipped, txcript has no harness "copilot" yet`,
  );

const PROMPT = "Set up the notes project";
const FINAL = "notes.txt is there; missing.txt does not exist.";

function script(project: string): Turn[] {
  return [
    {
      prompt: PROMPT,
      steps: [
        {
          thinking: "Look around first.",
          text: "I'll look around first.",
          calls: [{ name: "bash", input: { command: "ls", description: "List files" } }],
        },
        { calls: [{ name: "view", input: { path: join(project, "notes.txt") } }] },
        {
          calls: [{ name: "bash", input: { command: "cat missing.txt", description: "Show it" } }],
        },
        { text: FINAL },
      ],
    },
  ];
}

describe.skipIf(!enabled)(`Copilot CLI ${COPILOT_VERSION} against the mock server`, () => {
  let server: MockServer;
  const box = sandbox("copilot");

  beforeAll(async () => {
    server = await startMockServer(script(box.project));
    writeFileSync(join(box.project, "notes.txt"), "remember the milk\n");
  });
  afterAll(async () => {
    await server.close();
    box.dispose();
  });

  it("writes a session offline that txcript lists and views message by message", async () => {
    const env = copilotEnv(box.home, server.url);
    const r = await run(COPILOT_BIN, ["-p", PROMPT, "--allow-all-tools"], {
      cwd: box.project,
      env,
      timeoutMs: 120_000,
    });
    expect(r.status, r.stderr + r.stdout).toBe(0);
    expect(r.stdout).toContain(FINAL);
    const listed = await listSessions(box.home, "copilot");
    expect(listed).toHaveLength(1);
    expect(listed[0]?.cwd).toBe(box.project);
    const doc = await viewCommon(box.home, listed[0]!.id, "copilot");
    expect(doc.messages.map((m) => `${m.role}:${m.content.map((b) => b.type).join("+")}`)).toEqual([
      "user:text",
      "assistant:thinking+text+tool_use",
      "user:tool_result",
      "assistant:tool_use",
      "user:tool_result",
      "assistant:tool_use",
      "user:tool_result",
      "assistant:text",
    ]);
    expect(doc.messages[0]?.content[0]?.text).toBe(PROMPT);
    const tools = doc.messages.flatMap((m) =>
      m.content.flatMap((b) => (b.type === "tool_use" ? [(b.tool as { name: string }).name] : [])),
    );
    expect(tools).toEqual(["Bash", "Read", "Bash"]);
    const results = doc.messages.flatMap((m) => m.content.filter((b) => b.type === "tool_result"));
    expect(String(results[0]?.content)).toContain("notes.txt");
    expect(String(results[1]?.content)).toContain("remember the milk");
    expect(results[2]?.is_error).toBe(true);
    expect(String(results[2]?.content)).toContain("missing.txt");
    expect(doc.messages.at(-1)?.content).toEqual([{ type: "text", text: FINAL }]);
    expect(server.unexpected).toEqual([]);
  });
});
