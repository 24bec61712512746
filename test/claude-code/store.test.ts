/**
 * The Claude Code store on real temporary homes: where the root is,
 * discovery, byte-exact load and save, the folder a session is written to,
 * refusals, deletion inside the root, and the resume command.
 */

import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  ConflictError,
  InvalidRequestError,
  NotFoundError,
  UnsafePathError,
} from "../../src/errors.js";
import { Lines } from "../../src/harness/claude-code/body.js";
import { claudeCodeCodec } from "../../src/harness/claude-code/codec.js";
import { claudeCodeRoot } from "../../src/harness/claude-code/probe.js";
import {
  ClaudeCodeStore,
  cwdHash,
  encodeCwd,
  projectDirName,
} from "../../src/harness/claude-code/store.js";
import { harness } from "../../src/harness/index.js";
import { hashTree, tempDir } from "../support/tmp.js";
import {
  assistant,
  basicSession,
  CWD,
  jsonl,
  SID,
  text,
  toolResult,
  toolUse,
  user,
} from "./lines.js";
import { resumeViolations } from "./resume-rules.js";
import { realisticSession } from "./session.js";

function home() {
  const h = tempDir("txcript-cc-");
  const root = join(h, ".claude", "projects");
  return { home: h, root, store: new ClaudeCodeStore({ env: { HOME: h } }) };
}

function put(root: string, folder: string, name: string, content: string | Buffer): string {
  mkdirSync(join(root, folder), { recursive: true });
  const path = join(root, folder, name);
  writeFileSync(path, content);
  return path;
}

describe("where the store is", () => {
  it("uses an explicit root, then TXCRIPT_CLAUDE_CODE_ROOT, then $CLAUDE_CONFIG_DIR/projects, then ~/.claude/projects", () => {
    const env = {
      HOME: "/h",
      CLAUDE_CONFIG_DIR: "/cfg",
      TXCRIPT_CLAUDE_CODE_ROOT: "/own",
    };
    expect(claudeCodeRoot({ root: "/x", env })).toBe("/x");
    expect(claudeCodeRoot({ env })).toBe("/own");
    expect(claudeCodeRoot({ env: { ...env, TXCRIPT_CLAUDE_CODE_ROOT: "" } })).toBe("/cfg/projects");
    expect(claudeCodeRoot({ env: { HOME: "/h", CLAUDE_CONFIG_DIR: "" } })).toBe(
      "/h/.claude/projects",
    );
    expect(new ClaudeCodeStore({ env: { HOME: "/h" } }).roots).toEqual(["/h/.claude/projects"]);
  });

  it("encodes a cwd as Claude Code names its folder", () => {
    expect(encodeCwd("/home/al/my_app")).toBe("-home-al-my-app");
    expect(encodeCwd("/Users/Al/src/app.v2 (copy)")).toBe("-Users-Al-src-app-v2--copy-");
    expect(encodeCwd("/home/al/données")).toBe("-home-al-donn-es");
    expect(encodeCwd("C:\\Users\\al\\app")).toBe("C--Users-al-app");
    // A character outside the BMP is two UTF-16 units, so two dashes.
    expect(encodeCwd("/a/😀")).toBe("-a---");
    const long = `/${"deep/".repeat(60)}end`;
    const name = projectDirName(long);
    expect(name).toBe(`${encodeCwd(long).slice(0, 200)}-${cwdHash(long)}`);
    expect(cwdHash("/")).toBe("1b"); // 47
    expect(cwdHash("ab")).toBe("2e9"); // 97 * 31 + 98 = 3105
    expect(cwdHash(long)).toMatch(/^[0-9a-z]+$/);
  });
});

describe("discover", () => {
  it("lists sessions from their lines, passing over side folders, subagents and bookkeeping-only files", async () => {
    const { root, store } = home();
    const folder = "-home-al-my-app";
    const path = put(root, folder, `${SID}.jsonl`, basicSession());
    put(root, `${folder}/${SID}/subagents`, "agent-a1.jsonl", basicSession("aaaa"));
    put(root, `${folder}/${SID}/tool-results`, "toolu_01.txt", "big output");
    put(root, folder, "agent-5e1f.jsonl", basicSession("bbbb"));
    put(
      root,
      folder,
      "c0ffee00-0000-4000-8000-000000000000.jsonl",
      '{"type":"summary","summary":"x","leafUuid":"y"}\n',
    );
    put(root, folder, "notes.txt", "not a session");
    put(root, "-tmp", "11111111-0000-4000-8000-000000000000.jsonl", "");
    put(root, "-tmp", "22222222-0000-4000-8000-000000000000.jsonl", "garbage\nmore garbage\n");
    const progress: number[] = [];
    const { sessions, skipped } = await store.discover({
      onProgress: (done) => progress.push(done),
    });
    expect(sessions).toHaveLength(1);
    const s = sessions[0]!;
    expect(s).toMatchObject({
      harness: "claude_code",
      id: SID,
      path,
      updated: "2026-08-10T12:00:06Z",
      message_count: 4,
      meta: {
        id: SID,
        // The real cwd, with its underscore, not the folder's dashes.
        cwd: CWD,
        git_branch: "main",
        title: "Run the tests",
        model: "claude-sonnet-4-5",
        timestamp: "2026-08-10T12:00:01Z",
      },
    });
    expect(s.fingerprint.files).toEqual([
      { path, mtime_ms: expect.any(Number), size: Buffer.byteLength(basicSession()) },
    ]);
    expect(skipped.map((k) => [k.path.replace(root, ""), k.reason])).toEqual([
      ["/-tmp/11111111-0000-4000-8000-000000000000.jsonl", "empty file"],
      [
        "/-tmp/22222222-0000-4000-8000-000000000000.jsonl",
        "not a Claude Code session: no line is a JSON record",
      ],
    ]);
    expect(progress.at(-1)).toBe(4);
  });

  it("finds nothing, without error, when the root does not exist", async () => {
    expect(await new ClaudeCodeStore({ root: "/nonexistent/txcript" }).discover()).toEqual({
      sessions: [],
      skipped: [],
    });
  });

  it("scans huge lines by pattern and still counts them", async () => {
    const { root, store } = home();
    const big = "y".repeat(2 * 1024 * 1024);
    put(
      root,
      "-p",
      `${SID}.jsonl`,
      jsonl([
        user(1, null, "go"),
        assistant(2, 1, "msg_1", [toolUse("t", "Read", { file_path: "/f" })]),
        user(3, 2, [toolResult("t", big)]),
        assistant(4, 3, "msg_2", [text(big)]),
        assistant(5, 4, "msg_2", [text("same response")]),
      ]),
    );
    const [s] = (await await store.discover()).sessions;
    expect(s?.message_count).toBe(4);
    expect(s?.updated).toBe("2026-08-10T12:00:05Z");
  });

  it.skipIf(process.getuid?.() === 0)(
    "skips an unreadable file with its reason and goes on",
    async () => {
      const { root, store } = home();
      put(root, "-p", `${SID}.jsonl`, basicSession());
      const locked = put(root, "-p", "33333333-0000-4000-8000-000000000000.jsonl", basicSession());
      chmodSync(locked, 0);
      try {
        const { sessions, skipped } = await store.discover();
        expect(sessions.map((s) => s.id)).toEqual([SID]);
        expect(skipped).toEqual([
          { path: locked, reason: expect.stringMatching(/permission denied/) },
        ]);
      } finally {
        chmodSync(locked, 0o600);
      }
    },
  );
});

describe("load and save", () => {
  it("round-trips a session byte for byte: CRLF, invalid lines, unknown types, no final newline", () => {
    const src = home();
    const original = `${basicSession().trimEnd().split("\n").join("\r\n")}\r\n{not json\r\n{"type":"future-thing","x":1}`;
    const path = put(src.root, "-home-al-my-app", `${SID}.jsonl`, original);
    const before = hashTree(src.root);
    const t = src.store.load(SID);
    expect(t.meta.id).toBe(SID);
    expect(hashTree(src.root)).toEqual(before);

    const dst = home();
    const saved = dst.store.save(t);
    expect(saved.path).toBe(join(dst.root, "-home-al-my-app", `${SID}.jsonl`));
    expect(readFileSync(saved.path)).toEqual(readFileSync(path));
    expect(saved.files).toEqual([join(dst.root, "-home-al-my-app"), saved.path]);
  });

  it("keeps a file that is not valid UTF-8 readable, with replacement characters", () => {
    const { root, store } = home();
    const bytes = Buffer.concat([Buffer.from(basicSession()), Buffer.from([0xe2, 0x82])]);
    put(root, "-p", `${SID}.jsonl`, bytes);
    const t = store.load(SID);
    expect(t.body.lines.at(-1)?.text).toBe("\ufffd");
    expect(claudeCodeCodec.toCommon(t).body).toHaveLength(4);
  });

  it("names the file when a session cannot be parsed, and says when an id is unknown", () => {
    const { root, store } = home();
    const path = put(root, "-p", `${SID}.jsonl`, "not json at all\n");
    expect(() => store.load(SID)).toThrow(`${path}: not a Claude Code session`);
    expect(() => store.load("99999999-0000-4000-8000-000000000000")).toThrow(NotFoundError);
  });

  it("writes a converted session where `claude --resume` looks for it, and it reads back", () => {
    const { root, store } = home();
    const common = realisticSession();
    const cwd = "/home/al/données projet_1";
    const body = claudeCodeCodec.fromCommon({ ...common, meta: { ...common.meta, cwd } });
    const saved = store.save(body);
    const folder = join(root, "-home-al-donn-es-projet-1");
    expect(saved.path).toBe(join(folder, `${common.meta.id}.jsonl`));
    const text = readFileSync(saved.path, "utf8");
    expect(resumeViolations(text, common.meta.id)).toEqual([]);
    // No temporary file is left beside it.
    expect(readdirSync(folder)).toEqual([`${common.meta.id}.jsonl`]);
    const back = claudeCodeCodec.toCommon(store.load(common.meta.id));
    expect(back.body).toEqual(common.body);
    expect(back.meta.cwd).toBe(cwd);

    const resume = harness("claude_code").resume!(saved, back.meta);
    expect(resume).toEqual({ argv: ["claude", "--resume", common.meta.id], cwd });
  });

  it("files a long cwd under the hashed name, or under the folder Claude Code already made for it", () => {
    const { root, store } = home();
    const cwd = `/${"very-long-directory-name/".repeat(10)}app`;
    const common = realisticSession();
    const first = store.save(
      claudeCodeCodec.fromCommon({ ...common, meta: { ...common.meta, cwd } }),
    );
    expect(first.path).toBe(join(root, projectDirName(cwd), `${common.meta.id}.jsonl`));

    // In another store, a folder Claude Code made under another suffix, holding a
    // session of this cwd, is the one joined.
    const other = home();
    const folder = `${encodeCwd(cwd).slice(0, 200)}-zz9`;
    put(
      other.root,
      folder,
      "44444444-0000-4000-8000-000000000000.jsonl",
      jsonl([{ ...user(1, null, "x"), cwd }]),
    );
    put(
      other.root,
      `${encodeCwd(cwd).slice(0, 200)}-aa1`,
      "77777777-0000-4000-8000-000000000000.jsonl",
      jsonl([{ ...user(1, null, "x"), cwd: `${cwd}2` }]),
    );
    const second = other.store.save(
      claudeCodeCodec.fromCommon({ ...common, meta: { ...common.meta, cwd } }),
    );
    expect(second.path).toBe(join(other.root, folder, `${common.meta.id}.jsonl`));
  });

  it("refuses to overwrite unless asked, leaving the existing file untouched", () => {
    const { root, store } = home();
    const path = put(root, "-elsewhere", `${SID}.jsonl`, basicSession());
    const t = store.load(SID);
    const before = hashTree(root);
    expect(() => store.save(t)).toThrow(ConflictError);
    expect(hashTree(root)).toEqual(before);
    const changed = { ...t, body: { lines: Lines.of([...t.body.lines].slice(0, 3)) } };
    const saved = store.save(changed, { overwrite: true });
    expect(saved.path).toBe(join(root, "-home-al-my-app", `${SID}.jsonl`));
    expect(readFileSync(saved.path, "utf8").split("\n")).toHaveLength(4);
    expect(readFileSync(path, "utf8")).toBe(basicSession());
  });

  it("refuses ids that are not a plain file name, and sessions without a cwd, writing nothing", () => {
    const { home: h, store } = home();
    const t = claudeCodeCodec.fromCommon(realisticSession());
    for (const id of ["../evil", "a/b", "", "..", "x\u0000y"]) {
      expect(() => store.save({ ...t, meta: { ...t.meta, id } })).toThrow(UnsafePathError);
      expect(() => store.load(id)).toThrow(UnsafePathError);
    }
    const common = realisticSession();
    const { cwd: _dropped, ...noCwd } = common.meta;
    expect(() => store.save(claudeCodeCodec.fromCommon({ ...common, meta: noCwd }))).toThrow(
      InvalidRequestError,
    );
    expect(readdirSync(h)).toEqual([]);
  });
});

describe("delete and fingerprint", () => {
  it("removes the session file and its side folder, and nothing else", () => {
    const { root, store } = home();
    const path = put(root, "-p", `${SID}.jsonl`, basicSession());
    put(root, `-p/${SID}/subagents`, "agent-1.jsonl", basicSession("x"));
    const keep = put(root, "-p", "66666666-0000-4000-8000-000000000000.jsonl", basicSession());
    expect(store.fingerprint(SID)).toEqual({
      files: [{ path, mtime_ms: expect.any(Number), size: Buffer.byteLength(basicSession()) }],
    });
    expect(store.delete(SID)).toEqual([path, join(root, "-p", SID)]);
    expect(existsSync(path)).toBe(false);
    expect(existsSync(join(root, "-p", SID))).toBe(false);
    expect(existsSync(keep)).toBe(true);
    expect(store.fingerprint(SID)).toBeUndefined();
    expect(() => store.delete(SID)).toThrow(NotFoundError);
  });

  it("refuses to delete through a symlink that leaves the root", () => {
    const { home: h, root, store } = home();
    const outside = join(h, "precious.jsonl");
    writeFileSync(outside, basicSession());
    mkdirSync(join(root, "-p"), { recursive: true });
    symlinkSync(outside, join(root, "-p", `${SID}.jsonl`));
    expect(() => store.delete(SID)).toThrow(UnsafePathError);
    expect(readFileSync(outside, "utf8")).toBe(basicSession());
    expect(existsSync(join(root, "-p", `${SID}.jsonl`))).toBe(true);
  });
});
