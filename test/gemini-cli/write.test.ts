/**
 * Writing Gemini CLI sessions: the records fromCommon produces (JSONL in the
 * shape every loader reads, every call with its result, consecutive
 * assistant turns merged), what reads back, and the store: the project's
 * folder from projects.json or a new slug, the registry entry and marker
 * added without touching anything else, the file name, no overwriting, the
 * roots from the environment, deletion inside the root only.
 */

import { existsSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Message } from "../../src/common.js";
import { ConflictError, InvalidRequestError, UnsafePathError } from "../../src/errors.js";
import {
  GeminiCliStore,
  geminiCliRoot,
  geminiCodec,
  geminiText,
  projectHash,
} from "../../src/harness/gemini-cli/index.js";
import { timestampFromMillis } from "../../src/time.js";
import type { Common, Transcript } from "../../src/transcript.js";
import { hashTree, tempDir } from "../support/tmp.js";
import { emptyHome, put, store } from "./support.js";

const ID = "3b9d2f4e-7a1c-4e5b-9d8f-6c2a1e0b7d43";
const CWD = "/home/dana/my_shop";
const at = (s: number) => timestampFromMillis(Date.UTC(2026, 8, 14, 8, 30, s));

const body: Message[] = [
  { role: "user", content: [{ type: "text", text: "Look at the repo" }], timestamp: at(0) },
  {
    role: "assistant",
    model: "gemini-2.5-pro",
    content: [
      { type: "thinking", text: "**Plan** list first", signature: "sig" },
      { type: "text", text: "Listing." },
      { type: "tool_use", id: "c1", tool: { name: "Bash", command: "ls", workdir: CWD } },
    ],
    timestamp: at(1),
    usage: { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 3 },
  },
  {
    role: "user",
    content: [{ type: "tool_result", tool_use_id: "c1", content: "a\nb\n" }],
    timestamp: at(2),
  },
  { role: "assistant", content: [{ type: "text", text: "Now two steps." }], timestamp: at(3) },
  {
    role: "assistant",
    content: [
      {
        type: "tool_use",
        id: "c2",
        tool: { name: "Read", file_path: `${CWD}/a`, offset: 2, limit: 3 },
      },
      { type: "tool_use", id: "c3", tool: { name: "Bash", command: "make", timeout_ms: 5000 } },
      {
        type: "tool_use",
        id: "c4",
        tool: { name: "Edit", file_path: `${CWD}/a`, old_string: "x", new_string: "y" },
      },
    ],
    timestamp: at(4),
    usage: { input_tokens: 20, output_tokens: 7 },
  },
  {
    role: "user",
    content: [
      { type: "tool_result", tool_use_id: "c2", content: "l2\nl3\nl4" },
      { type: "tool_result", tool_use_id: "c3", content: "make: *** failed", is_error: true },
    ],
    timestamp: at(5),
  },
  { role: "assistant", content: [{ type: "text", text: "Done." }], timestamp: at(6) },
];
const session: Transcript<Common> = {
  meta: { id: ID, timestamp: at(0), cwd: CWD, title: "Look at the repo", model: "gemini-2.5-pro" },
  body,
};

const records = (t: Transcript<Common>) =>
  geminiText
    .render(geminiCodec.fromCommon(t))
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe("fromCommon", () => {
  it("writes the metadata line, the hidden context, then user and merged gemini records", async () => {
    const r = records(session);
    expect(r[0]).toEqual({
      sessionId: ID,
      projectHash: projectHash(CWD),
      startTime: "2026-09-14T08:30:00.000Z",
      lastUpdated: "2026-09-14T08:30:06.000Z",
      kind: "main",
      summary: "Look at the repo",
    });
    expect(r[1]).toMatchObject({
      type: "user",
      content: [{ text: expect.stringContaining(`  - ${CWD}\n`) }],
    });
    expect(r.slice(2).map((x) => x.type)).toEqual(["user", "gemini", "gemini", "gemini"]);
    expect(r[3]).toMatchObject({
      type: "gemini",
      content: "Listing.",
      model: "gemini-2.5-pro",
      thoughts: [
        { subject: "Plan", description: "list first", timestamp: "2026-09-14T08:30:01.000Z" },
      ],
      tokens: { input: 13, output: 5, cached: 3, thoughts: 0, tool: 0, total: 18 },
      toolCalls: [
        {
          id: "c1",
          name: "run_shell_command",
          args: { command: "ls", dir_path: CWD },
          result: [
            {
              functionResponse: {
                id: "c1",
                name: "run_shell_command",
                response: { output: "a\nb\n" },
              },
            },
          ],
          status: "success",
          timestamp: "2026-09-14T08:30:02.000Z",
        },
      ],
    });
    // Two assistant messages in a row are one model turn; every call has a result.
    const merged = r[4] as { content: string; toolCalls: Record<string, unknown>[] };
    expect(merged.content).toBe("Now two steps.");
    expect(merged.toolCalls.map((c) => [c.name, c.args, c.status])).toEqual([
      ["read_file", { file_path: `${CWD}/a`, start_line: 2, end_line: 4 }, "success"],
      ["Bash", { command: "make", timeout_ms: 5000 }, "error"],
      ["replace", { file_path: `${CWD}/a`, old_string: "x", new_string: "y" }, "cancelled"],
    ]);
    expect(
      merged.toolCalls.map(
        (c) =>
          (c.result as { functionResponse: { response: unknown } }[])[0]!.functionResponse.response,
      ),
    ).toEqual([
      { output: "l2\nl3\nl4" },
      { error: "make: *** failed" },
      { error: "[no result was recorded for this call]" },
    ]);
  });

  it("puts what follows a call in its own record, so the call is replayed before it", () => {
    // Gemini CLI sends a record as thoughts, text, then calls (0.61.0, an agy turn "call, then text").
    const r = records({
      ...session,
      body: [
        body[0]!,
        {
          role: "assistant",
          content: [
            { type: "thinking", text: "run it" },
            { type: "tool_use", id: "s1", tool: { name: "Bash", command: "sleep 45" } },
          ],
          timestamp: at(1),
        },
        { role: "assistant", content: [{ type: "text", text: "Started it." }], timestamp: at(2) },
      ],
    }).slice(2);
    expect(
      r.map((x) => [x.type, x.content, (x.toolCalls as unknown[] | undefined)?.length]),
    ).toEqual([
      ["user", [{ text: "Look at the repo" }], undefined],
      ["gemini", "", 1],
      ["gemini", "Started it.", undefined],
    ]);
  });

  it("is deterministic, and reads back what Gemini CLI holds", async () => {
    const a = geminiText.render(geminiCodec.fromCommon(session));
    expect(geminiText.render(geminiCodec.fromCommon(structuredClone(session)))).toBe(a);
    const back = geminiCodec.toCommon(geminiText.parse(a, "written.jsonl"));
    expect(back.meta).toEqual(session.meta);
    expect(back.body).toEqual([
      body[0],
      {
        ...body[1],
        // thinking without its signature: the file keeps summaries only
        content: [
          { type: "thinking", text: "**Plan** list first" },
          { type: "text", text: "Listing." },
          { type: "tool_use", id: "c1", tool: { name: "Bash", command: "ls", workdir: CWD } },
        ],
      },
      body[2],
      {
        role: "assistant",
        content: [{ type: "text", text: "Now two steps." }, ...body[4]!.content],
        timestamp: at(3),
        model: "gemini-2.5-pro",
        usage: { input_tokens: 20, output_tokens: 7 },
      },
      {
        role: "user",
        content: [
          ...body[5]!.content,
          {
            type: "tool_result",
            tool_use_id: "c4",
            content: "[no result was recorded for this call]",
            is_error: true,
          },
        ],
        timestamp: at(5),
      },
      { ...body[6], model: "gemini-2.5-pro" },
    ]);
  });

  it("keeps a non-UUID id's copy under a stable UUID", async () => {
    const r = records({ ...session, meta: { ...session.meta, id: "ses_abc" } });
    expect(r[0]!.sessionId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-/);
    expect(records({ ...session, meta: { ...session.meta, id: "ses_abc" } })[0]!.sessionId).toBe(
      r[0]!.sessionId,
    );
  });
});

describe("the store", () => {
  const native = () => geminiCodec.fromCommon(session);

  it("registers a new project beside the others, marks its folder, names the file as the CLI does", async () => {
    const root = emptyHome();
    const before = `${JSON.stringify({ projects: { "/srv/other": "my-shop", "/srv/x": "x" } }, null, 2)}`;
    put(root, "projects.json", before);
    put(root, "history/my-shop-1/.project_root", "/srv/someone-else");
    const saved = store(root).save(native());
    // my-shop is taken in the registry, my-shop-1 by another project's marker.
    const file = join(root, "tmp/my-shop-2/chats/session-2026-09-14T08-30-3b9d2f4e.jsonl");
    expect(saved.path).toBe(file);
    expect(saved.id).toBe(ID);
    // The file is what fromCommon wrote, plus the CLI's own lastUpdated record for the save time.
    const written = readFileSync(file, "utf8");
    const rendered = geminiText.render(native());
    expect(written.startsWith(rendered)).toBe(true);
    const stamp = JSON.parse(written.slice(rendered.length));
    expect(Object.keys(stamp)).toEqual(["$set"]);
    expect(Date.now() - Date.parse(stamp.$set.lastUpdated)).toBeLessThan(60_000);
    expect(JSON.parse(readFileSync(join(root, "projects.json"), "utf8"))).toEqual({
      projects: { "/srv/other": "my-shop", "/srv/x": "x", [CWD]: "my-shop-2" },
    });
    expect(readFileSync(join(root, "tmp/my-shop-2/.project_root"), "utf8")).toBe(CWD);
    expect(saved.files).toEqual(
      expect.arrayContaining([
        file,
        join(root, "tmp/my-shop-2/.project_root"),
        join(root, "projects.json"),
      ]),
    );
    const found = (await store(root).discover()).sessions;
    expect(found.map((d) => [d.id, d.meta.cwd, d.meta.title, d.message_count])).toEqual([
      [ID, CWD, "Look at the repo", 6],
    ]);
  });

  it("uses the registered folder and leaves projects.json alone", async () => {
    const root = emptyHome();
    put(root, "projects.json", JSON.stringify({ projects: { [CWD]: "shop" } }));
    put(root, "tmp/shop/.project_root", CWD);
    const tree = hashTree(root);
    const saved = store(root).save(native());
    expect(saved.path).toBe(join(root, "tmp/shop/chats/session-2026-09-14T08-30-3b9d2f4e.jsonl"));
    const after = hashTree(root);
    expect(after["projects.json"]).toBe(tree["projects.json"]);
    expect(after["tmp/shop/.project_root"]).toBe(tree["tmp/shop/.project_root"]);
  });

  it("a projects.json the CLI could not read is left byte for byte; the marker still names the folder", async () => {
    const root = emptyHome();
    put(root, "projects.json", '{"projects": {"/a": "NOT A SLUG"}}');
    store(root).save(native());
    expect(readFileSync(join(root, "projects.json"), "utf8")).toBe(
      '{"projects": {"/a": "NOT A SLUG"}}',
    );
    expect((await store(root).discover()).sessions[0]!.meta.cwd).toBe(CWD);
  });

  it("never overwrites a session that exists, unless asked", async () => {
    const root = emptyHome();
    const s = store(root);
    const first = s.save(native());
    const text = readFileSync(first.path, "utf8");
    expect(() => s.save(native())).toThrow(ConflictError);
    expect(readFileSync(first.path, "utf8")).toBe(text);
    const changed = geminiCodec.fromCommon({
      ...session,
      meta: { ...session.meta, title: "Renamed" },
    });
    s.save(changed, { overwrite: true });
    expect((await s.discover()).sessions.map((d) => d.meta.title)).toEqual(["Renamed"]);
  });

  it("refuses a session with no project directory, or a relative one", async () => {
    const root = emptyHome();
    const { cwd: _, ...meta } = session.meta;
    expect(() => store(root).save(geminiCodec.fromCommon({ ...session, meta }))).toThrow(
      InvalidRequestError,
    );
    const relative = geminiCodec.fromCommon({ ...session, meta: { ...meta, cwd: "rel/dir" } });
    expect(() => store(root).save(relative)).toThrow(/relative one/);
    expect(existsSync(join(root, "tmp"))).toBe(false);
  });

  it("deletes the session's files and its subagents' folder, and nothing outside the root", async () => {
    const root = emptyHome();
    const s = store(root);
    const saved = s.save(native());
    const sub = put(
      root,
      `tmp/my-shop/chats/${ID}/aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee.jsonl`,
      "{}\n",
    );
    expect(s.delete(ID).sort()).toEqual([saved.path, join(root, `tmp/my-shop/chats/${ID}`)].sort());
    expect(existsSync(saved.path) || existsSync(sub)).toBe(false);
    expect(s.ids()).toEqual([]);

    const outside = join(tempDir("gemini-outside-"), "victim.jsonl");
    writeFileSync(outside, geminiText.render(native()));
    symlinkSync(outside, join(root, "tmp/my-shop/chats/session-2026-09-14T08-30-3b9d2f4e.jsonl"));
    expect(() => s.delete(ID)).toThrow(UnsafePathError);
    expect(existsSync(outside)).toBe(true);
  });

  it("finds its root as the CLI does: GEMINI_CLI_HOME, then GEMINI_HOME, then HOME; explicit roots first", async () => {
    expect(geminiCliRoot({ env: { HOME: "/h" } })).toBe("/h/.gemini");
    expect(geminiCliRoot({ env: { HOME: "/h", GEMINI_HOME: "/g" } })).toBe("/g");
    expect(geminiCliRoot({ env: { HOME: "/h", GEMINI_HOME: "/g", GEMINI_CLI_HOME: "/c" } })).toBe(
      "/c/.gemini",
    );
    expect(geminiCliRoot({ env: { GEMINI_CLI_HOME: "/c", TXCRIPT_GEMINI_CLI_ROOT: "/t" } })).toBe(
      "/t",
    );
    expect(geminiCliRoot({ root: "/r", env: { TXCRIPT_GEMINI_CLI_ROOT: "/t" } })).toBe("/r");
    expect(geminiCliRoot({ env: { HOME: "/h", GEMINI_CLI_HOME: "" } })).toBe("/h/.gemini");
    expect(new GeminiCliStore({ env: { HOME: "/h" } }).roots).toEqual(["/h/.gemini"]);
  });
});
