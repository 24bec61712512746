/**
 * Every command's main path through the built binary, in spawned processes,
 * on temporary homes holding real agy databases (written by the store from
 * the fixture builder). The source store must stay byte-identical under
 * every command but delete.
 */

import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { renderCommon } from "../../src/common-json.js";
import { parseToCommon } from "../../src/convert.js";
import type { AntigravityBody } from "../../src/harness/antigravity/body.js";
import { antigravityMeta } from "../../src/harness/antigravity/codec.js";
import { AntigravityStore } from "../../src/harness/antigravity/store.js";
import { copyId } from "../../src/local.js";
import {
  buildConversation,
  LEGACY_SESSION_ID,
  legacyLayoutSession,
  RESUMED_SESSION_ID,
  resumedSession120,
  TOOLS_SESSION_ID,
  toolsSession120,
} from "../support/agy-fixtures.js";
import { ROOT, txcript } from "../support/cli.js";
import { hashTree, tempDir } from "../support/tmp.js";

let home: string;
let agyRoot: string;

function save(body: AntigravityBody): void {
  new AntigravityStore({ root: agyRoot, env: {} }).save({ meta: antigravityMeta(body), body });
}

/** Run txcript with HOME = the temporary home and nothing else pointing at real stores. */
function run(args: string[], options: { input?: string; env?: Record<string, string> } = {}) {
  return txcript(args, { ...options, env: { HOME: home, ...options.env } });
}

beforeEach(() => {
  home = tempDir("txcript-home-");
  agyRoot = join(home, ".gemini", "antigravity-cli");
  save(toolsSession120());
  save(resumedSession120());
  save(legacyLayoutSession());
});

describe("list", () => {
  it("prints one line per session, newest first", () => {
    const before = hashTree(home);
    const r = run(["list"]);
    expect(r.status).toBe(0);
    const lines = r.stdout.trim().split("\n");
    expect(lines).toHaveLength(3);
    // The resumed sample's last step is the newest; the 1.0.x session the oldest.
    expect(lines[0]).toMatch(
      /^5d458282 {2}antigravity {2}\d{4}-\d\d-\d\d \d\d:\d\d +\S+ +5 msgs {2}\/tmp\/agy-fixture\/project +Run the shell command 'sleep 45'/,
    );
    expect(lines[1]).toMatch(
      /^8c1f2e4a {2}antigravity .* 10 msgs {2}\/tmp\/agy-fixture\/project +Do these in order/,
    );
    expect(lines[2]).toMatch(
      /^0f4c7a2e {2}antigravity .* 6 msgs {2}\/home\/dev\/my app +Fix the flaky login test$/,
    );
    expect(r.stderr).toBe("");
    expect(hashTree(home)).toEqual(before);
  });

  it("--json follows the documented schema", () => {
    const r = run(["list", "--json"]);
    expect(r.status).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.version).toBe(1);
    expect(doc.skipped).toEqual([]);
    expect(doc.sessions.map((s: { id: string }) => s.id)).toEqual([
      RESUMED_SESSION_ID,
      TOOLS_SESSION_ID,
      LEGACY_SESSION_ID,
    ]);
    const legacy = doc.sessions[2];
    expect(Object.keys(legacy).sort()).toEqual(
      [
        "id",
        "harness",
        "created",
        "updated",
        "message_count",
        "title",
        "cwd",
        "git_branch",
        "model",
        "path",
        "lane",
        "status",
        "running",
        "parent_id",
        "forked_from",
        "forked_from_harness",
      ].sort(),
    );
    expect(legacy).toMatchObject({
      harness: "antigravity",
      created: "2026-08-10T12:00:00.250Z",
      message_count: 6,
      title: "Fix the flaky login test",
      cwd: "/home/dev/my app",
      git_branch: "fix/flaky-login",
      path: join(agyRoot, "conversations", `${LEGACY_SESSION_ID}.db`),
      parent_id: null,
      forked_from: null,
      forked_from_harness: null,
      lane: "cli",
      status: null,
      running: false,
    });
    expect(doc.sessions[1].model).toBe("gemini-3.8-flash");
  });

  it("--cwd keeps the directory and below, --limit cuts, --from scopes", () => {
    const under = JSON.parse(run(["list", "--json", "--cwd", "/home/dev"]).stdout);
    expect(under.sessions.map((s: { id: string }) => s.id)).toEqual([LEGACY_SESSION_ID]);
    const none = JSON.parse(run(["list", "--json", "--cwd", "/home/dev/my"]).stdout);
    expect(none.sessions).toEqual([]);
    const limited = JSON.parse(run(["list", "--json", "--limit", "1"]).stdout);
    expect(limited.sessions.map((s: { id: string }) => s.id)).toEqual([RESUMED_SESSION_ID]);
    const codex = run(["list", "--from", "codex"]);
    expect(codex.status).toBe(0);
    expect(codex.stdout).toBe("");
    // Nothing found: it says where it looked (only Codex's root, with --from).
    expect(codex.stderr).toBe(
      `no sessions found; looked in:\n  ${"codex".padEnd(12)} ${join(home, ".codex")}  (does not exist)\n`,
    );
  });

  it("summarizes skipped files in one line, and --verbose says why", () => {
    const dir = join(agyRoot, "conversations");
    writeFileSync(join(dir, "notes.db"), "this is not a database at all, just text\n");
    writeFileSync(join(dir, "empty.db"), "");
    const r = run(["list"]);
    expect(r.status).toBe(0);
    expect(r.stdout.trim().split("\n")).toHaveLength(3);
    expect(r.stderr).toBe("2 files skipped; --verbose shows why\n");
    const v = run(["list", "--verbose"]);
    const reasons = v.stderr.trim().split("\n");
    expect(reasons).toHaveLength(2);
    expect(reasons.some((l) => l.startsWith(`skipped ${join(dir, "notes.db")}: `))).toBe(true);
    expect(reasons.some((l) => l.startsWith(`skipped ${join(dir, "empty.db")}: `))).toBe(true);
  });
});

describe("view and export", () => {
  it("views a session by a unique prefix, untouched", () => {
    const before = hashTree(home);
    const r = run(["view", "0f4c"]);
    expect(r.status).toBe(0);
    expect(r.stdout.split("\n")[0]).toBe("Fix the flaky login test");
    expect(r.stdout).toContain(`id       ${LEGACY_SESSION_ID}  (antigravity)`);
    expect(r.stdout).toContain("branch   fix/flaky-login");
    expect(r.stdout).toContain("[image: image/png");
    expect(r.stdout).toMatch(/← \[1\] error\n {2}1 failing/);
    expect(r.stdout).toContain("── #6 ── assistant");
    expect(hashTree(home)).toEqual(before);
  });

  it("--format json is the codec's Common transcript, a range its slice", () => {
    const all = JSON.parse(run(["view", TOOLS_SESSION_ID, "--format", "json"]).stdout);
    expect(all.meta.id).toBe(TOOLS_SESSION_ID);
    expect(all.messages).toHaveLength(10);
    const part = JSON.parse(run(["view", `${TOOLS_SESSION_ID}#4-7`, "--format", "json"]).stdout);
    expect(part.messages).toEqual(all.messages.slice(3, 7));
  });

  it("exports a Simple document that reads back as the same conversation", () => {
    const before = hashTree(home);
    const common = JSON.parse(run(["view", "8c1f", "--format", "json"]).stdout);
    const r = run(["export", "8c1f"]);
    expect(r.status).toBe(0);
    const back = parseToCommon(r.stdout, "simple");
    expect(JSON.parse(renderCommon(back))).toEqual(common);
    const out = join(tempDir(), "part.json");
    const w = run(["export", "8c1f#2-3", "--out", out]);
    expect(w.status).toBe(0);
    expect(w.stdout).toBe("");
    expect(parseToCommon(readFileSync(out, "utf8"), "simple").body).toEqual(
      common.messages.slice(1, 3),
    );
    expect(hashTree(home)).toEqual(before);
  });
});

describe("continue", () => {
  it("copies an agy session into Claude Code and prints the id and resume command", () => {
    const before = hashTree(agyRoot);
    const r = run(["continue", "0f4c", "--with", "claude_code", "--no-resume"]);
    expect(r.status).toBe(0);
    const [id, resume] = r.stdout.trim().split("\n");
    // The copy has its own id, derived from the source and the target.
    const copy = copyId({ harness: "antigravity", id: LEGACY_SESSION_ID }, "claude_code", 0);
    expect(id).toBe(copy);
    // The session's directory does not exist here: the command creates it first.
    expect(resume).toBe(
      `resume: mkdir -p '/home/dev/my app' && cd '/home/dev/my app' && claude --resume ${copy}`,
    );
    expect(r.stderr).toContain(`wrote Claude Code session ${copy}`);
    const file = join(home, ".claude", "projects", "-home-dev-my-app", `${copy}.jsonl`);
    expect(existsSync(file)).toBe(true);
    // The copy is listed, says what it was copied from, and reads back with the same conversation.
    const listed = JSON.parse(run(["list", "--json", "--from", "claude_code"]).stdout);
    expect(listed.sessions.map((s: { id: string }) => s.id)).toEqual([copy]);
    expect(listed.sessions[0]).toMatchObject({
      forked_from: LEGACY_SESSION_ID,
      forked_from_harness: "antigravity",
    });
    const viewed = run(["view", copy, "--from", "claude_code"]);
    expect(viewed.stdout).toContain("Fixed: the test now waits for readiness.");
    expect(hashTree(agyRoot)).toEqual(before);
  });

  it("a copy into the source's own harness gets its own id; repeating finds that copy", () => {
    const before = hashTree(agyRoot);
    const r = run(["continue", TOOLS_SESSION_ID, "--no-resume"]);
    expect(r.status).toBe(0);
    const id = r.stdout.split("\n")[0]!;
    expect(id).toBe(copyId({ harness: "antigravity", id: TOOLS_SESSION_ID }, "antigravity", 0));
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(r.stdout).toContain(
      `resume: mkdir -p /tmp/agy-fixture/project && cd /tmp/agy-fixture/project && agy --conversation=${id}`,
    );
    // The original's files are unchanged; the copy sits beside them.
    const after = hashTree(agyRoot);
    for (const [path, hash] of Object.entries(before)) expect(after[path]).toBe(hash);
    expect(existsSync(join(agyRoot, "conversations", `${id}.db`))).toBe(true);
    expect(existsSync(join(agyRoot, "brain", id))).toBe(true);
    const original = JSON.parse(run(["view", TOOLS_SESSION_ID, "--format", "json"]).stdout);
    const copy = JSON.parse(run(["view", id, "--format", "json"]).stdout);
    expect(copy.messages.length).toBe(original.messages.length);
    // Again: the same copy (nobody changed it), not a new one; the original untouched.
    const again = run(["continue", TOOLS_SESSION_ID, "--no-resume"]);
    expect(again.status).toBe(0);
    expect(again.stdout.split("\n")[0]).toBe(id);
    expect(again.stderr).toMatch(/unchanged|updated the copy/);
    const last = hashTree(agyRoot);
    for (const [path, hash] of Object.entries(before)) expect(last[path]).toBe(hash);
  });

  it("a Simple document continued into agy views as the same conversation", () => {
    const doc = join(ROOT, "examples/simple/fix-flaky-test.json");
    const expected = parseToCommon(readFileSync(doc, "utf8"), "simple");
    const r = run(["continue", doc, "--with", "antigravity", "--no-resume"]);
    expect(r.status).toBe(0);
    const id = r.stdout.split("\n")[0]!;
    expect(id).toBe(copyId({ harness: "simple", id: expected.meta.id }, "antigravity", 0));
    const viewed = JSON.parse(run(["view", id, "--format", "json"]).stdout);
    expect(viewed.meta).toMatchObject({
      id,
      timestamp: expected.meta.timestamp,
      cwd: expected.meta.cwd,
    });
    expect(viewed.messages.map((m: { role: string }) => m.role)).toEqual(
      expected.body.map((m) => m.role),
    );
    // Every text, thinking, tool call and result survives. Token counts do
    // not: they were spent in the source and are counted there, so a copy
    // carries none (usage counted once, src/local.ts withoutUsage).
    expect(viewed.messages[0].content).toEqual(expected.body[0]!.content);
    expect(viewed.messages[1].content).toEqual(
      JSON.parse(JSON.stringify(expected.body[1]!.content)),
    );
    expect(expected.body[1]!.usage).toBeDefined();
    expect(viewed.messages[1].usage).toBeUndefined();
    expect(viewed.messages[2].content[0].content).toBe("14:  await sleep(100);");
    expect(viewed.messages[3].content).toEqual(
      JSON.parse(JSON.stringify(expected.body[3]!.content)),
    );
    expect(viewed.messages[5].content).toEqual(expected.body[5]!.content);
    const text = run(["view", id]).stdout;
    expect(text).toContain("→ [2] Edit /home/dev/my_app/test/login.test.ts");
  });

  it("reads stdin, honours --out and the resume-command override", () => {
    const doc = JSON.stringify({
      id: "run-7",
      cwd: "/srv/x",
      messages: [
        { role: "user", content: "hi" },
        { role: "assistant", content: "hello" },
      ],
    });
    const out = tempDir();
    const r = run(["continue", "-", "--with", "codex", "--out", out], {
      input: doc,
      env: { TXCRIPT_CODEX_RESUME_CMD: "my-codex --open {id}" },
    });
    expect(r.status).toBe(0);
    const [id, resume] = r.stdout.trim().split("\n");
    // "run-7" is no UUID: the copy gets one derived from it.
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(resume).toBe(
      `resume: mkdir -p /srv/x && cd /srv/x && CODEX_HOME=${out} my-codex --open ${id}`,
    );
    expect(existsSync(join(home, ".codex"))).toBe(false);
    const listed = JSON.parse(
      run(["list", "--json", "--codex-root", out, "--from", "codex"]).stdout,
    );
    expect(listed.sessions.map((s: { id: string }) => s.id)).toEqual([id]);
  });

  it("refuses a resume-command override that is no plain command, before writing anything", () => {
    const doc = JSON.stringify({ id: "run-8", messages: [{ role: "user", content: "hi" }] });
    for (const [value, why] of [
      [
        "my-codex --open {id} | tee log",
        "may hold a command and its arguments only, not shell operators",
      ],
      ["# only a note", "holds no command"],
    ] as const) {
      const out = tempDir();
      const r = run(["continue", "-", "--with", "codex", "--out", out], {
        input: doc,
        env: { TXCRIPT_CODEX_RESUME_CMD: value },
      });
      expect(r.status).not.toBe(0);
      expect(r.stderr).toBe(`txcript: TXCRIPT_CODEX_RESUME_CMD ${why}\n`);
      expect(r.stdout).toBe("");
      expect(readdirSync(out)).toEqual([]);
    }
  });

  it("continues a #range only", () => {
    const r = run(["continue", `${TOOLS_SESSION_ID}#1-3`, "--with", "claude_code", "--no-resume"]);
    expect(r.status).toBe(0);
    const id = r.stdout.split("\n")[0]!;
    const copy = JSON.parse(run(["view", id, "--from", "claude_code", "--format", "json"]).stdout);
    expect(copy.messages).toHaveLength(3);
  });
});

describe("delete", () => {
  it("removes the session's files with --yes, and only them", () => {
    const r = run(["delete", "0f4c", "--yes"]);
    expect(r.status).toBe(0);
    expect(r.stderr).toContain(`deleted antigravity session ${LEGACY_SESSION_ID}`);
    expect(existsSync(join(agyRoot, "conversations", `${LEGACY_SESSION_ID}.db`))).toBe(false);
    expect(existsSync(join(agyRoot, "brain", LEGACY_SESSION_ID))).toBe(false);
    expect(existsSync(join(agyRoot, "conversations", `${TOOLS_SESSION_ID}.db`))).toBe(true);
    expect(JSON.parse(run(["list", "--json"]).stdout).sessions).toHaveLength(2);
  });

  it("refuses without --yes off a terminal, deleting nothing", () => {
    const before = hashTree(home);
    const r = run(["delete", "0f4c"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      `txcript: refusing to delete ${LEGACY_SESSION_ID} without --yes when not on a terminal\n`,
    );
    expect(hashTree(home)).toEqual(before);
  });
});

describe("completion", () => {
  it.each(["bash", "zsh", "fish"])("prints a %s script that calls back into txcript", (shell) => {
    const r = run(["completion", shell]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("txcript");
    expect(r.stdout.length).toBeGreaterThan(200);
  });

  it("answers completion requests with the commands", () => {
    const r = run(["complete", "--", ""]);
    expect(r.status).toBe(0);
    for (const cmd of ["list", "view", "export", "continue", "convert", "delete"]) {
      expect(r.stdout).toMatch(new RegExp(`^${cmd}\\b`, "m"));
    }
  });
});

describe("failures: one line, the right exit status, nothing changed", () => {
  const cases: [string, () => string[], number, RegExp][] = [
    ["unknown id", () => ["view", "ffffffff"], 1, /^txcript: no session matches "ffffffff"$/],
    ["empty id", () => ["view", ""], 1, /^txcript: an empty session id matches nothing$/],
    [
      "unknown id in one harness",
      () => ["view", "0f4c", "--from", "codex"],
      1,
      /no session matches "0f4c" in Codex/,
    ],
    ["malformed range", () => ["view", "0f4c#2-1"], 2, /malformed range "#2-1": 2 is after 1/],
    ["zero range", () => ["view", "0f4c#0"], 2, /malformed range "#0"/],
    [
      "out-of-range range",
      () => ["view", "0f4c#7-9"],
      1,
      /range #7-9 is out of bounds: session 0f4c7a2e-91b3-4d5f-8e6a-3c2b1d0e9f87 has 6 messages \(#1-6\)/,
    ],
    [
      "range cutting a tool pair",
      () => ["export", "0f4c#3"],
      1,
      /range #3 would separate a tool call from its result; the nearest whole range is #2-3/,
    ],
    [
      "unreadable file",
      () => ["continue", join(home, ".gemini"), "--with", "codex"],
      1,
      /cannot read: is a directory|no session matches/,
    ],
    [
      "malformed Simple document",
      () => ["continue", "-", "--with", "codex"],
      1,
      /<stdin>: messages\[0\]: message needs "content"/,
    ],
    ["unknown harness", () => ["list", "--from", "nope"], 2, /unknown harness "nope"/],
    [
      "unknown target harness",
      () => ["continue", "0f4c", "--with", "nope"],
      2,
      /unknown harness "nope"/,
    ],
    [
      "--with missing for a document",
      () => ["continue", "-"],
      2,
      /continuing a document needs --with <harness>/,
    ],
    [
      "continue into simple",
      () => ["continue", "0f4c", "--with", "simple"],
      2,
      /cannot continue in simple: it has no session store/,
    ],
    ["unknown command", () => ["frobnicate"], 2, /unknown command 'frobnicate'/],
    ["unknown option", () => ["list", "--frob"], 2, /unknown option '--frob'/],
    ["missing argument", () => ["view"], 2, /missing required argument 'session'/],
    ["bad --limit", () => ["list", "--limit", "0"], 2, /expected a positive whole number, got "0"/],
    ["bad --format", () => ["view", "0f4c", "--format", "pdf"], 2, /argument 'pdf' is invalid/],
    [
      "delete of a range",
      () => ["delete", "0f4c#1"],
      2,
      /delete takes a whole session, not a #range/,
    ],
    [
      "convert without --to",
      () => ["convert", "-", "--from", "simple"],
      2,
      /required option '--to <form>' not specified/,
    ],
    [
      "target below a file",
      () => [
        "continue",
        "0f4c",
        "--with",
        "codex",
        "--out",
        join(home, ".gemini", "antigravity-cli", "conversations", `${LEGACY_SESSION_ID}.db`),
      ],
      1,
      /^txcript: .+/,
    ],
  ];

  it.each(cases)("%s", (_name, args, status, message) => {
    const before = hashTree(home);
    const r = run(args(), { input: '{"messages":[{"role":"user"}]}' });
    expect(r.status).toBe(status);
    const lines = r.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^txcript: /);
    expect(lines[0]).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(hashTree(home)).toEqual(before);
  });

  it("an ambiguous prefix lists the candidates", () => {
    save(buildConversation({ id: "abcd0000-0000-4000-8000-000000000001", steps: 6 }));
    save(buildConversation({ id: "abcd0000-0000-4000-8000-000000000002", steps: 6, seed: 2 }));
    const r = run(["view", "abcd"]);
    expect(r.status).toBe(1);
    expect(r.stderr).toEqual(
      expect.stringMatching(
        /^txcript: "abcd" matches 2 sessions: abcd0000-0000-4000-8000-000000000001 \(antigravity, \d{4}-\d\d-\d\d \d\d:\d\d[^)]*\), abcd0000-0000-4000-8000-000000000002 \(antigravity, [^)]*\); give more of the id\n$/,
      ),
    );
  });

  it("a corrupt database is named in the error of view", () => {
    const id = "deadbeef-0000-4000-8000-000000000000";
    const path = join(agyRoot, "conversations", `${id}.db`);
    writeFileSync(path, Buffer.alloc(8192, 0x5a));
    const listed = run(["list"]);
    expect(listed.stderr).toBe("1 file skipped; --verbose shows why\n");
    // Looked up by id, it is found by name and its load names the file.
    const r = run(["view", "deadbeef"]);
    expect(r.status).toBe(1);
    expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain(`txcript: ${path}: `);
    // And it can still be deleted.
    expect(run(["delete", "deadbeef", "--yes"]).status).toBe(0);
    expect(existsSync(path)).toBe(false);
  });

  it("a read-only target directory fails cleanly and leaves nothing behind", () => {
    if (process.getuid?.() === 0) {
      // Root ignores directory permissions; the store's own tests cover this as `nobody`.
      const target = join(home, "ro");
      mkdirSync(target);
      // `--out` is agy's ~/.gemini: its CLI lane is antigravity-cli.
      writeFileSync(join(target, "antigravity-cli"), "a file where a directory should be");
      const r = run(["continue", "0f4c", "--with", "antigravity", "--out", target]);
      expect(r.status).toBe(1);
      expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
      return;
    }
    const target = join(home, "ro");
    mkdirSync(target);
    chmodSync(target, 0o555);
    const r = run(["continue", "0f4c", "--with", "antigravity", "--out", target]);
    expect(r.status).toBe(1);
    expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
  });
});
