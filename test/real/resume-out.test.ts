/**
 * `txcript continue --out DIR` resumed by the real CLI in a fresh home where
 * it never ran: a generated conversation (a project path with a space and
 * non-ASCII letters, a JSON-shaped result, a failed command, a long output)
 * is written as a self-contained copy under DIR, and the CLI, pointed at DIR
 * by the variable the printed `resume:` line names, resumes it with one
 * more prompt. Its first model request must hold the whole history in
 * order (support/history.ts), and it must append its answer to the copy
 * under DIR. Each run's time is printed (OpenCode's first start, which
 * migrates a database it did not make, timed out under load before).
 */

import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockServer, startMockServer } from "./server/index.js";
import {
  CLIS,
  type CliId,
  cliEnv,
  cliVersion,
  knownHarnesses,
  run,
  sandbox,
  txcript,
} from "./support/cli.js";
import { actualLines, expectedFromCommon } from "./support/history.js";
import { viewCommon } from "./support/session.js";
import { promptArgs } from "./support/sources.js";

const RESUME_PROMPT = "Carry on from here.";
const RESUMED = "Carried on with every earlier turn in view.";
const CLI_IDS: CliId[] = ["claude_code", "codex", "gemini_cli", "opencode", "qwen_code"];
const known = await knownHarnesses();

/** Each target's variable for DIR, and where in DIR the CLI's own settings must be (a user's too). */
const HOME_VAR: Record<CliId, { variable: string; settings?: [from: string, to: string] }> = {
  claude_code: { variable: "CLAUDE_CONFIG_DIR" },
  codex: { variable: "CODEX_HOME", settings: [".codex/config.toml", "config.toml"] },
  gemini_cli: {
    variable: "GEMINI_CLI_HOME",
    settings: [".gemini/settings.json", ".gemini/settings.json"],
  },
  opencode: { variable: "XDG_DATA_HOME" },
  qwen_code: { variable: "QWEN_RUNTIME_DIR" },
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

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer();
});
afterAll(async () => {
  await server?.close();
});

describe.each(CLI_IDS)("continue --out DIR, resumed by the real %s in a fresh home", (target) => {
  it.skipIf(!known.includes(target))(
    `seed ${SEED}: the whole history reaches the model, the answer lands under DIR`,
    async () => {
      const box = sandbox(`out-${target}`);
      try {
        const project = join(box.root, "my project ☕");
        mkdirSync(project);
        const env = cliEnv(target, box.home, server.url);
        const { variable, settings } = HOME_VAR[target];
        const out = join(box.root, "copy home ü");
        mkdirSync(out);
        // The CLI's own settings in DIR, where the variable makes it look (a user's would be there too).
        if (settings) {
          mkdirSync(join(out, settings[1], ".."), { recursive: true });
          copyFileSync(join(box.home, settings[0]), join(out, settings[1]));
        }
        const doc = join(box.root, "conversation.json");
        writeFileSync(doc, JSON.stringify(conversation(SEED, project)));

        const cont = await txcript(["continue", doc, "--with", target, "--out", out], box.home);
        const [id, resume] = cont.stdout.trimEnd().split("\n");
        expect(id).toBeTruthy();
        expect(resume).toContain(`${variable}='${out}'`);
        const at = { ...env, [variable]: out };
        const before = await viewCommon(box.home, doc);

        server.setScript([{ prompt: RESUME_PROMPT, steps: [{ text: RESUMED }] }]);
        const mark = server.requests.length;
        const started = Date.now();
        const r = await run(CLIS[target].bin, promptArgs(target, RESUME_PROMPT, id, false), {
          cwd: project,
          env: at,
          timeoutMs: 240_000,
        });
        const seconds = ((Date.now() - started) / 1000).toFixed(1);
        console.log(
          `[test:real] --out -> ${target} ${cliVersion(target)}: resumed in ${seconds} s (exit ${r.status})`,
        );
        expect(r.status, `${target} exited ${r.status}\n${r.stderr.slice(-3000)}`).toBe(0);
        expect(server.unexpected).toEqual([]);
        const sent = server.requests.slice(mark).filter((q) => q.scripted);
        expect(sent.length, "the resumed CLI sent no model turn").toBeGreaterThanOrEqual(1);
        const expected = expectedFromCommon(before, RESUME_PROMPT, target);
        const actual = actualLines(sent[0]!.parsed.items, target, expected);
        if (actual.problems.length)
          console.log(`[test:real] --out -> ${target}:\n  ${actual.problems.join("\n  ")}`);
        expect(actual.lines).toEqual(expected.lines);
        expect(actual.problems).toEqual([]);

        // The answer is in the copy under DIR, read through the same variable.
        const after = await txcript(
          ["view", id ?? "", "--from", target, "--format", "json"],
          box.home,
          { env: { [variable]: out } },
        );
        const messages = (
          JSON.parse(after.stdout) as {
            messages: { role: string; content: { type: string; text?: string }[] }[];
          }
        ).messages;
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
