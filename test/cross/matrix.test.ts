/**
 * The cross-harness matrix: every ordered pair among agy, Claude Code, Codex
 * and Simple converts a realistic 50-message session, and what both sides
 * can carry survives, field by field.
 *
 * The session is built once as Common (session.ts) and written into each
 * source harness by its own fromCommon; agy is also a source through two
 * conversations written straight from the format facts
 * (test/support/agy-fixtures.ts). For each target the path is the one a
 * user takes: source native text -> parse -> toCommon -> target fromCommon
 * -> target native text -> parse -> toCommon. The result is compared with
 * the target's projection (carry.ts) of what came out of the source, and
 * once more through the target's real store on a temporary home.
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Message, type Tool, type ToolUseBlock, toolDisplayName } from "../../src/common.js";
import { UnsupportedError } from "../../src/errors.js";
import {
  type AntigravityBody,
  antigravityCodec,
  emptyBody,
} from "../../src/harness/antigravity/index.js";
import { commonToText, harness, openStore, textToCommon } from "../../src/harness/index.js";
import { encode } from "../../src/protobuf.js";
import { EPOCH } from "../../src/time.js";
import type { Common, HarnessId, Transcript } from "../../src/transcript.js";
import {
  legacyLayoutSession,
  S,
  SRC,
  stepRow,
  T,
  toolsSession120,
  userInputPayload,
} from "../support/agy-fixtures.js";
import { createOpenCodeDatabase } from "../support/opencode.js";
import { tempDir } from "../support/tmp.js";
import { CARRY } from "./carry.js";
import { CWD, FIRST_PROMPT, SCREENSHOT, SESSION_ID, sourceSession } from "./session.js";
import { shapedSessionArb } from "./shaped.js";

const HARNESSES = [
  "antigravity",
  "claude_code",
  "codex",
  "gemini_cli",
  "opencode",
  "simple",
  "goose",
  "kiro",
  "pi",
  "copilot",
  "qwen_code",
  "cursor",
  "amp",
  "cline",
  "crush",
  "droid",
  "kilo",
  "grok",
] as const;
const LABEL: Record<HarnessId, string> = {
  antigravity: "agy",
  claude_code: "Claude Code",
  codex: "Codex",
  opencode: "OpenCode",
  gemini_cli: "Gemini CLI",
  simple: "Simple",
  goose: "Goose",
  kiro: "Kiro CLI",
  pi: "pi",
  copilot: "Copilot CLI",
  qwen_code: "Qwen Code",
  cursor: "Cursor",
  amp: "Amp",
  crush: "Crush",
  cline: "Cline",
  droid: "Droid",
  kilo: "Kilo",
  grok: "Grok CLI",
};

/** Common into a harness: fromCommon, then its text, parsed and read back. */
function through(target: HarnessId, common: Transcript<Common>): Transcript<Common> {
  const h = harness(target);
  return textToCommon(h, commonToText(h, common), `written.${target}`);
}

/** Field by field: the meta, then every message on its own, so a diff names the message. */
function expectCarried(actual: Transcript<Common>, expected: Transcript<Common>, label: string) {
  expect.soft(actual.meta, `${label}: meta`).toEqual(expected.meta);
  const n = Math.max(actual.body.length, expected.body.length);
  for (let i = 0; i < n; i++) {
    expect.soft(actual.body[i], `${label}: message ${i}`).toEqual(expected.body[i]);
  }
  expect(actual.body, `${label}: message count`).toHaveLength(expected.body.length);
}

// ---------------------------------------------------------------------------
// Sources

interface Source {
  name: string;
  harness: HarnessId;
  /** Written from the format facts rather than from the session built here. */
  fixture: boolean;
  /** What reading the source gives (source native -> toCommon), computed in the test that needs it. */
  read: () => Transcript<Common>;
}

function once<T>(f: () => T): () => T {
  let value: { v: T } | undefined;
  return () => {
    value ??= { v: f() };
    return value.v;
  };
}

const session = sourceSession();

function fromOwnWriter(id: HarnessId): Source {
  const h = harness(id);
  const read = once(() => textToCommon(h, commonToText(h, session), `source.${id}`));
  return { name: LABEL[id], harness: id, fixture: false, read };
}

function fromAgyFixture(name: string, build: () => AntigravityBody): Source {
  const h = harness("antigravity");
  const read = once(() => {
    const body = build();
    const text = h.text.render({ meta: { id: body.id, timestamp: EPOCH }, body });
    return h.codec.toCommon(h.text.parse(text, name));
  });
  return { name, harness: "antigravity", fixture: true, read };
}

const sources: Source[] = [
  ...HARNESSES.map(fromOwnWriter),
  fromAgyFixture("agy 1.0.x fixture", legacyLayoutSession),
  fromAgyFixture("agy 1.2.0 fixture", toolsSession120),
];

describe("the source session", () => {
  it("is a realistic 50-message coding session with everything the matrix must carry", () => {
    const blocks = session.body.flatMap((m) => m.content);
    const tools = blocks.filter((b): b is ToolUseBlock => b.type === "tool_use").map((b) => b.tool);
    expect(session.body).toHaveLength(50);
    expect(new Set(tools.map((t) => t.name))).toEqual(
      new Set(["Bash", "Read", "Write", "Edit", "Raw"]),
    );
    const results = blocks.filter((b) => b.type === "tool_result");
    expect(results.filter((r) => r.is_error).length).toBeGreaterThanOrEqual(3);
    expect(results.some((r) => typeof r.content === "object" && !Array.isArray(r.content))).toBe(
      true,
    );
    expect(blocks.filter((b) => b.type === "image")).toHaveLength(1);
    const thinking = blocks.filter((b) => b.type === "thinking");
    expect(thinking.some((b) => b.signature !== undefined)).toBe(true);
    expect(thinking.some((b) => b.signature === undefined)).toBe(true);
    const assistants = session.body.filter((m) => m.role === "assistant");
    expect(assistants.every((m) => m.usage !== undefined)).toBe(true);
  });

  for (const id of HARNESSES) {
    it(`written by ${LABEL[id]}'s own fromCommon reads back as ${LABEL[id]} carries it`, () => {
      const source = sources.find((s) => s.name === LABEL[id])!;
      expectCarried(source.read(), CARRY[id](session, "text"), LABEL[id]);
    });
  }
});

// ---------------------------------------------------------------------------
// What survives every pair, whatever the projections say: the calls, their
// ids and commands, the results of every call and the error of every failed
// command, the user's image, the first prompt and each turn's output tokens.

interface Survivors {
  calls: { id: string; tool: string; command?: string }[];
  results: { id: string; shellError?: boolean }[];
  image: string | undefined;
  firstPrompt: string | undefined;
  outputTokens: number[];
}

function survivors(t: Transcript<Common>): Survivors {
  const calls = new Map<string, Tool>();
  const out: Survivors = {
    calls: [],
    results: [],
    image: undefined,
    firstPrompt: undefined,
    outputTokens: [],
  };
  for (const m of t.body) {
    for (const b of m.content) {
      if (b.type === "tool_use") {
        calls.set(b.id, b.tool);
        out.calls.push({
          id: b.id,
          tool: toolDisplayName(b.tool),
          ...(b.tool.name === "Bash" ? { command: b.tool.command.replace(/^cd \S+ && /, "") } : {}),
        });
      }
      if (b.type === "tool_result") {
        const bash = calls.get(b.tool_use_id)?.name === "Bash";
        out.results.push(
          bash ? { id: b.tool_use_id, shellError: b.is_error === true } : { id: b.tool_use_id },
        );
      }
      if (b.type === "image" && m.role === "user")
        out.image ??= `${b.source.media_type}:${b.source.data}`;
      if (b.type === "text" && m.role === "user") out.firstPrompt ??= b.text;
    }
    if (m.role === "assistant" && m.usage !== undefined)
      out.outputTokens.push(m.usage.output_tokens);
  }
  return out;
}

// ---------------------------------------------------------------------------
// The matrix

const NO_TURN_USAGE: readonly HarnessId[] = ["goose", "kiro", "cursor", "droid", "crush", "grok"];

describe.each(sources)("from $name", (source) => {
  describe.each([...HARNESSES])("to %s", (target) => {
    const label = `${source.name} -> ${LABEL[target]}`;
    const converted = once(() => through(target, source.read()));

    it("carries what both sides can carry, field by field", () => {
      expectCarried(converted(), CARRY[target](source.read(), "text"), label);
    });

    it("keeps every call, result, shell error, the image, the prompt and the output tokens", () => {
      const before = survivors(source.read());
      const after = survivors(converted());
      // Goose, Droid and Crush record tokens per session, Kiro per user turn (docs/formats/goose.md, kiro.md, crush.md).
      if (NO_TURN_USAGE.includes(target)) before.outputTokens = [];
      expect(after).toEqual(before);
      if (source.fixture) return;
      // The session built here: the same facts as in the original.
      expect(after.image).toBe(`image/png:${SCREENSHOT}`);
      expect(after.firstPrompt?.startsWith(FIRST_PROMPT)).toBe(true);
      expect(after.calls).toHaveLength(24);
      expect(after.results.filter((r) => r.shellError)).toHaveLength(3);
    });
  });
});

// ---------------------------------------------------------------------------
// Through each target's real store on a temporary home

// Read-only stores refuse to save; their refusal is tested in their own folder.
const READ_ONLY: readonly HarnessId[] = ["goose", "kiro", "cursor", "amp", "grok"];
const STORED = HARNESSES.filter((id) => harness(id).store !== undefined && !READ_ONLY.includes(id));

describe.each(STORED)("saved in the %s store", (target) => {
  it.each(sources.map((s) => [s.name, s] as const))(
    "from %s: save, discover, load, read back",
    async (_, source) => {
      const home = tempDir("txcript-matrix-");
      // OpenCode's store is its own database: txcript writes into one, never creates it.
      if (target === "opencode") createOpenCodeDatabase(home);
      const store = openStore(harness(target), { root: home, env: {} });
      if (!store) throw new Error(`${target} has no store`);
      const saved = store.save(source.read());
      const found = (await await store.native.discover()).sessions.filter((s) => s.id === saved.id);
      expect(found, "discovered once").toHaveLength(1);
      const back = store.load(saved.id);
      const expected = CARRY[target](source.read(), "store");
      expectCarried(back, expected, `${source.name} -> ${LABEL[target]} store`);
      expect(found[0]!.meta.id).toBe(back.meta.id);
      expect(found[0]!.message_count).toBe(back.body.length);
    },
  );
});

// ---------------------------------------------------------------------------
// Random sessions of the same shape through every ordered pair

describe("random coding sessions through every ordered pair", () => {
  it.each(HARNESSES.flatMap((s) => HARNESSES.map((t) => [LABEL[s], LABEL[t], s, t] as const)))(
    "%s -> %s carries what the projections say",
    (_s, _t, from, to) => {
      fc.assert(
        fc.property(shapedSessionArb, (c) => {
          const source = through(from, c);
          expect(source).toEqual(CARRY[from](c, "text"));
          expect(through(to, source)).toEqual(CARRY[to](source, "text"));
        }),
        { numRuns: 30 },
      );
    },
  );
});

// ---------------------------------------------------------------------------
// Losses no other test pins (docs/conversions.md cites each by name)

const T0 = "2026-09-14T08:30:00.123456789Z";
const T1 = "2026-09-14T08:30:01Z";
const T2 = "2026-09-14T08:30:02Z";
const prompt = (text: string, at = T0): Message => ({
  role: "user",
  content: [{ type: "text", text }],
  timestamp: at,
});
const transcript = (body: Message[], meta: Partial<Transcript<Common>["meta"]> = {}) => ({
  meta: { id: SESSION_ID, timestamp: T0, cwd: CWD, ...meta },
  body,
});
const call = (id: string, tool: Tool): ToolUseBlock => ({ type: "tool_use", id, tool });

describe("losses no other test pins", () => {
  it("agy: per-call signatures, redacted thinking and thinking durations are not read", () => {
    const args = { CommandLine: "ls", Cwd: CWD };
    const conversation = (extras: boolean): AntigravityBody => {
      const toolCall = encode((w) => {
        w.string(1, "c1").string(2, "run_command").string(3, JSON.stringify(args));
        if (extras) w.string(6, "thought-signature").string(7, "thinking-signature");
        w.string(9, "run_command");
      });
      const planner = encode((w) => {
        w.string(1, "Listing.").string(3, "List the files.").string(4, "SIG");
        if (extras) w.uint(5, 1); // thinking_redacted
        w.string(6, "bot-1").bytes(7, toolCall).string(8, "Listing.");
        if (extras) w.message(11, (d) => d.int(1, 3)); // thinking_duration: 3 s
        w.uint(12, 10);
      });
      const body = emptyBody("agy-extras");
      body.steps = [
        stepRow({
          idx: 0,
          type: T.USER_INPUT,
          status: S.DONE,
          meta: { at: T0, source: SRC.USER_EXPLICIT },
          payload: userInputPayload("list the files"),
        }),
        stepRow({
          idx: 1,
          type: T.PLANNER_RESPONSE,
          status: S.DONE,
          meta: { at: T1, source: SRC.MODEL },
          payload: planner,
        }),
      ];
      return body;
    };
    const read = (body: AntigravityBody) =>
      antigravityCodec.toCommon({ meta: { id: body.id, timestamp: EPOCH }, body });
    const plain = conversation(false);
    const extras = conversation(true);
    const size = (b: AntigravityBody) => b.steps[1]?.step_payload?.length ?? 0;
    expect(size(extras)).toBeGreaterThan(size(plain));
    expect(read(extras)).toEqual(read(plain));
    expect(read(extras).body[1]!.content[0]).toEqual({
      type: "thinking",
      text: "List the files.",
      signature: "SIG",
    });
  });

  it("agy: thinking blocks join into one, before the text; a signature survives only on a lone block", () => {
    const interleaved = transcript([
      prompt("go"),
      {
        role: "assistant",
        content: [
          { type: "thinking", text: "first", signature: "sig-of-first" },
          { type: "text", text: "Looking." },
          { type: "thinking", text: "second", signature: "sig-of-second" },
          { type: "text", text: "Found it." },
        ],
        timestamp: T1,
      },
      {
        role: "assistant",
        content: [{ type: "thinking", text: "alone", signature: "sig-alone" }],
        timestamp: T2,
      },
    ]);
    const back = through("antigravity", interleaved).body;
    expect(back[1]!.content).toEqual([
      { type: "thinking", text: "first\n\nsecond" },
      { type: "text", text: "Looking.\n\nFound it." },
    ]);
    expect(back[2]!.content).toEqual([{ type: "thinking", text: "alone", signature: "sig-alone" }]);
    // Claude Code then replays no signature over text it did not sign, nor
    // one whose model agy could not keep (it may be another vendor's).
    const claude = through("claude_code", through("antigravity", interleaved)).body;
    expect(claude[1]!.content[0]).toEqual({ type: "text", text: "first\n\nsecond" });
    expect(claude[2]!.content[0]).toEqual({ type: "text", text: "alone" });
    // With a Claude model named, the lone signed block is replayed.
    const named = through("antigravity", interleaved);
    const withModel = {
      ...named,
      body: named.body.map((m) => (m.role === "assistant" ? { ...m, model: "claude-opus-5" } : m)),
    };
    expect(through("claude_code", withModel).body[2]!.content[0]).toEqual({
      type: "thinking",
      text: "alone",
      signature: "sig-alone",
    });
  });

  it("agy: a user message mixing results and text is split, the results right after their call; user thinking becomes text", () => {
    const back = through(
      "antigravity",
      transcript([
        prompt("go"),
        {
          role: "assistant",
          content: [call("c1", { name: "Bash", command: "ls" })],
          timestamp: T1,
        },
        {
          role: "user",
          content: [
            { type: "text", text: "and also this" },
            { type: "tool_result", tool_use_id: "c1", content: "a\nb\n" },
            { type: "thinking", text: "a note to self" },
          ],
          timestamp: T2,
        },
      ]),
    ).body;
    expect(back.slice(2).map((m) => m.content)).toEqual([
      [{ type: "tool_result", tool_use_id: "c1", content: "a\nb\n" }],
      [{ type: "text", text: "and also this\n\na note to self" }],
    ]);
  });

  it("agy: stop_sequence reads back as end_turn, unnumbered other reasons and zero counters are dropped", () => {
    const turn = (stop: Message["stop_reason"], usage: Message["usage"]): Message => {
      const m: Message = {
        role: "assistant",
        content: [{ type: "text", text: "ok" }],
        timestamp: T1,
      };
      if (stop !== undefined) m.stop_reason = stop;
      if (usage !== undefined) m.usage = usage;
      return m;
    };
    const back = through(
      "antigravity",
      transcript([
        prompt("go"),
        turn("stop_sequence", { input_tokens: 0, output_tokens: 0 }),
        turn(
          { other: "pause_turn" },
          {
            input_tokens: 5,
            output_tokens: 1,
            cache_read_input_tokens: 0,
            cache_creation_input_tokens: 0,
          },
        ),
        turn(
          { other: "stop-7" },
          { input_tokens: 5, output_tokens: 1, cache_read_input_tokens: 3 },
        ),
      ]),
    ).body;
    expect(back.slice(1).map((m) => [m.stop_reason, m.usage])).toEqual([
      ["end_turn", undefined],
      [undefined, { input_tokens: 5, output_tokens: 1 }],
      [{ other: "stop-7" }, { input_tokens: 5, output_tokens: 1, cache_read_input_tokens: 3 }],
    ]);
  });

  it("agy: cli_version is not stored; the title is kept, and a blank one becomes the first prompt's", () => {
    const titled = through(
      "antigravity",
      transcript([prompt("  Fix   the\nflaky test  ")], {
        title: "Flaky test",
        cli_version: "2.1.200",
      }),
    );
    expect(titled.meta).toEqual({ id: SESSION_ID, timestamp: T0, cwd: CWD, title: "Flaky test" });
    const blank = through(
      "antigravity",
      transcript([prompt("  Fix   the\nflaky test  ")], { title: "  \n " }),
    );
    expect(blank.meta).toEqual({
      id: SESSION_ID,
      timestamp: T0,
      cwd: CWD,
      title: "Fix the flaky test",
    });
  });

  it("agy: result text that is a JSON object or array comes back as JSON, a JSON scalar as text", () => {
    const mcp = (id: string): Tool => ({ name: "Raw", tool_name: "mcp__x__y", input: { id } });
    const back = through(
      "antigravity",
      transcript([
        prompt("go"),
        {
          role: "assistant",
          content: [
            call("a", mcp("a")),
            call("b", mcp("b")),
            call("c", { name: "Bash", command: "cat x.json" }),
          ],
          timestamp: T1,
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "a", content: '{"ok":true}' },
            { type: "tool_result", tool_use_id: "b", content: 42 },
            { type: "tool_result", tool_use_id: "c", content: '{"ok":true}' },
          ],
          timestamp: T2,
        },
      ]),
    ).body;
    // A shell's output rides its own typed step and stays text.
    expect(back[2]!.content.map((b) => (b as { content: unknown }).content)).toEqual([
      { ok: true },
      "42",
      '{"ok":true}',
    ]);
  });

  it("agy: user artifacts become media with new ids, names from their path, text as base64", () => {
    const back = through(
      "antigravity",
      transcript([
        {
          role: "user",
          content: [
            { type: "text", text: "see" },
            {
              type: "artifact",
              artifact: {
                id: "plan",
                name: "plan.md",
                source: { type: "text", text: "# plan", media_type: "text/markdown" },
              },
            },
            {
              type: "artifact",
              artifact: { id: "log", name: "log", source: { type: "path", path: "/tmp/x.log" } },
            },
          ],
          timestamp: T0,
        },
      ]),
    ).body;
    expect(back[0]!.content.slice(1)).toEqual([
      {
        type: "artifact",
        artifact: {
          id: "media-0-1",
          name: "media-1",
          source: {
            type: "base64",
            data: Buffer.from("# plan").toString("base64"),
            media_type: "text/markdown",
          },
        },
      },
      {
        type: "artifact",
        artifact: {
          id: "media-0-2",
          name: "x.log",
          source: { type: "path", path: "/tmp/x.log", media_type: "application/octet-stream" },
        },
      },
    ]);
  });

  it("Claude Code: an assistant message without a model takes the session's; an `other` stop reason naming Anthropic's is read as it", () => {
    const back = through(
      "claude_code",
      transcript(
        [
          prompt("go"),
          {
            role: "assistant",
            content: [{ type: "text", text: "a" }],
            timestamp: T1,
            stop_reason: { other: "end_turn" },
          },
          {
            role: "assistant",
            content: [{ type: "text", text: "b" }],
            timestamp: T2,
            model: "claude-haiku-4-5",
          },
        ],
        { model: "claude-opus-4-5" },
      ),
    ).body;
    expect(back.slice(1).map((m) => [m.model, m.stop_reason])).toEqual([
      ["claude-opus-4-5", "end_turn"],
      ["claude-haiku-4-5", undefined],
    ]);
  });

  it("Claude Code: a session with nothing it can hold is refused, not written as a file nobody can open", () => {
    const empty = transcript([prompt("   "), { role: "assistant", content: [], timestamp: T1 }], {
      title: "kept nowhere",
    });
    expect(() => harness("claude_code").codec.fromCommon(empty)).toThrow(UnsupportedError);
    expect(() => harness("claude_code").codec.fromCommon(empty)).toThrow(
      /no message Claude Code can hold/,
    );
  });

  it("Codex: replace_all false on an Edit written as apply_patch is not kept; with no response the session model is lost", () => {
    const edit: Tool = {
      name: "Edit",
      file_path: "/w/a.ts",
      old_string: "x",
      new_string: "y",
      replace_all: false,
    };
    const back = through(
      "codex",
      transcript([
        prompt("go"),
        { role: "assistant", content: [call("e", edit)], timestamp: T1, model: "gpt-5-codex" },
      ]),
    );
    expect((back.body[1]!.content[0] as ToolUseBlock).tool).toEqual({
      name: "Edit",
      file_path: "/w/a.ts",
      old_string: "x",
      new_string: "y",
    });
    const quiet = through("codex", transcript([prompt("go")], { model: "gpt-5-codex" }));
    expect(quiet.meta.model).toBeUndefined();
  });
});
