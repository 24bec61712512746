/**
 * Kiro CLI's older engine (`data.sqlite3`: `conversations_v2` and
 * `conversations`) read from a database built from the documented format:
 * every user content and assistant variant, the earlier `[user,
 * assistant]` pairs, unknown variants kept in the Body, a damaged row and
 * a foreign database named in one line, the index's stamp, the text form,
 * a property over arbitrary histories, and the built binary's list, view
 * and refusal to continue.
 */

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { harness } from "../../src/harness/index.js";
import { KiroStore } from "../../src/harness/kiro/index.js";
import { KiroProbe } from "../../src/harness/kiro/probe.js";
import { sampleOf } from "../../src/sniff.js";
import { openForWriting } from "../../src/sqlite.js";
import { normalizeTimestamp, timestampFromMillis } from "../../src/time.js";
import { txcript } from "../support/cli.js";
import { createKiroSessions, everyKindSession } from "../support/kiro.js";
import {
  CONV_CREATED,
  CONV_CWD,
  CONV_ID,
  clearedConversation,
  createKiroDatabase,
  echoedConversation,
  kiroDatabasePath,
  OLD_CONV_ID,
  OLD_CWD,
  PENDING_PROMPT,
  PNG_BYTES,
} from "../support/kiro-conversations.js";
import { hashTree, tempDir } from "../support/tmp.js";

const kiro = harness("kiro");
const PNG_BASE64 = Buffer.from(PNG_BYTES).toString("base64");
const SESSION_ID = "f2946a26-3735-4b08-8d05-c928010302d5";

function home(options: { wal?: boolean } = {}) {
  const h = tempDir("kiro-conv-");
  const path = kiroDatabasePath(h);
  createKiroDatabase(path, options).close();
  createKiroSessions(join(h, ".kiro"), [everyKindSession()]);
  const env = { HOME: h, XDG_DATA_HOME: join(h, ".local", "share") };
  return { home: h, path, env, store: new KiroStore({ env }) };
}

describe("Kiro CLI's older SQLite engine (data.sqlite3)", () => {
  it("lists both tables' conversations beside the v3 sessions, one id once, a broken row named", async () => {
    const { path, store, home: h } = home();
    const before = hashTree(h);
    const found = await store.discover();
    expect(found.sessions.map((s) => s.id).sort()).toEqual(
      [CONV_ID, OLD_CONV_ID, SESSION_ID].sort(),
    );
    const conv = found.sessions.find((s) => s.id === CONV_ID);
    expect(conv?.path).toBe(path);
    expect(conv?.meta).toEqual({
      id: CONV_ID,
      timestamp: timestampFromMillis(CONV_CREATED),
      cwd: CONV_CWD,
      model: "claude-sonnet-4",
    });
    expect(conv?.updated).toBe(timestampFromMillis(CONV_CREATED + 300_000));
    expect(conv?.fingerprint.files[0]).toMatchObject({ path, mtime_ms: CONV_CREATED + 300_000 });
    expect(found.skipped).toEqual([
      {
        path,
        reason:
          "1 Kiro CLI conversation row(s) whose value is not a conversation JSON object with an id",
      },
    ]);
    expect(store.ids()).toEqual([CONV_ID, OLD_CONV_ID, SESSION_ID].sort());
    expect(hashTree(h)).toEqual(before);
  });

  it("reads every user content and assistant variant; unknown variants stay in the Body", () => {
    const { store } = home();
    const t = store.load(CONV_ID);
    expect(t.body.layout).toBe("conversation");
    const c = kiro.codec.toCommon(t);
    const t1 = normalizeTimestamp("2025-06-01T10:00:00.000+02:00");
    const t2 = normalizeTimestamp("2025-06-01T10:05:00.000+02:00");
    const model = "claude-sonnet-4";
    expect(c.body).toEqual([
      {
        role: "user",
        timestamp: t1,
        content: [
          { type: "text", text: "Why does the build fail?" },
          { type: "image", source: { type: "base64", media_type: "image/png", data: PNG_BASE64 } },
        ],
      },
      {
        role: "assistant",
        timestamp: t1,
        // The thinking's own model_id is the reply's model.
        model: "claude-sonnet-4.5",
        content: [
          { type: "thinking", text: "A type error, probably.", signature: "sig-1" },
          { type: "text", text: "Let me build it." },
          { type: "tool_use", id: "t1", tool: { name: "Bash", command: "npm run build" } },
        ],
      },
      {
        role: "user",
        timestamp: t1,
        content: [
          {
            type: "tool_result",
            tool_use_id: "t1",
            content: [{ type: "text", text: "error TS2322" }],
            is_error: true,
          },
        ],
      },
      {
        role: "assistant",
        timestamp: t1,
        model,
        content: [
          {
            type: "tool_use",
            id: "t2",
            tool: {
              name: "Raw",
              tool_name: "fs_read",
              input: { operations: [{ mode: "Line", path: "src/a.ts" }] },
            },
          },
        ],
      },
      {
        role: "user",
        timestamp: t1,
        content: [
          {
            type: "tool_result",
            tool_use_id: "t2",
            content: [{ type: "text", text: '{"lines":["let n: number = \'x\'"]}' }],
          },
        ],
      },
      {
        role: "assistant",
        timestamp: t1,
        model,
        content: [
          { type: "thinking", text: "", encrypted: "AQID" },
          { type: "text", text: "Fixed the type of n." },
        ],
      },
      {
        role: "user",
        timestamp: t2,
        content: [
          {
            type: "tool_result",
            tool_use_id: "t3",
            content: [{ type: "text", text: "Tool use was cancelled by the user" }],
            is_error: true,
          },
          { type: "text", text: "stop, use tsc instead" },
        ],
      },
      {
        role: "assistant",
        timestamp: t2,
        model,
        content: [{ type: "text", text: "Running tsc." }],
      },
      // next_message: the prompt not yet answered, once, at its own time; the transcript is not read.
      {
        role: "user",
        timestamp: normalizeTimestamp("2025-06-01T10:07:00.000+02:00"),
        content: [{ type: "text", text: PENDING_PROMPT }],
      },
    ]);
    expect(JSON.stringify(t.body)).toContain("Teleport");
    expect(JSON.stringify(t)).not.toContain("secret-kiro-token");
  });

  it("reads the earlier one-per-directory table and its [user, assistant] pairs", () => {
    const { store } = home();
    const c = kiro.codec.toCommon(store.load(OLD_CONV_ID));
    expect(c.meta).toMatchObject({ cwd: OLD_CWD, model: "CLAUDE_3_7_SONNET_20250219_V1_0" });
    expect(c.meta.timestamp).toBe("2025-03-01T09:00:00Z");
    expect(c.body.map((m) => [m.role, m.content])).toEqual([
      ["user", [{ type: "text", text: "List the files" }]],
      ["assistant", [{ type: "text", text: "a.ts and b.ts" }]],
    ]);
  });

  it("stamps the store when the database exists, the stamp following a write to it", () => {
    const { path, env, store } = home({ wal: true });
    const probe = new KiroProbe({ env });
    expect(probe.scan).toBeUndefined();
    const stamp = probe.stamp?.();
    expect(stamp).toBeDefined();
    expect(stamp).toBe(store.stamp?.());
    const db = openForWriting(path, 1000);
    db.prepare("UPDATE conversations_v2 SET updated_at = updated_at + 1").run();
    db.close();
    expect(probe.stamp?.()).not.toBe(stamp);
    expect(new KiroProbe({ env: { HOME: tempDir("kiro-none-") } }).scan).toBeDefined();
  });

  it("names a foreign or damaged database in one line and still lists the v3 sessions", async () => {
    for (const damage of ["foreign", "text"] as const) {
      const { path, store } = home();
      if (damage === "text") writeFileSync(path, "garbage");
      else {
        const db = openForWriting(path, 1000);
        db.exec("DROP TABLE conversations; DROP TABLE conversations_v2;");
        db.close();
      }
      const found = await store.discover();
      expect(
        found.sessions.map((s) => s.id),
        damage,
      ).toEqual([SESSION_ID]);
      expect(found.skipped, damage).toHaveLength(1);
      expect(found.skipped[0]?.reason.split("\n"), damage).toHaveLength(1);
      if (damage === "foreign")
        expect(found.skipped[0]?.reason).toContain("not a Kiro CLI database");
      expect(() => store.load("../x")).toThrow(/unsafe id/);
    }
  });

  it("renders a conversation as one line that parses back to the same Body and is detected", () => {
    const { store } = home();
    const t = store.load(CONV_ID);
    const text = kiro.text.render(t);
    expect(text.trim().split("\n")).toHaveLength(1);
    const back = kiro.text.parse(text);
    expect(back.body).toEqual(t.body);
    expect(kiro.codec.toCommon(back).body).toEqual(kiro.codec.toCommon(t).body);
    expect(kiro.text.detect?.(sampleOf(Buffer.from(text)))).toBe("text");
  });

  it("never crashes on arbitrary histories: a Transcript or a one-line error", () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { maxLength: 6 }), fc.jsonValue(), (entries, extra) => {
        const history = entries.map((v, i) =>
          i % 3 === 0
            ? {
                user: { content: { Prompt: { prompt: v } }, timestamp: v },
                assistant: { ToolUse: { content: v, tool_uses: [v] } },
              }
            : i % 3 === 1
              ? [
                  {
                    content: {
                      ToolUseResults: { tool_use_results: [v, { tool_use_id: "x", content: [v] }] },
                    },
                  },
                  v,
                ]
              : v,
        );
        const line = {
          kiro_conversation: { key: "/k", conversation: { history, model_info: extra } },
        };
        try {
          const c = kiro.codec.toCommon(kiro.text.parse(JSON.stringify(line)));
          expect(c.body.length).toBeLessThanOrEqual(history.length * 2);
        } catch (e) {
          expect(e).toBeInstanceOf(Error);
          expect(String((e as Error).message)).not.toContain("\n");
        }
      }),
      { numRuns: 200 },
    );
  });

  it("shows next_message and the transcript once, never twice", () => {
    const read = (conversation: object) =>
      kiro.codec.toCommon(
        kiro.text.parse(JSON.stringify({ kiro_conversation: { key: "/k", conversation } })),
      ).body;
    // A cleared conversation: the transcript is the only record, read as text; markers are not read.
    expect(read(clearedConversation("c1")).map((m) => [m.role, m.content])).toEqual([
      ["user", [{ type: "text", text: "Why does\nit fail?" }]],
      ["assistant", [{ type: "text", text: "It fails on a type." }]],
    ]);
    // next_message repeating the last entry's user is not a second prompt; the transcript not a second history.
    expect(read(echoedConversation("c2")).map((m) => [m.role, m.content])).toEqual([
      ["user", [{ type: "text", text: "Say hi" }]],
      ["assistant", [{ type: "text", text: "hi" }]],
    ]);
  });

  it("reads n answered prompts as 2n messages, plus one for a pending next_message, whatever the transcript", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ minLength: 1 }).filter((p) => p.trim() !== ""),
          {
            minLength: 1,
            maxLength: 5,
          },
        ),
        fc.boolean(),
        fc.array(fc.jsonValue(), { maxLength: 4 }),
        (prompts, pending, noise) => {
          const users = prompts.map((prompt) => ({ content: { Prompt: { prompt } } }));
          const history = users.map((user, i) => ({
            user,
            assistant: { Response: { content: `reply ${i}` } },
          }));
          const conversation = {
            history,
            next_message: pending ? { content: { Prompt: { prompt: "pending" } } } : users.at(-1),
            transcript: [...prompts.map((p) => `> ${p}`), ...noise],
          };
          const body = kiro.codec.toCommon(
            kiro.text.parse(JSON.stringify({ kiro_conversation: { key: "/k", conversation } })),
          ).body;
          expect(body).toHaveLength(prompts.length * 2 + (pending ? 1 : 0));
          expect(body.filter((m) => m.role === "user").map((m) => m.content[0])).toEqual([
            ...prompts.map((text) => ({ type: "text", text })),
            ...(pending ? [{ type: "text", text: "pending" }] : []),
          ]);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("reads hostile images, thinking, next_message and transcript as data: no crash", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (v, w) => {
        const conversation = {
          history: [
            {
              user: {
                content: { Prompt: { prompt: "p" } },
                images: [v, { format: v, source: { Bytes: w } }],
              },
              assistant: { Response: { content: "r", thinking: v } },
            },
            {
              user: { content: { Prompt: { prompt: "q" } }, images: v },
              assistant: { ToolUse: { thinking: { text: v, redacted_content: w } } },
            },
          ],
          next_message: v,
          transcript: w,
        };
        const body = kiro.codec.toCommon(
          kiro.text.parse(JSON.stringify({ kiro_conversation: { key: "/k", conversation } })),
        ).body;
        expect(body.length).toBeGreaterThanOrEqual(3);
        expect(body.length).toBeLessThanOrEqual(5);
      }),
      { numRuns: 200 },
    );
    // A huge image reads whole.
    const big = Array.from({ length: 3_000_000 }, (_, i) => i % 256);
    const conversation = {
      history: [
        {
          user: {
            content: { Prompt: { prompt: "p" } },
            images: [{ format: "Webp", source: { Bytes: big } }],
          },
          assistant: null,
        },
      ],
    };
    const [m] = kiro.codec.toCommon(
      kiro.text.parse(JSON.stringify({ kiro_conversation: { key: "/k", conversation } })),
    ).body;
    const image = m?.content[1];
    expect(image?.type === "image" && image.source.media_type).toBe("image/webp");
    expect(image?.type === "image" && Buffer.from(image.source.data, "base64").length).toBe(
      big.length,
    );
  });

  it("lists and views older-engine conversations through the built binary, and refuses to continue one", () => {
    const { env, home: h } = home();
    const run = (args: string[]) =>
      txcript(args, { env: { ...env, TXCRIPT_CACHE: join(tempDir("kiro-conv-cache-"), "c") } });
    const before = hashTree(h);
    const list = run(["list", "--json", "--from", "kiro"]);
    expect(list.status).toBe(0);
    const ids = (JSON.parse(list.stdout) as { sessions: { id: string }[] }).sessions.map(
      (s) => s.id,
    );
    expect(ids).toContain(CONV_ID);
    expect(ids).toContain(OLD_CONV_ID);
    const view = run(["view", CONV_ID, "--no-pager"]);
    expect(view.status).toBe(0);
    expect(view.stdout).toContain("Why does the build fail?");
    expect(view.stdout).toContain("Fixed the type of n.");
    expect(view.stdout).toContain("A type error, probably.");
    expect(view.stdout).toContain(PENDING_PROMPT);
    expect(view.stdout.split(PENDING_PROMPT)).toHaveLength(2);
    const cont = run(["continue", CONV_ID, "--with", "kiro", "--no-resume"]);
    expect(cont.status).toBe(1);
    expect(cont.stderr.trim().split("\n")).toHaveLength(1);
    expect(cont.stderr).toContain("does not write them");
    expect(hashTree(h)).toEqual(before);
  });
});
