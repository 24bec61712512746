/**
 * `txcript continue --out DIR` resumed by the real CLI in a fresh home where
 * it never ran: a conversation is written as a self-contained copy under
 * DIR, and the CLI, pointed at DIR by the variable the printed `resume:`
 * line names, resumes it with one more prompt. Its first model request must
 * hold the whole history in order (support/history.ts; Cline, whose chat
 * request history.ts does not parse, by its texts, call ids and results in
 * order), and it must append its answer to the copy under DIR.
 *
 * Each target resumes two conversations: a generated one (a project path
 * with a space and non-ASCII letters, a JSON-shaped result, a failed
 * command, a long output), a different seed per target, and one of three
 * others, rotated by the seed: an agy conversation of examples/home in the
 * CLI's layout (typed or generic steps, by the seed), one in the desktop
 * app's layout (txcript's `--surface desktop` copy of it, read back), or a
 * plain two-message Simple document. `TXCRIPT_REAL_SEED` (7 by default)
 * moves every choice, so the suite stays at two resumes per target (time
 * bounded) and other runs cover other pairs. Each run's time is printed.
 */

import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockServer, startMockServer } from "./server/index.js";
import {
  CLIS,
  type CliId,
  cliEnv,
  cliVersion,
  knownHarnesses,
  REPO,
  run,
  sandbox,
  txcript,
} from "./support/cli.js";
import { acpResume, CLINE_VERSION, clineEnv } from "./support/cline.js";
import { COPILOT_BIN, COPILOT_VERSION, copilotEnv } from "./support/copilot.js";
import {
  actualLines,
  expectedFromCommon,
  expectInOrder,
  historyPieces,
} from "./support/history.js";
import { type CommonDoc, listSessions, viewCommon } from "./support/session.js";
import { promptArgs } from "./support/sources.js";

const RESUME_PROMPT = "Carry on from here.";
const RESUMED = "Carried on with every earlier turn in view.";
type Target = CliId | "cline" | "copilot";
const TARGETS: Target[] = [
  "claude_code",
  "codex",
  "gemini_cli",
  "opencode",
  "qwen_code",
  "pi",
  "cline",
  "copilot",
  "kilo",
];
const known = await knownHarnesses();

/** Each target's variable for DIR, and where in DIR the CLI's own settings must be (a user's too). */
const HOME_VAR: Record<Target, { variable: string; settings?: [from: string, to: string] }> = {
  claude_code: { variable: "CLAUDE_CONFIG_DIR" },
  codex: { variable: "CODEX_HOME", settings: [".codex/config.toml", "config.toml"] },
  gemini_cli: {
    variable: "GEMINI_CLI_HOME",
    settings: [".gemini/settings.json", ".gemini/settings.json"],
  },
  opencode: { variable: "XDG_DATA_HOME" },
  kilo: { variable: "XDG_DATA_HOME" },
  qwen_code: { variable: "QWEN_RUNTIME_DIR" },
  pi: { variable: "PI_CODING_AGENT_DIR", settings: [".pi/agent/models.json", "models.json"] },
  cline: { variable: "CLINE_DIR", settings: [".cline/data/settings", "data/settings"] },
  copilot: { variable: "COPILOT_HOME" },
};

/** A small deterministic generator (mulberry32), so a seed names one conversation. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A Simple document: the shapes issue 32 names, varied by the seed. */
function conversation(seed: number, cwd: string): object {
  const r = random(seed);
  const word = () => ["kiwi", "Ünïcode", "naïve café", "日本語", "tab\there"][Math.floor(r() * 5)];
  const long = Array.from({ length: 60 + Math.floor(r() * 60) }, (_, i) => `line ${i} ${word()}`);
  const json = { files: [`${word()}.txt`, "b.txt"], count: 2, nested: { ok: true, n: seed } };
  const at = (s: number) => new Date(Date.UTC(2026, 10, 20, 10, 0, s)).toISOString();
  return {
    id: `generated-${seed}`,
    timestamp: at(0),
    cwd,
    messages: [
      { role: "user", content: `Look at the project (${word()})`, timestamp: at(1) },
      {
        role: "assistant",
        timestamp: at(2),
        content: [
          { type: "text", text: `Listing as JSON, seed ${seed}.` },
          { type: "tool_use", id: "call_a", name: "Bash", input: { command: "ls --json" } },
        ],
      },
      {
        role: "user",
        timestamp: at(3),
        content: [{ type: "tool_result", tool_use_id: "call_a", content: JSON.stringify(json) }],
      },
      {
        role: "assistant",
        timestamp: at(4),
        content: [
          { type: "text", text: "Running the tests." },
          { type: "tool_use", id: "call_b", name: "Bash", input: { command: "npm test" } },
        ],
      },
      {
        role: "user",
        timestamp: at(5),
        content: [
          {
            type: "tool_result",
            tool_use_id: "call_b",
            content: "Error: 2 tests failed\nexit status 1",
            is_error: true,
          },
        ],
      },
      {
        role: "assistant",
        timestamp: at(6),
        content: [
          { type: "text", text: "Printing the log." },
          { type: "tool_use", id: "call_c", name: "Bash", input: { command: "cat build.log" } },
        ],
      },
      {
        role: "user",
        timestamp: at(7),
        content: [{ type: "tool_result", tool_use_id: "call_c", content: long.join("\n") }],
      },
      { role: "assistant", content: `Done looking (${word()}).`, timestamp: at(8) },
    ],
  };
}

const SEED = Number(process.env.TXCRIPT_REAL_SEED ?? 7);

/** The conversations besides the generated one, one per target, rotated by the seed. */
type Other = "agy-cli" | "agy-desktop" | "simple";
const OTHERS: Other[] = ["agy-cli", "agy-desktop", "simple"];
/** examples/home's agy conversations: agy 1.2's generic steps and agy 1.0's typed steps. */
const AGY = ["8c1f2e4a-53b7-4d0e-9a61-7f3c2b9d0e15", "0f4c7a2e-91b3-4d5f-8e6a-3c2b1d0e9f87"];

interface Case {
  target: Target;
  source: string;
  seed: number;
}
const CASES: Case[] = TARGETS.flatMap((target, i) => [
  { target, source: "generated", seed: SEED + i },
  { target, source: OTHERS[(SEED + i) % OTHERS.length]!, seed: SEED + i },
]);

/**
 * The document a case continues, written to a file, with the project as its
 * cwd (the CLIs resume a session from its directory): a generated or Simple
 * one as is, an agy conversation as txcript views it (Common JSON).
 */
async function sourceDoc(c: Case, root: string, project: string): Promise<string> {
  const doc = join(root, "conversation.json");
  if (c.source === "generated") {
    writeFileSync(doc, JSON.stringify(conversation(c.seed, project)));
    return doc;
  }
  if (c.source === "simple") {
    const simple = {
      cwd: project,
      messages: [
        { role: "user", content: "Say hello." },
        { role: "assistant", content: `Hello (simple, seed ${c.seed}).` },
      ],
    };
    writeFileSync(doc, JSON.stringify(simple));
    return doc;
  }
  // An agy conversation, in the CLI's layout or (through txcript's desktop copy) the app's.
  const home = join(root, "agy home");
  cpSync(join(REPO, "examples", "home", ".gemini"), join(home, ".gemini"), { recursive: true });
  let id = AGY[c.seed % AGY.length]!;
  if (c.source === "agy-desktop") {
    const copied = await txcript(
      ["continue", id, "--from", "agy", "--with", "agy", "--surface", "desktop", "--no-resume"],
      home,
    );
    id = copied.stdout.split("\n")[0]!.trim();
  }
  if (c.source === "agy-desktop") {
    const listed = await listSessions(home, "agy");
    const copy = listed.find((s) => s.id === id);
    expect(copy?.path, "read from the app's layout").toContain("/.gemini/antigravity/");
  }
  const common = await viewCommon(home, id, "agy");
  writeFileSync(doc, JSON.stringify({ ...common, meta: { ...common.meta, cwd: project } }));
  return doc;
}

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer();
});
afterAll(async () => {
  await server?.close();
});

/** Resume the copy `id` with the real target (env pointing at DIR): the first scripted request, or a failure. */
async function resume(
  target: Target,
  id: string,
  project: string,
  at: Record<string, string>,
  before: CommonDoc,
): Promise<void> {
  server.setScript([{ prompt: RESUME_PROMPT, steps: [{ text: RESUMED }] }]);
  const mark = server.requests.length;
  const started = Date.now();
  let status: string;
  if (target === "cline") {
    const r = await acpResume(at, project, id, RESUME_PROMPT);
    status = String(r.stopReason);
    expect(r.stopReason, r.stderr.slice(-3000)).toBe("end_turn");
  } else if (target === "copilot") {
    const r = await run(COPILOT_BIN, ["--resume", id, "-p", RESUME_PROMPT, "--allow-all-tools"], {
      cwd: project,
      env: at,
      timeoutMs: 240_000,
    });
    status = `exit ${r.status}`;
    expect(r.status, `copilot exited ${r.status}\n${r.stderr.slice(-3000)}`).toBe(0);
  } else {
    const r = await run(CLIS[target].bin, promptArgs(target, RESUME_PROMPT, id, false), {
      cwd: project,
      env: at,
      timeoutMs: 240_000,
    });
    status = `exit ${r.status}`;
    expect(r.status, `${target} exited ${r.status}\n${r.stderr.slice(-3000)}`).toBe(0);
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const version =
    target === "cline"
      ? CLINE_VERSION
      : target === "copilot"
        ? COPILOT_VERSION
        : cliVersion(target);
  console.log(`[test:real] --out -> ${target} ${version}: resumed in ${seconds} s (${status})`);
  expect(server.unexpected).toEqual([]);
  const sent = server.requests.slice(mark).filter((q) => q.scripted);
  expect(sent.length, "the resumed CLI sent no model turn").toBeGreaterThanOrEqual(1);
  // Cline and Copilot CLI are not in support/history.ts's line-by-line reading: texts, call ids and results in order.
  if (target === "cline" || target === "copilot") {
    expectInOrder(JSON.stringify(sent[0]!.body), [...historyPieces(before), RESUME_PROMPT]);
    return;
  }
  const expected = expectedFromCommon(before, RESUME_PROMPT, target);
  const actual = actualLines(sent[0]!.parsed.items, target, expected);
  if (actual.problems.length)
    console.log(`[test:real] --out -> ${target}:\n  ${actual.problems.join("\n  ")}`);
  expect(actual.lines).toEqual(expected.lines);
  expect(actual.problems).toEqual([]);
}

describe.each(CASES)("continue --out DIR, resumed by the real $target in a fresh home", (c) => {
  it.skipIf(!known.includes(c.target))(
    `${c.source}, seed ${c.seed}: the whole history reaches the model, the answer lands under DIR`,
    async () => {
      const { target } = c;
      const box = sandbox(`out-${target}`);
      try {
        const project = join(box.root, "my project ☕");
        mkdirSync(project);
        const env =
          target === "cline"
            ? clineEnv(box.home, server.url)
            : target === "copilot"
              ? copilotEnv(box.home, server.url)
              : cliEnv(target, box.home, server.url);
        const { variable, settings } = HOME_VAR[target];
        const out = join(box.root, "copy home ü");
        mkdirSync(out);
        // The CLI's own settings in DIR, where the variable makes it look (a user's would be there too).
        if (settings) {
          mkdirSync(join(out, settings[1], ".."), { recursive: true });
          cpSync(join(box.home, settings[0]), join(out, settings[1]), { recursive: true });
        }
        const doc = await sourceDoc(c, box.root, project);

        const cont = await txcript(["continue", doc, "--with", target, "--out", out], box.home);
        const [id, line] = cont.stdout.trimEnd().split("\n");
        expect(id).toBeTruthy();
        expect(line).toContain(`${variable}='${out}'`);
        const before = await viewCommon(box.home, doc);
        await resume(target, id ?? "", project, { ...env, [variable]: out }, before);

        // The answer is in the copy under DIR, read through the same variable.
        const after = await txcript(
          ["view", id ?? "", "--from", target, "--format", "json"],
          box.home,
          { env: { [variable]: out } },
        );
        const messages = (JSON.parse(after.stdout) as CommonDoc).messages;
        const last = messages.at(-1);
        expect(last?.role).toBe("assistant");
        expect(last?.content.some((b) => b.type === "text" && b.text === RESUMED)).toBe(true);
      } finally {
        box.dispose();
      }
    },
    300_000,
  );
});
