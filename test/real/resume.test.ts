/**
 * Real resume: every stored source (the agy conversations of examples/home in
 * both step layouts, and each real CLI's own session, Copilot CLI's and
 * Cline's included) continued into every target with txcript, then resumed
 * by the target's real CLI with one more prompt. The request the CLI sends must hold the converted history in order
 * (support/history.ts). Targets and sources whose harness the built txcript
 * does not know yet are skipped with the reason printed.
 */

import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockServer, startMockServer } from "./server/index.js";
import {
  CLIS,
  type CliId,
  CODEX_PROVIDER,
  cliEnv,
  cliVersion,
  knownHarnesses,
  REPO,
  run,
  sandbox,
  txcript,
} from "./support/cli.js";
import { CLINE_VERSION, makeClineSource } from "./support/cline.js";
import { COPILOT_VERSION, makeCopilotSource } from "./support/copilot.js";
import { actualLines, expectedFromCommon } from "./support/history.js";
import { viewCommon } from "./support/session.js";
import { makeSource, promptArgs, type RealSource } from "./support/sources.js";

const RESUME_PROMPT = "Please pick up where we left off.";
const RESUMED = "Picked up: all earlier turns are in view.";
const CLI_IDS: CliId[] = ["claude_code", "codex", "gemini_cli", "opencode", "qwen_code", "kilo"];
const known = await knownHarnesses();
const enabled = CLI_IDS.filter((c) => known.includes(c));
for (const c of CLI_IDS)
  if (!enabled.includes(c))
    console.log(
      `[test:real] ${c} ${cliVersion(c)}: skipped as source and target, txcript has no harness "${c}" yet`,
    );

interface Source {
  label: string;
  harness: string;
  id: string;
  /** Copy the source's store into a HOME. */
  seed(home: string): void;
}

const EXAMPLE_HOME = join(REPO, "examples", "home");
const AGY: Source[] = [
  ["0f4c7a2e-91b3-4d5f-8e6a-3c2b1d0e9f87", "agy 1.0 typed steps (0f4c7a2e)"],
  ["8c1f2e4a-53b7-4d0e-9a61-7f3c2b9d0e15", "agy 1.2 generic steps, tools (8c1f2e4a)"],
  ["5d458282-26eb-46a2-b098-bc7cc3987310", "agy 1.2 generic steps, resumed (5d458282)"],
].map(([id, label]) => ({
  label: label!,
  harness: "antigravity",
  id: id!,
  seed: (home: string) =>
    cpSync(join(EXAMPLE_HOME, ".gemini"), join(home, ".gemini"), { recursive: true }),
}));

/** The store files of a CLI's session, relative to its HOME. */
const STORE: Record<CliId, string[]> = {
  claude_code: [".claude/projects"],
  codex: [".codex/sessions"],
  gemini_cli: [".gemini/tmp", ".gemini/projects.json"],
  opencode: [".local/share/opencode"],
  kilo: [".local/share/kilo"],
  qwen_code: [".qwen/projects"],
  pi: [".pi/agent/sessions"],
};

function realSource(src: RealSource, id: string): Source {
  return {
    label: `${src.cli} ${cliVersion(src.cli)} real session`,
    harness: src.cli,
    id,
    seed: (home) => {
      for (const rel of STORE[src.cli]) {
        const from = join(src.box.home, rel);
        if (existsSync(from)) cpSync(from, join(home, rel), { recursive: true });
      }
    },
  };
}

/** Claude Code keys sessions by the directory they ran in. */
const claudeSlug = (cwd: string) => cwd.replace(/[^A-Za-z0-9]/g, "-");

/**
 * Test-only moves of the written copy, documented in test/real/README.md and
 * docs/conversions.md ("Resumed by the real CLIs"): the copy is put in the
 * temp project (the source's cwd does not exist here). A Codex rollout
 * already names the mock's provider: txcript writes the copy under the
 * `model_provider` of the user's config.toml (Codex refuses to switch a
 * thread's provider on resume), and this checks it.
 */
function prepareCopy(target: CliId, path: string, project: string, home: string): string {
  const lines = readFileSync(path, "utf8").split("\n");
  const out = lines.map((line) => {
    if (!line.trim()) return line;
    const rec = JSON.parse(line) as Record<string, unknown>;
    if ((target === "claude_code" || target === "qwen_code") && typeof rec.cwd === "string")
      rec.cwd = project;
    if (
      target === "codex" &&
      rec.type === "session_meta" &&
      typeof rec.payload === "object" &&
      rec.payload
    ) {
      const p = rec.payload as Record<string, unknown>;
      expect(p.model_provider, "the copy is written under the user's provider").toBe(
        CODEX_PROVIDER,
      );
      p.cwd = project;
    }
    // Gemini CLI finds a project's sessions by the sha256 of its path.
    if (target === "gemini_cli" && typeof rec.projectHash === "string")
      rec.projectHash = createHash("sha256").update(project).digest("hex");
    if (
      target === "codex" &&
      rec.type === "turn_context" &&
      typeof rec.payload === "object" &&
      rec.payload
    )
      (rec.payload as Record<string, unknown>).cwd = project;
    return JSON.stringify(rec);
  });
  let dest = path;
  if (target === "claude_code") {
    dest = join(home, ".claude", "projects", claudeSlug(project), path.split("/").pop()!);
    mkdirSync(dirname(dest), { recursive: true });
  }
  // Qwen Code looks for a session under its cwd's folder (the same sanitizing as Claude Code's).
  if (target === "qwen_code") {
    dest = join(home, ".qwen", "projects", claudeSlug(project), "chats", path.split("/").pop()!);
    mkdirSync(dirname(dest), { recursive: true });
  }
  writeFileSync(`${dest}.tmp`, out.join("\n"));
  renameSync(`${dest}.tmp`, dest);
  if (dest !== path) unlinkSync(path);
  if (target === "gemini_cli") {
    // …and the project's folder (tmp/<slug>) through projects.json and the folder's .project_root.
    const slugDir = dirname(dirname(path));
    const registry = join(home, ".gemini", "projects.json");
    const doc = JSON.parse(readFileSync(registry, "utf8")) as { projects: Record<string, string> };
    doc.projects[project] = slugDir.split("/").pop()!;
    writeFileSync(registry, JSON.stringify(doc, null, 2));
    writeFileSync(join(slugDir, ".project_root"), project);
  }
  return dest;
}

/** OpenCode (and Kilo, built on it) resumes a session in its recorded directory: point the copy at the temp project. */
function prepareOpencodeCopy(
  target: "opencode" | "kilo",
  home: string,
  id: string,
  project: string,
) {
  const db = new Database(join(home, ".local", "share", target, `${target}.db`));
  try {
    const changed = db
      .prepare("UPDATE session SET directory = ? WHERE id = ?")
      .run(project, id).changes;
    if (changed !== 1) throw new Error(`no ${target} session ${id} in ${home}`);
  } finally {
    db.close();
  }
}

/**
 * Copilot CLI and Cline write sources too (support/copilot.ts, support/cline.ts); they are
 * targets in their own files (copilot-resume.test.ts, cline.test.ts).
 */
const COPILOT_LABEL = `copilot ${COPILOT_VERSION} real session`;
const copilotOn = known.includes("copilot");
const CLINE_LABEL = `cline ${CLINE_VERSION} real session`;
const clineOn = known.includes("cline");

let server: MockServer;
const real: Source[] = [];
const made: RealSource[] = [];
const disposals: (() => void)[] = [];

beforeAll(async () => {
  server = await startMockServer();
  for (const cli of enabled) {
    const src = await makeSource(cli, server);
    made.push(src);
    const listed = await txcript(["list", "--json", "--from", cli], src.box.home);
    const id = (JSON.parse(listed.stdout) as { sessions: { id: string }[] }).sessions[0]?.id;
    if (!id) throw new Error(`txcript lists no ${cli} session in ${src.box.home}`);
    real.push(realSource(src, id));
  }
  if (copilotOn) {
    const { box, id } = await makeCopilotSource(server);
    disposals.push(box.dispose);
    real.push({
      label: COPILOT_LABEL,
      harness: "copilot",
      id,
      seed: (home) =>
        cpSync(
          join(box.home, ".copilot", "session-state"),
          join(home, ".copilot", "session-state"),
          {
            recursive: true,
          },
        ),
    });
  }
  if (clineOn) {
    const { box, id } = await makeClineSource(server);
    disposals.push(box.dispose);
    real.push({
      label: CLINE_LABEL,
      harness: "cline",
      id,
      seed: (home) =>
        cpSync(
          join(box.home, ".cline", "data", "sessions"),
          join(home, ".cline", "data", "sessions"),
          {
            recursive: true,
          },
        ),
    });
  }
  expect(server.unexpected).toEqual([]);
});
afterAll(async () => {
  await server?.close();
  for (const m of made) m.box.dispose();
  for (const d of disposals) d();
});

const sources = () => [...AGY, ...real];
const SOURCE_LABELS = [
  ...AGY.map((s) => s.label),
  ...enabled.map((c) => `${c} ${cliVersion(c)} real session`),
  ...(copilotOn ? [COPILOT_LABEL] : []),
  ...(clineOn ? [CLINE_LABEL] : []),
];

/**
 * Pairs that fail and are open work, skipped with the reason printed so the
 * rest of the matrix keeps guarding (every other pair passed, last full run
 * 2026-12-03; the kilo pairs 2026-12-06). Keys are a target, or
 * `target/source label`.
 */
// A pair a real CLI is known not to resume, with the reason printed. None today: Kilo 7.7.7
// dropped histories whose copied ids predated the 2026-08-14 wrap of OpenCode's 48-bit id
// clock until the writer's clock started at the history (shared/opencode/ids.ts).
const KNOWN_FAILING: Record<string, string> = {};

function knownFailing(target: string, label: string): string | undefined {
  return KNOWN_FAILING[target] ?? KNOWN_FAILING[`${target}/${label}`];
}

describe.each(CLI_IDS)("resumed by the real %s", (target) => {
  const on = enabled.includes(target);
  const failing = SOURCE_LABELS.filter((l) => knownFailing(target, l) !== undefined);
  for (const label of failing)
    process.stdout.write(
      `[test:real] skipped ${label} -> ${target}: ${knownFailing(target, label)}\n`,
    );
  it.skip.each(failing)("from %s (known failing, see the reason printed)", () => {});
  const runs = SOURCE_LABELS.filter((l) => knownFailing(target, l) === undefined);
  it.skipIf(!on || runs.length === 0).each(runs.length > 0 ? runs : ["-"])(
    "from %s",
    async (label) => {
      const src = sources().find((s) => s.label === label)!;
      const box = sandbox(`resume-${target}`);
      try {
        const env = cliEnv(target, box.home, server.url);
        // No OpenCode or Kilo database in the target HOME: txcript creates the one the CLI would.
        src.seed(box.home);
        const before = await viewCommon(box.home, src.id, src.harness);
        expect(before.messages.length, "the source has messages").toBeGreaterThan(0);

        const cont = await txcript(
          ["continue", src.id, "--from", src.harness, "--with", target, "--no-resume"],
          box.home,
        );
        const newId = cont.stdout.split("\n")[0]!.trim();
        const path = cont.stderr.split("\n")[1]?.trim() ?? "";
        expect(existsSync(path), `${path} from:\n${cont.stderr}`).toBe(true);
        if (target === "opencode" || target === "kilo")
          prepareOpencodeCopy(target, box.home, newId, box.project);
        else prepareCopy(target, path, box.project, box.home);

        server.setScript([{ prompt: RESUME_PROMPT, steps: [{ text: RESUMED }] }]);
        const mark = server.requests.length;
        const r = await run(CLIS[target].bin, promptArgs(target, RESUME_PROMPT, newId, false), {
          cwd: box.project,
          env,
          timeoutMs: 150_000,
        });
        expect(r.status, `${target} resume exited ${r.status}\n${r.stderr.slice(-3000)}`).toBe(0);
        expect(server.unexpected).toEqual([]);
        const sent = server.requests.slice(mark).filter((q) => q.scripted);
        expect(sent.length, "the resumed CLI sent no model turn").toBeGreaterThanOrEqual(1);

        const expected = expectedFromCommon(before, RESUME_PROMPT, target);
        const actual = actualLines(sent[0]!.parsed.items, target, expected);
        if (actual.filled.length)
          console.log(
            `[test:real] ${label} -> ${target}: a call left unanswered was answered by the target: ${actual.filled.join("; ")}`,
          );
        if (actual.problems.length)
          console.log(`[test:real] ${label} -> ${target}:\n  ${actual.problems.join("\n  ")}`);
        expect(actual.lines).toEqual(expected.lines);
        expect(actual.problems).toEqual([]);

        // The CLI appended its turn to the copy txcript wrote: the copy is its own session now.
        const after = await viewCommon(box.home, newId, target);
        const last = after.messages.at(-1)!;
        expect(last.role).toBe("assistant");
        expect(last.content.some((b) => b.type === "text" && b.text === RESUMED)).toBe(true);
      } finally {
        box.dispose();
      }
    },
  );
});
