/**
 * Real pi (`@mariozechner/pi-coding-agent`, test/real/package.json): pi runs
 * against the mock server (a custom provider in `~/.pi/agent/models.json`,
 * `api: "anthropic-messages"`, `PI_OFFLINE=1`), writes a two-turn session in
 * which it really runs a listing, a read, a write, an edit and a failing
 * command; txcript lists and views it message by message. Then an agy
 * conversation of examples/home is continued into pi by txcript and resumed
 * by `pi --session <id>`: the first request pi sends must hold the agy
 * history, and pi appends its answer to the copy.
 */

import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockServer, startMockServer, type Turn } from "./server/index.js";
import { baseEnv, knownHarnesses, REPO, run, sandbox, txcript } from "./support/cli.js";
import { listSessions, viewCommon } from "./support/session.js";

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
if (!enabled) console.log(`[test:real] pi ${PI_VERSION}: skipped, txcript has no harness "pi" yet`);

const PROMPT_1 = "Set up the notes project";
const PROMPT_2 = "How many lines does hello.txt have?";
const FINAL_1 = "Wrote hello.txt; missing.txt does not exist.";
const FINAL_2 = "hello.txt has 1 line.";

function script(project: string): Turn[] {
  const hello = join(project, "hello.txt");
  return [
    {
      prompt: PROMPT_1,
      steps: [
        { text: "I'll look around first.", calls: [{ name: "bash", input: { command: "ls" } }] },
        { calls: [{ name: "read", input: { path: join(project, "notes.txt") } }] },
        { calls: [{ name: "write", input: { path: hello, content: "hello\n" } }] },
        {
          calls: [
            {
              name: "edit",
              input: { path: hello, edits: [{ oldText: "hello", newText: "hello world" }] },
            },
          ],
        },
        { calls: [{ name: "bash", input: { command: "cat missing.txt" } }] },
        { text: FINAL_1 },
      ],
    },
    {
      prompt: PROMPT_2,
      steps: [
        { calls: [{ name: "bash", input: { command: "wc -l hello.txt" } }] },
        { text: FINAL_2 },
      ],
    },
  ];
}

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

const PI_ARGS = ["--provider", "mock", "--model", "mock-model", "--no-skills"];

describe.skipIf(!enabled)(`pi ${PI_VERSION} against the mock server`, () => {
  let server: MockServer;
  const box = sandbox("pi");
  let env: Record<string, string>;

  beforeAll(async () => {
    server = await startMockServer(script(box.project));
    env = piEnv(box.home, server.url);
    writeFileSync(join(box.project, "notes.txt"), "remember the milk\n");
  });
  afterAll(async () => {
    await server.close();
    box.dispose();
  });

  it("writes a two-turn session that txcript lists and views message by message", async () => {
    const first = await run(PI, [...PI_ARGS, "-p", PROMPT_1], {
      cwd: box.project,
      env,
      timeoutMs: 120_000,
    });
    expect(first.status, first.stderr + first.stdout).toBe(0);
    expect(first.stdout).toContain(FINAL_1);
    const second = await run(PI, [...PI_ARGS, "-c", "-p", PROMPT_2], {
      cwd: box.project,
      env,
      timeoutMs: 120_000,
    });
    expect(second.status, second.stderr + second.stdout).toBe(0);
    expect(readFileSync(join(box.project, "hello.txt"), "utf8")).toBe("hello world\n");

    const listed = await listSessions(box.home, "pi");
    expect(listed).toHaveLength(1);
    const session = listed[0]!;
    expect(session.cwd).toBe(box.project);
    const doc = await viewCommon(box.home, session.id, "pi");
    const prompts = doc.messages
      .filter((m) => m.role === "user")
      .flatMap((m) => m.content.filter((b) => b.type === "text").map((b) => String(b.text)));
    expect(prompts).toEqual([PROMPT_1, PROMPT_2]);
    const tools = doc.messages.flatMap((m) =>
      m.content.flatMap((b) => (b.type === "tool_use" ? [(b.tool as { name: string }).name] : [])),
    );
    expect(tools).toEqual(["Bash", "Read", "Write", "Edit", "Bash", "Bash"]);
    const results = doc.messages.flatMap((m) =>
      m.content.flatMap((b) => (b.type === "tool_result" ? [b] : [])),
    );
    expect(results).toHaveLength(6);
    expect(String(results[0]?.content)).toContain("notes.txt");
    expect(String(results[1]?.content)).toContain("remember the milk");
    expect(results[4]?.is_error).toBe(true);
    expect(String(results[4]?.content)).toContain("missing.txt");
    expect(String(results[5]?.content)).toMatch(/^1 /);
    const texts = doc.messages
      .filter((m) => m.role === "assistant")
      .flatMap((m) => m.content.filter((b) => b.type === "text").map((b) => String(b.text)));
    expect(texts).toContain(FINAL_1);
    expect(texts).toContain(FINAL_2);
    expect(server.unexpected).toEqual([]);
  });

  it("resumes an agy conversation txcript continued into it, with the whole history", async () => {
    const home = join(box.root, "resume-home");
    mkdirSync(home, { recursive: true });
    cpSync(join(REPO, "examples", "home", ".gemini"), join(home, ".gemini"), { recursive: true });
    const source = "8c1f2e4a-53b7-4d0e-9a61-7f3c2b9d0e15";
    const before = await viewCommon(home, source, "agy");
    const written = await txcript(
      ["continue", source, "--from", "agy", "--with", "pi", "--no-resume"],
      home,
      { allowFail: true },
    );
    expect(written.status, written.stderr).toBe(0);
    const copy = (await listSessions(home, "pi"))[0];
    expect(copy).toBeDefined();
    const copyId = copy!.id;
    // The copy names the source's cwd, which is not on this machine: open it by path from the project.
    const path = copy!.path;
    const text = readFileSync(path, "utf8").split("\n");
    const header = JSON.parse(text[0]!) as Record<string, unknown>;
    header.cwd = box.project;
    text[0] = JSON.stringify(header);
    writeFileSync(path, text.join("\n"));

    const resumeEnv = piEnv(home, server.url);
    server.setScript([
      { prompt: "Please pick up where we left off.", steps: [{ text: "Picked up." }] },
    ]);
    const n = server.requests.length;
    const ran = await run(
      PI,
      [...PI_ARGS, "--session", path, "-p", "Please pick up where we left off."],
      {
        cwd: box.project,
        env: resumeEnv,
        timeoutMs: 120_000,
      },
    );
    expect(ran.status, ran.stderr + ran.stdout).toBe(0);
    const request = server.requests.slice(n).find((r) => r.scripted);
    expect(request).toBeDefined();
    const sent = JSON.stringify(request!.body);
    for (const m of before.messages)
      for (const b of m.content)
        if (b.type === "text" && String(b.text).trim() !== "")
          expect(sent).toContain(JSON.stringify(String(b.text)).slice(1, -1));
    const after = await viewCommon(home, copyId, "pi");
    expect(after.messages.length).toBeGreaterThan(before.messages.length);
    expect(after.messages.at(-1)?.content).toEqual([{ type: "text", text: "Picked up." }]);
    expect(server.unexpected).toEqual([]);
  });
});
