/**
 * fast-check arbitraries for the canonical model, shared by the property
 * tests of every codec: realistic ids, every block type, every tool (typed
 * tools are built through toolFromCanonical, so a Raw never hides a typed
 * tool), usage, stop reasons, nanosecond timestamps and unicode text.
 *
 * Transcripts keep the invariants every reader enforces: tool_use ids are
 * unique within a transcript, tool names and the session id are never
 * empty. Most tool_results answer an earlier call, some answer none.
 */

import fc from "fast-check";
import {
  type Artifact,
  type ArtifactSource,
  type Block,
  type ImageSource,
  type Json,
  type JsonObject,
  type Message,
  type Meta,
  ROLES,
  STOP_REASONS,
  type StopReason,
  type Tool,
  toolFromCanonical,
  type Usage,
} from "../../src/common.js";
import { type EpochTime, formatTimestamp, type Timestamp } from "../../src/time.js";
import type { Common, Transcript } from "../../src/transcript.js";

export interface TextOptions {
  /**
   * Include lone UTF-16 surrogates. JSON text carries them (as `\ud800`
   * escapes); UTF-8 based formats (protobuf, SQLite text) cannot, so codecs
   * of those formats leave this off.
   */
  loneSurrogates?: boolean;
}

export interface CommonOptions extends TextOptions {
  /** At most this many messages (default 8). */
  maxMessages?: number;
  /** At most this many blocks per message (default 5). */
  maxBlocks?: number;
}

// ---------------------------------------------------------------------------
// Text

/** NUL, controls, RTL marks, emoji sequences, quotes, backslashes: strings that break naive code. */
export const HOSTILE_STRINGS: readonly string[] = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\u001b[31mred\u001b[0m",
  "line\r\nbreak\n",
  "\t\u000b\u000c",
  '"quoted" \\ back\\slash',
  "\u202eevil\u202c",
  "\u2028\u2029",
  "👩‍👩‍👧‍👦🏳️‍🌈",
  "e\u0301 vs \u00e9",
  "\ufeffBOM",
  "</script><!--",
  "$" + "{not.a.template}",
  "__proto__",
  "constructor",
  "null",
  "日本語のテキスト",
];

const LONE_SURROGATES = ["\ud800", "x\udfffy", "\udc00\ud800"];

/** Free text: ASCII, any code point, grapheme clusters and hostile strings. */
export function textArb(options: TextOptions = {}): fc.Arbitrary<string> {
  const hostile = options.loneSurrogates
    ? [...HOSTILE_STRINGS, ...LONE_SURROGATES]
    : HOSTILE_STRINGS;
  const arbs: fc.WeightedArbitrary<string>[] = [
    { arbitrary: fc.string({ maxLength: 40 }), weight: 4 },
    { arbitrary: fc.string({ unit: "binary", maxLength: 20 }), weight: 2 },
    { arbitrary: fc.string({ unit: "grapheme", maxLength: 10 }), weight: 2 },
    { arbitrary: fc.constantFrom(...hostile), weight: 2 },
  ];
  if (options.loneSurrogates) {
    arbs.push({
      arbitrary: fc
        .array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 12 })
        .map((units) => String.fromCharCode(...units)),
      weight: 1,
    });
  }
  return fc.oneof(...arbs);
}

/** A short non-empty identifier-like word. */
const wordArb = fc.stringMatching(/^[a-z][a-z0-9_-]{0,11}$/);

/** An absolute POSIX path such as a cwd or a tool's file_path. */
export const pathArb: fc.Arbitrary<string> = fc
  .array(fc.oneof(wordArb, fc.constantFrom("src", "test", "my app", "données", ".git")), {
    minLength: 1,
    maxLength: 5,
  })
  .map((parts) => `/${parts.join("/")}`);

// ---------------------------------------------------------------------------
// Ids and timestamps

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const base62Arb = (length: number) =>
  fc
    .array(fc.integer({ min: 0, max: 61 }), { minLength: length, maxLength: length })
    .map((digits) => digits.map((d) => base62[d]).join(""));

/** Tool call ids as harnesses mint them: Anthropic, OpenAI, UUIDs, short hand-written ones. */
export const toolIdArb: fc.Arbitrary<string> = fc.oneof(
  base62Arb(24).map((s) => `toolu_${s}`),
  base62Arb(24).map((s) => `call_${s}`),
  fc.uuid(),
  fc.nat({ max: 99 }).map((n) => `t${n}`),
);

/** Session ids: UUIDs mostly, sometimes another harness's style. */
export const sessionIdArb: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.uuid(), weight: 4 },
  { arbitrary: base62Arb(16).map((s) => `sess_${s}`), weight: 1 },
  { arbitrary: fc.stringMatching(/^[0-9a-f]{8,32}$/), weight: 1 },
);

// Years 0001 to 9999, the range RFC 3339 and protobuf Timestamps allow.
const MIN_SECONDS = -62135596800;
const MAX_SECONDS = 253402300799;
// 2020 to 2030: where real sessions are.
const RECENT = [1577836800, 1924991999] as const;

/** Nanoseconds at each precision harnesses write: none, ms, µs, ns. */
export const nanosArb: fc.Arbitrary<number> = fc.oneof(
  fc.constant(0),
  fc.integer({ min: 0, max: 999 }).map((ms) => ms * 1_000_000),
  fc.integer({ min: 0, max: 999_999 }).map((us) => us * 1_000),
  fc.integer({ min: 0, max: 999_999_999 }),
);

export const epochTimeArb: fc.Arbitrary<EpochTime> = fc.record({
  seconds: fc.oneof(
    { arbitrary: fc.integer({ min: RECENT[0], max: RECENT[1] }), weight: 3 },
    { arbitrary: fc.integer({ min: MIN_SECONDS, max: MAX_SECONDS }), weight: 1 },
    { arbitrary: fc.constantFrom(MIN_SECONDS, MAX_SECONDS, 0, -1), weight: 1 },
  ),
  nanos: nanosArb,
});

/** Normalized RFC 3339 UTC timestamps with nanosecond precision. */
export const timestampArb: fc.Arbitrary<Timestamp> = epochTimeArb.map(formatTimestamp);

// ---------------------------------------------------------------------------
// JSON

/** -0 cannot survive JSON text (it prints as 0), so it is not a JSON value here. */
function withoutNegativeZero(value: Json): Json {
  if (Object.is(value, -0)) return 0;
  if (Array.isArray(value)) return value.map(withoutNegativeZero);
  if (value !== null && typeof value === "object") {
    const out: JsonObject = {};
    for (const [key, v] of Object.entries(value)) {
      Object.defineProperty(out, key, {
        value: withoutNegativeZero(v),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value;
}

/** Any JSON value, including a `__proto__` key now and then. */
export function jsonArb(maxDepth = 3): fc.Arbitrary<Json> {
  return fc.oneof(
    { arbitrary: fc.jsonValue({ maxDepth }).map((v) => withoutNegativeZero(v as Json)), weight: 9 },
    {
      arbitrary: fc.constant(
        JSON.parse('{"__proto__": {"polluted": true}, "b": [1, "2"]}') as Json,
      ),
      weight: 1,
    },
  );
}

export const jsonObjectArb: fc.Arbitrary<JsonObject> = fc
  .dictionary(fc.string({ maxLength: 12 }), jsonArb(2), { maxKeys: 5 })
  .map((o) => withoutNegativeZero(o as Json) as JsonObject);

// ---------------------------------------------------------------------------
// Tools

const uintArb = fc.oneof(fc.nat({ max: 10_000 }), fc.constant(Number.MAX_SAFE_INTEGER));

const editOpArb = fc.record(
  { old_string: textArb(), new_string: textArb(), replace_all: fc.boolean() },
  { requiredKeys: ["old_string", "new_string"] },
);

/** Inputs that fit each typed tool exactly. */
const typedInputs: Record<string, fc.Arbitrary<JsonObject>> = {
  Bash: fc.record(
    {
      command: textArb(),
      workdir: pathArb,
      timeout_ms: uintArb,
      description: textArb(),
      run_in_background: fc.boolean(),
    },
    { requiredKeys: ["command"] },
  ),
  Read: fc.record(
    { file_path: pathArb, offset: uintArb, limit: uintArb },
    { requiredKeys: ["file_path"] },
  ),
  Write: fc.record({ file_path: pathArb, content: textArb() }),
  Edit: fc.record(
    { file_path: pathArb, old_string: textArb(), new_string: textArb(), replace_all: fc.boolean() },
    { requiredKeys: ["file_path", "old_string", "new_string"] },
  ),
  MultiEdit: fc.record({ file_path: pathArb, edits: fc.array(editOpArb, { maxLength: 3 }) }),
};

/** A slash command's name: `/review`, `/release`. */
const commandNameArb = wordArb.map((w) => `/${w}`);

/** A tool call as a (name, input) pair in the canonical convention. */
export const canonicalCallArb: fc.Arbitrary<{ name: string; input: Json }> = fc.oneof(
  // Typed tools with inputs that fit.
  ...Object.entries(typedInputs).map(([name, input]) =>
    input.map((i) => ({ name, input: i as Json })),
  ),
  // Slash commands, with and without args.
  fc.record({
    name: commandNameArb,
    input: fc.oneof(
      fc.constant({}),
      textArb().map((args) => ({ args })),
    ),
  }),
  // Typed names with inputs that do not fit: an extra key, a null, a wrong type.
  fc
    .tuple(
      fc.constantFrom(...Object.keys(typedInputs)),
      fc.constantFrom<[string, Json]>(
        ["unknown_key", 1],
        ["command", null],
        ["file_path", 42],
        ["offset", -1],
        ["limit", 1.5],
        ["edits", [{ old_string: "a" }]],
        ["timeout_ms", "60"],
      ),
    )
    .chain(([name, [key, value]]) =>
      (typedInputs[name] as fc.Arbitrary<JsonObject>).map((input) => ({
        name,
        input: { ...input, [key]: value } as Json,
      })),
    ),
  // Everything else: MCP tools, other harnesses' tools, odd inputs.
  fc.record({
    name: fc.oneof(
      fc.constantFrom(
        "mcp__github__search_issues",
        "Glob",
        "Grep",
        "Task",
        "TodoWrite",
        "WebFetch",
        "run_shell_command",
        "apply_patch",
        "bash",
        "Raw",
        "Command",
      ),
      fc.string({ minLength: 1, maxLength: 20 }),
    ),
    input: jsonArb(),
  }),
  // Slash commands whose input is not {args?: string}.
  fc.record({ name: commandNameArb, input: jsonArb() }),
);

/** Every tool, built through toolFromCanonical so Raw never hides a typed tool. */
export const toolArb: fc.Arbitrary<Tool> = canonicalCallArb.map(({ name, input }) =>
  toolFromCanonical(name, input),
);

// ---------------------------------------------------------------------------
// Blocks, messages, transcripts

export const usageArb: fc.Arbitrary<Usage> = fc.record(
  {
    input_tokens: uintArb,
    output_tokens: uintArb,
    cache_read_input_tokens: uintArb,
    cache_creation_input_tokens: uintArb,
  },
  { requiredKeys: ["input_tokens", "output_tokens"] },
);

export const stopReasonArb: fc.Arbitrary<StopReason> = fc.oneof(
  fc.constantFrom(...STOP_REASONS),
  fc
    .oneof(fc.constantFrom("refusal", "pause_turn", "MAX_TOKENS", "SAFETY", "end_turn"), textArb())
    .map((other) => ({ other })),
);

export const imageSourceArb: fc.Arbitrary<ImageSource> = fc.record({
  type: fc.constantFrom("base64", "url"),
  media_type: fc.constantFrom("image/png", "image/jpeg", "image/webp", "image/gif"),
  data: fc.base64String({ maxLength: 40 }),
});

const mediaType = fc.constantFrom("text/markdown", "application/pdf", "text/plain");
export const artifactSourceArb: fc.Arbitrary<ArtifactSource> = fc.oneof(
  fc.record(
    { type: fc.constant("text" as const), text: textArb(), media_type: mediaType },
    { requiredKeys: ["type", "text"] },
  ),
  fc.record(
    {
      type: fc.constant("base64" as const),
      data: fc.base64String({ maxLength: 40 }),
      media_type: mediaType,
    },
    { requiredKeys: ["type", "data"] },
  ),
  fc.record(
    { type: fc.constant("path" as const), path: pathArb, media_type: mediaType },
    { requiredKeys: ["type", "path"] },
  ),
);

export const artifactArb: fc.Arbitrary<Artifact> = fc.record({
  id: fc.oneof(fc.uuid(), wordArb),
  name: fc.oneof(fc.constantFrom("plan.md", "walkthrough.md", "report.pdf"), textArb()),
  source: artifactSourceArb,
});

/** A block; tool_result's `tool_use_id` is a placeholder that `transcriptArb` re-points. */
export function blockArb(options: TextOptions = {}): fc.Arbitrary<Block> {
  const text = textArb(options);
  return fc.oneof(
    { arbitrary: text.map((t): Block => ({ type: "text", text: t })), weight: 4 },
    {
      arbitrary: fc
        .record(
          { text, signature: base62Arb(20), encrypted: fc.base64String({ maxLength: 40 }) },
          { requiredKeys: ["text"] },
        )
        .map((b): Block => ({ type: "thinking", ...b })),
      weight: 2,
    },
    {
      arbitrary: fc
        .record({ id: toolIdArb, tool: toolArb })
        .map((b): Block => ({ type: "tool_use", ...b })),
      weight: 3,
    },
    {
      arbitrary: fc
        .record(
          {
            tool_use_id: toolIdArb,
            content: fc.oneof(text, jsonArb()),
            is_error: fc.constant(true as const),
          },
          { requiredKeys: ["tool_use_id", "content"] },
        )
        .map((b): Block => ({ type: "tool_result", ...b })),
      weight: 3,
    },
    { arbitrary: imageSourceArb.map((source): Block => ({ type: "image", source })), weight: 1 },
    {
      arbitrary: artifactArb.map((artifact): Block => ({ type: "artifact", artifact })),
      weight: 1,
    },
  );
}

export function messageArb(options: CommonOptions = {}): fc.Arbitrary<Message> {
  return fc.record(
    {
      role: fc.constantFrom(...ROLES),
      content: fc.array(blockArb(options), { maxLength: options.maxBlocks ?? 5 }),
      timestamp: timestampArb,
      model: fc.constantFrom("claude-opus-5", "gemini-3.8-flash", "gpt-6-codex"),
      stop_reason: stopReasonArb,
      usage: usageArb,
    },
    { requiredKeys: ["role", "content", "timestamp"] },
  );
}

export function metaArb(options: TextOptions = {}): fc.Arbitrary<Meta> {
  return fc.record(
    {
      id: sessionIdArb,
      timestamp: timestampArb,
      cwd: pathArb,
      git_branch: fc.oneof(fc.constantFrom("main", "feature/x", "détaché"), wordArb),
      title: textArb(options),
      cli_version: fc.constantFrom("1.2.0", "2.1.117", "0.56.0-nightly"),
      model: fc.constantFrom("claude-opus-5", "gemini-3.8-pro", "gpt-6-codex"),
    },
    { requiredKeys: ["id", "timestamp"] },
  );
}

/**
 * Make tool_use ids unique (a repeated id gets a suffix) and point most
 * tool_results at the oldest unanswered call, as a real session would.
 * `choices` decides, per result, whether it answers a call or dangles.
 */
function wire(messages: Message[], choices: readonly boolean[]): Message[] {
  const used = new Set<string>();
  const unanswered: string[] = [];
  let r = 0;
  return messages.map((m) => ({
    ...m,
    content: m.content.map((b): Block => {
      if (b.type === "tool_use") {
        let id = b.id;
        for (let n = 2; used.has(id); n++) id = `${b.id}_${n}`;
        used.add(id);
        unanswered.push(id);
        return { ...b, id };
      }
      if (b.type === "tool_result") {
        const answer = choices[r++ % Math.max(choices.length, 1)] ?? true;
        const id = answer ? unanswered.shift() : undefined;
        return id === undefined ? b : { ...b, tool_use_id: id };
      }
      return b;
    }),
  }));
}

/** A whole Common transcript. */
export function transcriptArb(options: CommonOptions = {}): fc.Arbitrary<Transcript<Common>> {
  return fc
    .record({
      meta: metaArb(options),
      body: fc.array(messageArb(options), { maxLength: options.maxMessages ?? 8 }),
      choices: fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }),
    })
    .map(({ meta, body, choices }) => ({ meta, body: wire(body, choices) }));
}
