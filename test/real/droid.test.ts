/**
 * Real Factory Droid (`@factory/cli-linux-x64`, test/real/package.json: the
 * platform binary `@factory/cli` installs; the registry here has no
 * `@factory/cli` 0.225.2). Droid runs against the mock server through a BYOK
 * custom model in `~/.factory/settings.json` (`provider: "anthropic"`,
 * `baseUrl` = the mock), with `FACTORY_API_BASE_URL` and its telemetry URL
 * pointed at a stub Factory API on 127.0.0.1 that answers 404 to everything
 * (`droid exec -s` asks the API for the session first and takes a 404 as
 * "local only"; Airgap Mode instead refuses that request and the resume).
 * It writes a two-turn session in which it really lists, reads, creates,
 * edits and runs a failing command; txcript lists and views it message by
 * message, with the token totals of its settings file. Then agy
 * conversations of examples/home (both step layouts) and real Claude Code
 * and Codex sessions are continued into Droid by txcript and resumed by
 * `droid exec -s <id>`: the first request Droid sends must hold the
 * source's texts, call ids and results in order, then the new prompt.
 */

import {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockServer, startMockServer } from "./server/index.js";
import { cliVersion, knownHarnesses, REPO, run, sandbox, txcript } from "./support/cli.js";
import {
  ARGS,
  DROID,
  DROID_VERSION,
  droidEnv,
  droidScript,
  startFactoryStub,
} from "./support/droid.js";
import { expectInOrder, historyPieces } from "./support/history.js";
import { listSessions, viewCommon } from "./support/session.js";
import { FINAL_1, FINAL_2, makeSource, NOTES, PROMPT_1, PROMPT_2 } from "./support/sources.js";

const known = await knownHarnesses();
const enabled = known.includes("droid");
if (!enabled)
  console.log(`[test:real] droid ${DROID_VERSION}: skipped, txcript has no harness "droid" yet`);

const RESUME_PROMPT = "Please pick up where we left off.";
const RESUMED = "Picked up: all earlier turns are in view.";
/**
 * Test-only move (test/real/README.md): Droid looks for `-s <id>` in the
 * folder of the directory it runs in, and the source's cwd does not exist
 * here, so the copy (and its settings file) moves into the temp project's
 * folder, its header naming that cwd.
 */
function moveIntoProject(path: string, home: string) {
  const dir = join(home, ".factory", "sessions", box.project.replace(/\//g, "-"));
  mkdirSync(dir, { recursive: true });
  const lines = readFileSync(path, "utf8").split("\n");
  const header = JSON.parse(lines[0]!) as Record<string, unknown>;
  header.cwd = box.project;
  lines[0] = JSON.stringify(header);
  const name = path.split("/").pop()!;
  writeFileSync(join(dir, name), lines.join("\n"));
  rmSync(path);
  const settings = path.replace(/\.jsonl$/, ".settings.json");
  if (existsSync(settings))
    renameSync(settings, join(dir, name.replace(/\.jsonl$/, ".settings.json")));
}

/**
 * Droid replaces the result of its own `Edit` tool with a line of its own
 * when it sends the history (it keeps its own results as JSON and renders
 * them; docs/conversions.md): a copied Edit's result reaches the model as this.
 */
const EDIT_RESULT = "The file has been updated successfully.";

const box = sandbox("droid");

describe.skipIf(!enabled)(`Factory Droid ${DROID_VERSION} against the mock server`, () => {
  let server: MockServer;
  let api: Awaited<ReturnType<typeof startFactoryStub>>;

  beforeAll(async () => {
    server = await startMockServer(droidScript(box.project));
    api = await startFactoryStub();
    writeFileSync(join(box.project, "notes.txt"), NOTES);
  });
  afterAll(async () => {
    await server.close();
    await api.close();
    box.dispose();
  });

  it("writes a two-turn session that txcript lists and views message by message", async () => {
    const env = droidEnv(box.home, server.url, api.url);
    const first = await run(DROID, [...ARGS, PROMPT_1], { cwd: box.project, env });
    expect(first.status, first.stderr + first.stdout).toBe(0);
    expect(first.stdout).toContain(FINAL_1);
    const listed = await listSessions(box.home, "droid");
    expect(listed).toHaveLength(1);
    const session = listed[0]!;
    const second = await run(DROID, [...ARGS, "-s", session.id, PROMPT_2], {
      cwd: box.project,
      env,
    });
    expect(second.status, second.stderr + second.stdout).toBe(0);
    expect(second.stdout).toContain(FINAL_2);
    expect(readFileSync(join(box.project, "hello.txt"), "utf8")).toBe("hello world\n");

    const again = await listSessions(box.home, "droid");
    expect(again.map((s) => s.id)).toEqual([session.id]);
    expect(again[0]!.cwd).toBe(box.project);
    const doc = await viewCommon(box.home, session.id, "droid");
    expect(doc.meta.title).toBe(PROMPT_1);
    const prompts = doc.messages
      .filter((m) => m.role === "user")
      .flatMap((m) => m.content.filter((b) => b.type === "text").map((b) => String(b.text)));
    expect(prompts).toEqual([PROMPT_1, PROMPT_2]);
    const tools = doc.messages.flatMap((m) =>
      m.content.flatMap((b) => (b.type === "tool_use" ? [(b.tool as { name: string }).name] : [])),
    );
    expect(tools).toEqual(["Raw", "Read", "Write", "Edit", "Bash", "Bash"]);
    const results = doc.messages.flatMap((m) =>
      m.content.flatMap((b) => (b.type === "tool_result" ? [b] : [])),
    );
    expect(results).toHaveLength(6);
    expect(String(results[0]?.content)).toContain("notes.txt");
    expect(String(results[1]?.content)).toContain("remember the milk");
    expect(results[4]?.is_error).toBe(true);
    expect(String(results[4]?.content)).toContain("missing.txt");
    expect(String(results[5]?.content)).toMatch(/^1 hello.txt/);
    const texts = doc.messages
      .filter((m) => m.role === "assistant")
      .flatMap((m) => m.content.filter((b) => b.type === "text").map((b) => String(b.text)));
    expect(texts).toContain(FINAL_1);
    expect(texts).toContain(FINAL_2);
    // The token totals are in the settings file beside the session; they ride on the last answer.
    const settings = JSON.parse(
      readFileSync(session.path.replace(/\.jsonl$/, ".settings.json"), "utf8"),
    ) as { tokenUsage: { inputTokens: number; outputTokens: number } };
    const last = doc.messages.filter((m) => m.role === "assistant").at(-1) as unknown as {
      usage?: { input_tokens: number; output_tokens: number };
    };
    expect(settings.tokenUsage.inputTokens).toBeGreaterThan(0);
    expect(last.usage?.input_tokens).toBe(settings.tokenUsage.inputTokens);
    expect(last.usage?.output_tokens).toBe(settings.tokenUsage.outputTokens);
    expect(server.unexpected).toEqual([]);
    expect(
      api.paths.every((p) => / \/api\//.test(p)),
      api.paths.join("\n"),
    ).toBe(true);
  }, 300_000);

  /** Continue `id` into Droid in `home`, resume the copy with the real Droid, check the request. */
  async function resumeCopy(home: string, id: string, from: string, label: string) {
    const before = await viewCommon(home, id, from);
    await txcript(["continue", id, "--from", from, "--with", "droid", "--no-resume"], home);
    const copy = (await listSessions(home, "droid"))[0];
    expect(copy, `${label}: the copy is listed`).toBeDefined();
    moveIntoProject(copy!.path, home);
    server.setScript([{ prompt: RESUME_PROMPT, steps: [{ text: RESUMED }] }]);
    const n = server.requests.length;
    const ran = await run(DROID, [...ARGS, "-s", copy!.id, RESUME_PROMPT], {
      cwd: box.project,
      env: droidEnv(home, server.url, api.url),
    });
    expect(ran.status, `${label}: ${ran.stderr}${ran.stdout}`).toBe(0);
    expect(ran.stdout).toContain(RESUMED);
    const request = server.requests.slice(n).find((r) => r.scripted);
    expect(request, `${label}: Droid sent the resumed conversation`).toBeDefined();
    const sent = historyPieces(before, (call, content) =>
      (call?.tool as { name?: string } | undefined)?.name === "Edit" ? EDIT_RESULT : content,
    );
    expectInOrder(JSON.stringify(request!.body), [...sent, RESUME_PROMPT]);
    const after = await viewCommon(home, copy!.id, "droid");
    expect(after.messages.length).toBeGreaterThan(before.messages.length);
    expect(after.messages.at(-1)?.content).toEqual([{ type: "text", text: RESUMED }]);
    expect(server.unexpected).toEqual([]);
    console.log(`[test:real] ${label} -> droid ${DROID_VERSION}: resumed`);
  }

  for (const [id, label] of [
    ["0f4c7a2e-91b3-4d5f-8e6a-3c2b1d0e9f87", "agy 1.0 typed steps"],
    ["8c1f2e4a-53b7-4d0e-9a61-7f3c2b9d0e15", "agy 1.2 generic steps"],
  ] as const)
    it(`resumes an agy conversation (${label}) continued into it, with the whole history`, async () => {
      const home = join(box.root, `agy-${id.slice(0, 8)}`);
      mkdirSync(home, { recursive: true });
      cpSync(join(REPO, "examples", "home", ".gemini"), join(home, ".gemini"), { recursive: true });
      await resumeCopy(home, id, "agy", label);
    }, 300_000);

  for (const [cli, from, rel] of [
    ["claude_code", "claude", ".claude/projects"],
    ["codex", "codex", ".codex/sessions"],
  ] as const)
    it.skipIf(!known.includes(cli))(
      `resumes a real ${cli} ${cliVersion(cli)} session continued into it`,
      async () => {
        const src = await makeSource(cli, server);
        try {
          const home = join(box.root, `from-${cli}`);
          mkdirSync(home, { recursive: true });
          const at = join(src.box.home, rel);
          if (existsSync(at)) cpSync(at, join(home, rel), { recursive: true });
          const id = (await listSessions(home, from))[0]!.id;
          await resumeCopy(home, id, from, `${cli} ${cliVersion(cli)}`);
        } finally {
          src.box.dispose();
        }
      },
      400_000,
    );
});
