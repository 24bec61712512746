/**
 * Real Cline (`cline` on npm, test/real/package.json) against the mock
 * server: an OpenAI-compatible provider in `<data>/settings/providers.json`
 * (what `cline auth -p openai -b <url>` writes), telemetry opted out in
 * `global-settings.json`, `CLINE_SESSION_BACKEND_MODE=local` (no background
 * hub daemon) and `IS_TEST=true` (Cline's feature-flag client is then a
 * stub: without it Cline 3.0.65 calls `data.cline.bot`). Cline writes a
 * session in which it really runs a listing, a read, two patches and a
 * failing command; a second turn resumes it through Cline's ACP mode
 * (`cline --acp`, `session/load` then `session/prompt`: `cline --id` opens
 * only the terminal UI). txcript reads it message by message. Then sessions
 * of agy (examples/home), the real Claude Code, Codex and Copilot CLI are
 * continued into Cline by txcript and resumed the same way: the first
 * request Cline sends must hold the source's texts, calls and results, in
 * order, and Cline appends its answer to the copy.
 */

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockServer, startMockServer } from "./server/index.js";
import { cliVersion, knownHarnesses, run, sandbox, txcript } from "./support/cli.js";
import {
  acpResume,
  CLINE_BIN,
  CLINE_MODEL,
  CLINE_VERSION,
  clineEnv,
  clineScript,
} from "./support/cline.js";
import { COPILOT_VERSION, makeCopilotSource } from "./support/copilot.js";
import {
  AGY_EXAMPLE_IDS,
  continuedCopy,
  expectInOrder,
  historyPieces,
  seedAgyExamples,
  seedFrom,
} from "./support/history.js";
import { listSessions, viewCommon } from "./support/session.js";
import { FINAL_1, FINAL_2, makeSource, PROMPT_1, PROMPT_2 } from "./support/sources.js";

const known = await knownHarnesses();
const enabled = known.includes("cline");
if (!enabled)
  console.log(`[test:real] cline ${CLINE_VERSION}: skipped, txcript has no harness "cline" yet`);

const RESUME_PROMPT = "Please pick up where we left off.";
const RESUMED = "Picked up: all earlier turns are in view.";

describe.skipIf(!enabled)(`Cline ${CLINE_VERSION} against the mock server`, () => {
  let server: MockServer;
  const box = sandbox("cline");
  let env: Record<string, string>;

  beforeAll(async () => {
    server = await startMockServer(clineScript(box.project));
    env = clineEnv(box.home, server.url);
    writeFileSync(join(box.project, "notes.txt"), "remember the milk\n");
  });
  afterAll(async () => {
    await server.close();
    if (process.env.TXCRIPT_KEEP_REAL === undefined) box.dispose();
  });

  it("writes a session, resumed over ACP, that txcript lists and views message by message", async () => {
    const first = await run(CLINE_BIN, ["--json", PROMPT_1], {
      cwd: box.project,
      env,
      timeoutMs: 300_000,
    });
    expect(first.status, first.stderr.slice(-3000) + first.stdout.slice(-3000)).toBe(0);
    expect(first.stdout).toContain(FINAL_1);
    // Cline's apply_patch writes an added file's lines without a final newline.
    expect(readFileSync(join(box.project, "hello.txt"), "utf8").trimEnd()).toBe("hello world");

    const listed = await listSessions(box.home, "cline");
    expect(listed).toHaveLength(1);
    const session = listed[0]!;
    expect(session.cwd).toBe(box.project);

    const second = await acpResume(env, box.project, session.id, PROMPT_2);
    expect(second.stopReason, second.stderr.slice(-3000)).toBe("end_turn");

    const doc = await viewCommon(box.home, session.id, "cline");
    const prompts = doc.messages
      .filter((m) => m.role === "user")
      .flatMap((m) => m.content.filter((b) => b.type === "text").map((b) => String(b.text)));
    expect(prompts).toEqual([PROMPT_1, PROMPT_2]);
    const tools = doc.messages.flatMap((m) =>
      m.content.flatMap((b) => (b.type === "tool_use" ? [(b.tool as { name: string }).name] : [])),
    );
    expect(tools).toEqual(["Bash", "Read", "Write", "Edit", "Bash", "Bash"]);
    const results = doc.messages.flatMap((m) => m.content.filter((b) => b.type === "tool_result"));
    expect(results).toHaveLength(6);
    // Cline keeps a command's or a read's result as entries `{query, result, success}`: read as text.
    const out = (c: unknown) => (typeof c === "string" ? c : JSON.stringify(c));
    expect(typeof results[0]?.content).toBe("string");
    expect(results[4]?.is_error).toBe(true);
    expect(out(results[0]?.content)).toContain("notes.txt");
    expect(out(results[1]?.content)).toContain("remember the milk");
    expect(out(results[4]?.content)).toContain("missing.txt");
    // The added file has no final newline (above), so `wc -l` counts 0 lines.
    expect(out(results[5]?.content)).toMatch(/^0 hello\.txt/);
    const thinking = doc.messages.flatMap((m) => m.content.filter((b) => b.type === "thinking"));
    expect(thinking.map((b) => b.text)).toContain("Look around first.");
    const texts = doc.messages
      .filter((m) => m.role === "assistant")
      .flatMap((m) => m.content.filter((b) => b.type === "text").map((b) => String(b.text)));
    expect(texts).toContain(FINAL_1);
    expect(texts).toContain(FINAL_2);
    expect(doc.meta.cli_version).toBe(CLINE_VERSION);
    expect(doc.meta.model).toBe(CLINE_MODEL);

    const usage = await txcript(["usage", "--json", "--from", "cline"], box.home);
    expect(usage.stdout).toContain(CLINE_MODEL);
    expect(server.unexpected).toEqual([]);
  }, 300_000);

  /** Continue `id` of `from` (its store seeded into a fresh HOME) into Cline, and resume the copy. */
  async function continueAndResume(
    label: string,
    from: string,
    id: string,
    seed: (home: string) => void,
  ) {
    const home = join(box.root, `resume-${label}`);
    const { before, copy } = await continuedCopy(home, from, id, seed, "cline");
    // The copy names the source's cwd, which need not exist here: point its manifest at the project.
    const manifestPath = copy.path.replace(/\.messages\.json$/, ".json");
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as Record<string, unknown>;
    manifest.cwd = box.project;
    manifest.workspace_root = box.project;
    writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));

    const resumeEnv = clineEnv(home, server.url);
    server.setScript([{ prompt: RESUME_PROMPT, steps: [{ text: RESUMED }] }]);
    const n = server.requests.length;
    const ran = await acpResume(resumeEnv, box.project, copy.id, RESUME_PROMPT);
    expect(ran.stopReason, ran.stderr.slice(-3000)).toBe("end_turn");
    const request = server.requests.slice(n).find((r) => r.scripted);
    expect(request, "Cline sent the resumed conversation").toBeDefined();
    const sent = JSON.stringify(request!.body);
    writeFileSync(join(box.root, `sent-${label}.json`), JSON.stringify(request!.body, null, 1));
    expectInOrder(sent, [...historyPieces(before), RESUME_PROMPT]);
    for (const m of before.messages)
      for (const b of m.content)
        if (b.type === "thinking" && String(b.text ?? "").trim() !== "")
          expect(sent).toContain(JSON.stringify(String(b.text)).slice(1, -1));
    const after = await viewCommon(home, copy.id, "cline");
    expect(after.messages.length).toBeGreaterThan(before.messages.length);
    expect(after.messages.at(-1)?.content).toEqual([{ type: "text", text: RESUMED }]);
    expect(server.unexpected).toEqual([]);
    console.log(
      `[test:real] ${label} -> cline ${CLINE_VERSION}: resumed with ${before.messages.length} messages`,
    );
  }

  it("resumes agy conversations txcript continued into it, with the whole history", async () => {
    for (const id of AGY_EXAMPLE_IDS)
      await continueAndResume(`agy-${id.slice(0, 8)}`, "agy", id, seedAgyExamples);
  }, 300_000);

  it.skipIf(!known.includes("copilot"))(
    `resumes a real Copilot CLI ${COPILOT_VERSION} session txcript continued into it`,
    async () => {
      const { box: src, id } = await makeCopilotSource(server);
      try {
        await continueAndResume(
          "copilot",
          "copilot",
          id,
          seedFrom(src.home, ".copilot/session-state"),
        );
      } finally {
        src.dispose();
      }
    },
    400_000,
  );

  for (const [cli, from, rel] of [
    ["claude_code", "claude", ".claude/projects"],
    ["codex", "codex", ".codex/sessions"],
  ] as const)
    it.skipIf(!known.includes(cli))(
      `resumes a real ${cli} ${cliVersion(cli)} session txcript continued into it`,
      async () => {
        const src = await makeSource(cli, server);
        try {
          const listed = await listSessions(src.box.home, from);
          expect(listed).toHaveLength(1);
          await continueAndResume(cli, from, listed[0]!.id, seedFrom(src.box.home, rel));
        } finally {
          src.box.dispose();
        }
      },
      400_000,
    );
});
