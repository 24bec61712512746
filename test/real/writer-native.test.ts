/**
 * Writer vs native, field by field: each real CLI writes its own two-turn
 * session (support/sources.ts), txcript copies that conversation into the
 * same harness with its writer (`continue --with <same> --out DIR`), and the
 * two are compared by structure: which record kinds occur, each kind's key
 * paths (three levels deep), the shapes of its ids, and which kind follows
 * which. Every difference is listed; only the documented ones below are
 * allowed (docs/conversions.md, "Writer vs native"). Values are not
 * compared: the conversation is the same, its bookkeeping is not.
 */

import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockServer, startMockServer } from "./server/index.js";
import { type CliId, cliVersion, knownHarnesses, txcript } from "./support/cli.js";
import { CLINE_VERSION, makeClineSource } from "./support/cline.js";
import { COPILOT_VERSION, makeCopilotSource } from "./support/copilot.js";
import { DROID_VERSION, makeDroidSource } from "./support/droid.js";
import { makeSource } from "./support/sources.js";

/** The CLIs of support/sources.ts, and Copilot CLI, Cline and Droid (their own support files). */
type Target = CliId | "copilot" | "cline" | "droid";
const TARGETS: Target[] = [
  "claude_code",
  "codex",
  "gemini_cli",
  "opencode",
  "qwen_code",
  "pi",
  "copilot",
  "cline",
  "droid",
  "kilo",
];
const known = await knownHarnesses();

type Rec = Record<string, unknown>;
const isObj = (v: unknown): v is Rec => typeof v === "object" && v !== null && !Array.isArray(v);

/** Key paths to `depth` levels; arrays as `[]` (their elements' keys merged). */
function paths(v: unknown, depth: number, prefix = ""): string[] {
  if (depth === 0) return [];
  if (Array.isArray(v)) return v.flatMap((x) => paths(x, depth, `${prefix}[]`));
  if (!isObj(v)) return [];
  return Object.entries(v).flatMap(([k, x]) => {
    const p = prefix === "" ? k : `${prefix}.${k}`;
    return [p, ...paths(x, depth - 1, p)];
  });
}

const ID_KEY =
  /(^|\.)(id|uuid|parentUuid|sessionId|session_id|call_id|callId|tool_use_id|messageID|sessionID|parentID)$/;
/** Copilot CLI's events chain by `parentId` and name calls and messages in `data`. */
const COPILOT_ID_KEY = /(^|\.)(id|parentId|sessionId|messageId|toolCallId|interactionId)$/;

/**
 * An id's shape: a UUID, a long hex or alphanumeric run as a class, digits as 9, around its
 * literal prefix; an id of exactly 8 hex digits (pi's entry ids) as one class.
 */
function shape(s: string): string {
  if (/^[0-9a-f]{8}$/.test(s)) return "<hex8>";
  return s
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, "<uuid>")
    .replace(/[0-9a-f]{12,}/g, "<hex>")
    .replace(/[A-Za-z0-9]{12,}/g, "<alnum>")
    .replace(/[0-9]+/g, "9");
}

/** Every (path, value) of id keys, to `depth` levels. */
function ids(v: unknown, depth: number, key: RegExp, prefix = ""): [string, string][] {
  if (depth === 0) return [];
  if (Array.isArray(v)) return v.flatMap((x) => ids(x, depth, key, `${prefix}[]`));
  if (!isObj(v)) return [];
  return Object.entries(v).flatMap(([k, x]) => {
    const p = prefix === "" ? k : `${prefix}.${k}`;
    const own: [string, string][] = typeof x === "string" && key.test(p) ? [[p, shape(x)]] : [];
    return [...own, ...ids(x, depth - 1, key, p)];
  });
}

interface Item {
  kind: string;
  value: unknown;
}

function blockTypes(content: unknown): string {
  if (typeof content === "string") return "string";
  if (!Array.isArray(content)) return "-";
  return [...new Set(content.map((b) => (isObj(b) ? String(b.type) : "?")))].sort().join(",");
}

/** The kind of one JSONL record, per harness. */
function kindOf(cli: Exclude<Target, "cline">, r: Rec): string {
  switch (cli) {
    case "claude_code": {
      const m = isObj(r.message) ? r.message : undefined;
      return m ? `${r.type}:${blockTypes(m.content)}` : String(r.type);
    }
    case "codex": {
      const p = isObj(r.payload) ? r.payload : {};
      return `${r.type}/${p.type ?? "-"}`;
    }
    case "gemini_cli":
      return typeof r.type === "string" ? r.type : Object.keys(r).sort().join("+");
    case "qwen_code":
      return `${r.type}${typeof r.subtype === "string" ? `/${r.subtype}` : ""}`;
    case "opencode":
    case "kilo":
      return "row";
    case "pi": {
      const m = isObj(r.message) ? r.message : undefined;
      return m ? `${r.type}/${m.role}` : String(r.type);
    }
    case "copilot":
      return String(r.type);
    case "droid": {
      const m = isObj(r.message) ? r.message : undefined;
      return m ? `${r.type}/${m.role}` : String(r.type);
    }
    default:
      return cli satisfies never;
  }
}

function jsonlItems(cli: Exclude<Target, "cline">, path: string): Item[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Rec)
    .map((r) => ({ kind: kindOf(cli, r), value: r }));
}

/** Copilot CLI's events, then its `workspace.yaml` (flat `key: value` lines) as one item. */
function copilotItems(events: string): Item[] {
  const workspace: Rec = {};
  for (const line of readFileSync(join(dirname(events), "workspace.yaml"), "utf8").split("\n")) {
    const m = /^([A-Za-z_]+):\s*(.*)$/.exec(line);
    if (m?.[1] !== undefined) workspace[m[1]] = (m[2] ?? "").replace(/^"(.*)"$/, "$1");
  }
  return [...jsonlItems("copilot", events), { kind: "workspace", value: workspace }];
}

/** Droid's session lines, then its settings file beside them (when there is one) as one item. */
function droidItems(path: string): Item[] {
  const at = path.replace(/\.jsonl$/, ".settings.json");
  const settings: Item[] = existsSync(at)
    ? [{ kind: "settings", value: JSON.parse(readFileSync(at, "utf8")) as Rec }]
    : [];
  return [...jsonlItems("droid", path), ...settings];
}

/** Cline's messages file (its envelope, then each message) and its manifest beside it. */
function clineItems(messages: string): Item[] {
  const file = JSON.parse(readFileSync(messages, "utf8")) as Rec;
  const { messages: list, ...envelope } = file;
  const items: Item[] = [{ kind: "messages-file", value: envelope }];
  for (const m of Array.isArray(list) ? list : [])
    if (isObj(m)) items.push({ kind: `${m.role}:${blockTypes(m.content)}`, value: m });
  const manifest = messages.replace(/\.messages\.json$/, ".json");
  items.push({ kind: "manifest", value: JSON.parse(readFileSync(manifest, "utf8")) as Rec });
  return items;
}

/** OpenCode's rows of one session: the session row, its messages and parts (columns and `data`). */
function openCodeItems(db: string, id: string): Item[] {
  const d = new Database(db, { readonly: true });
  try {
    const nonNull = (row: Rec) =>
      Object.fromEntries(
        Object.entries(row)
          .map(([k, v]) => [k, k === "data" && typeof v === "string" ? JSON.parse(v) : v])
          .filter(([, v]) => v !== null),
      );
    const session = d.prepare("SELECT * FROM session WHERE id = ?").all(id) as Rec[];
    const messages = d
      .prepare("SELECT * FROM message WHERE session_id = ? ORDER BY time_created, id")
      .all(id) as Rec[];
    const items: Item[] = session.map((r) => ({ kind: "session", value: nonNull(r) }));
    for (const m of messages) {
      const row = nonNull(m);
      const data = isObj(row.data) ? row.data : {};
      items.push({ kind: `message/${data.role}`, value: row });
      const parts = d
        .prepare("SELECT * FROM part WHERE message_id = ? ORDER BY id")
        .all(String(m.id)) as Rec[];
      for (const p of parts) {
        const prow = nonNull(p);
        const pdata = isObj(prow.data) ? prow.data : {};
        const state = isObj(pdata.state) ? `/${pdata.state.status}` : "";
        items.push({ kind: `part/${pdata.type}${state}`, value: prow });
      }
    }
    return items;
  } finally {
    d.close();
  }
}

/** Every structural difference between the native items and the copy's. */
function differences(native: Item[], copy: Item[], idKey: RegExp): string[] {
  const out: string[] = [];
  const group = (items: Item[]) => {
    const m = new Map<string, { keys: Set<string>; ids: Map<string, Set<string>> }>();
    for (const { kind, value } of items) {
      const g = m.get(kind) ?? { keys: new Set(), ids: new Map() };
      for (const p of paths(value, 3)) g.keys.add(p);
      for (const [p, s] of ids(value, 4, idKey)) {
        const set = g.ids.get(p) ?? new Set();
        set.add(s);
        g.ids.set(p, set);
      }
      m.set(kind, g);
    }
    return m;
  };
  const n = group(native);
  const c = group(copy);
  for (const k of n.keys()) if (!c.has(k)) out.push(`kind ${k}: only native`);
  for (const k of c.keys()) if (!n.has(k)) out.push(`kind ${k}: only copy`);
  for (const [k, ng] of n) {
    const cg = c.get(k);
    if (!cg) continue;
    for (const p of ng.keys) if (!cg.keys.has(p)) out.push(`kind ${k}: copy lacks ${p}`);
    for (const p of cg.keys) if (!ng.keys.has(p)) out.push(`kind ${k}: copy adds ${p}`);
    for (const [p, shapes] of cg.ids) {
      const ns = ng.ids.get(p);
      if (!ns) continue;
      for (const s of shapes)
        if (!ns.has(s)) out.push(`kind ${k}: id ${p} shaped ${s}, native ${[...ns].join(" | ")}`);
    }
  }
  // Order: which kind follows which, among the kinds both sides have.
  const pairs = (items: Item[]) => {
    const shared = items.filter((i) => n.has(i.kind) && c.has(i.kind));
    const s = new Set<string>();
    for (let i = 1; i < shared.length; i++) s.add(`${shared[i - 1]?.kind} -> ${shared[i]?.kind}`);
    return s;
  };
  const np = pairs(native);
  for (const p of pairs(copy)) if (!np.has(p)) out.push(`order ${p}: only copy`);
  return out.sort();
}

/**
 * The documented differences (docs/conversions.md, "Writer vs native"):
 * each pattern names what txcript's copy does not carry, or carries in its
 * own way, and why.
 */
/** Token counts: a copy carries none (they were spent, and are counted, in the source). */
const USAGE =
  /copy lacks (message\.usage|tokens|usageMetadata|data\.tokens\.total|payload\.info|payload\.rate_limits)/;
const OPENCODE_ALLOWED = [
  USAGE,
  // Step bookkeeping parts (O1) are not written.
  /^kind part\/step-(start|finish): only native$/,
  // Per-user-message model and summary diffs, session model, permissions and diff summary (O1, O4).
  /copy lacks (data\.model|data\.summary|model$|permission$|summary_(additions|deletions|files)$)/,
  // Ids are OpenCode's shape (a time-ordered prefix and random tail); the tail's letters differ.
  /id (id|session_id|data\.parentID|message_id|data\.sessionID|data\.messageID) shaped /,
];
const ALLOWED: Record<Target, RegExp[]> = {
  claude_code: [
    USAGE,
    // Bookkeeping lines about the CLI's own runs (C1): no conversation in them.
    /^kind (api-request[-a-z:]*|atis-latch|attachment|cost-state|mode|queue-operation|tools-used|last-prompt|file-history-snapshot|system[:a-z_-]*): only native$/,
    // One line per message with all its blocks; Claude Code writes one line per block (C5) and reads both.
    /^kind assistant:[a-z_,]+: only (copy|native)$/,
    // …so the one-block lines between a prompt and its results are absent in the copy's order.
    /^order (assistant:text -> user:string|user:string -> user:tool_result): only copy$/,
    // The title the copy carries (c: the source's title or first prompt).
    /^kind custom-title: only copy$/,
    // Envelope and run fields Common does not hold (C2): effort, permissions, prompt ids, tool display results.
    /copy lacks (apiBlockIndex|effort|entrypoint|madeBy|message\.stop_details|perTurnEffort|promptCacheRequested|requestRef|requestedModel|toolInputStreamMs|permissionMode|promptId|promptSource|turnOrigin|turnPosition|permissionDecision|sandboxed|sourceToolAssistantUUID|toolUseResult|requestId|slug|gitBranch)/,
    // message.id comes from the model API (here the mock's msg_<n>); a copy's is derived.
    /id message\.id shaped msg_/,
  ],
  codex: [
    USAGE,
    // Run bookkeeping Codex writes about itself (X1, X2, X6, X7): world state, settings, usage records.
    /^kind (event_msg\/(item_completed|thread_settings_applied)|token_usage_record\/-|world_state\/-): only native$/,
    // The display events txcript writes beside each item so Codex's UI shows the copy.
    /^kind event_msg\/(agent_message|agent_reasoning|exec_command_end|user_message): only copy$/,
    // Per-item metadata, sequence numbers, turn ids and timings of a live run; session-level run settings.
    /copy lacks (ordinal|metadata|payload\.(id|internal_chat_message_metadata_passthrough|status|content\[\]\.annotations|content|completed_at|duration_ms|root_turn_id|started_at|time_to_first_token_ms|collaboration_mode_kind|turn_attribution|account_scoped|base_instructions|context_window|history_mode|runtime_workspace_roots|session_id|thread_source|approvals_reviewer|collaboration_mode|comp_hash|disabled_plugin_ids|multi_agent_version|permission_profile|realtime_active))/,
    /copy adds payload\.status/,
    // A live run writes reasoning, a token count and a turn_context per model request, between
    // an output and the next call; the copy writes one turn_context per user turn and its items
    // in Common's order (x-list: usage and reasoning per response are not kept).
    /^order (event_msg\/token_count -> response_item\/(custom_tool_call|function_call)_output|response_item\/(custom_tool_call|function_call) -> event_msg\/token_count|response_item\/(custom_tool_call|function_call)_output -> response_item\/(custom_tool_call|function_call|message)|turn_context\/- -> response_item\/(function_call|reasoning)): only copy$/,
  ],
  gemini_cli: [
    USAGE,
    // The legacy record shape every loader reads: results inside toolCalls, not also as user records (G5).
    /copy lacks content\[\]\.functionResponse/,
    /copy lacks \$set\.(messages|sessionId)/,
    // Display fields of a tool call (G2).
    /copy lacks toolCalls\[\]\.(description|displayName|renderOutputAsMarkdown|resultDisplay)/,
    // The metadata line carries the copy's title as `summary`.
    /^kind kind\+lastUpdated\+projectHash\+sessionId\+startTime(\+summary)?: only (copy|native)$/,
    // The `<session_context>` user record before the first prompt, and a new `gemini` record
    // for what follows a call (g2), make user -> user and gemini -> gemini runs.
    /^order (user -> user|gemini -> gemini|user -> gemini): only copy$/,
  ],
  opencode: OPENCODE_ALLOWED,
  // Kilo writes OpenCode's rows (docs/formats/kilo.md): the same differences.
  kilo: OPENCODE_ALLOWED,
  qwen_code: [
    USAGE,
    // System bookkeeping records (Q: telemetry, attribution) are not written; the title is.
    /^kind system\/(attribution_snapshot|ui_telemetry|slash_command|chat_compression): only native$/,
    /^kind system\/custom_title: only copy$/,
    // Provenance, CLI version, context window, and the result's display and status detail.
    /copy lacks (provenance|version|contextWindowSize|toolCallResult\.(error|errorType|executionStatus|resultDisplay))/,
  ],
  pi: [
    USAGE,
    // The settings records pi writes when a run starts (its model and thinking level): no conversation.
    /^kind (model_change|thinking_level_change): only native$/,
    // The API's response id (here the mock's), and a tool's display details (an edit's diff).
    /copy lacks message\.(responseId|details)/,
  ],
  copilot: [
    // Token counts (session.usage_record) are not carried, as for every harness.
    /^kind session\.usage_record: only native$/,
    // Run bookkeeping (H1): the system prompt, turn and tool start events, the resume and shutdown of each run.
    /^kind (system\.message|assistant\.turn_(start|end)|tool\.execution_start|session\.(resume|shutdown)): only native$/,
    // Per-run fields Common does not hold: turn, interaction and API call ids, provider reasoning
    // blocks, tool titles and telemetry, file edits, the prompt as sent, delivery and CLI state.
    /copy lacks data\.(apiCallId|interactionId|originatingMessageId|reasoningBlocks|rte|turnId|toolRequests\[\]\.(intentionSummary|toolTitle)|alreadyInUse|contextTier|remoteSteerable|fileEdits|model$|result\.detailedContent|toolTelemetry|delivery|messageId|parentAgentTaskId|supportedNativeDocumentMimeTypes|transformedContent)/,
    // The client that created the workspace.
    /^kind workspace: copy lacks client_name$/,
  ],
  droid: [
    // Turn outcomes, Droid's injected context messages (`visibility`) and run settings (D1).
    /^kind agent_turn_outcome: only native$/,
    /copy lacks message\.(reasoningEffort|interactionMode|visibility)/,
    // The host and whether the title was set by hand.
    /^kind session_start: copy lacks (hostId|isSessionTitleManuallySet)$/,
    // The settings file is written only for token totals (d1), which a copy does not carry.
    /^kind settings: only native$/,
  ],
  cline: [
    // Token counts and costs, per message and summed in the manifest.
    /copy lacks (metrics|metadata\.(aggregateUsage|aggregatedAgentsCost|totalCost|usage))/,
    // Ids: the copy's are derived UUIDs; Cline's are `msg_<8>` and `<epoch ms>_<5>` (it resumes either).
    /id (id|sessionId|origin\.sessionId|session_id) shaped <uuid>, native /,
    // The CLI version, the system prompt, team and history-origin fields (L1, l1).
    /copy lacks (origin\.version|system_prompt|team_name|metadata\.sessionHistoryOrigin)/,
    // The copy is a finished session; the native one was last opened over ACP, which sets no end.
    /^kind manifest: copy adds ended_at$/,
    // Results are text, a failure flagged `is_error`; the CLI keeps a command's entries with `success`.
    /kind user:tool_result: copy (adds content\[\]\.is_error|lacks content\[\]\.content\[\]\.(error|query|result|success))$/,
  ],
};

let server: MockServer;
const disposals: (() => void)[] = [];
beforeAll(async () => {
  server = await startMockServer();
});
afterAll(async () => {
  await server?.close();
  for (const d of disposals) d();
});

/** The CLI writes its own session; its home, and its version for the log. */
async function nativeSession(
  cli: Target,
): Promise<{ home: string; root: string; version: string }> {
  if (cli === "copilot") {
    const { box } = await makeCopilotSource(server);
    disposals.push(box.dispose);
    return { home: box.home, root: box.root, version: COPILOT_VERSION };
  }
  if (cli === "droid") {
    const { box } = await makeDroidSource(server);
    disposals.push(box.dispose);
    return { home: box.home, root: box.root, version: DROID_VERSION };
  }
  if (cli === "cline") {
    const { box } = await makeClineSource(server);
    disposals.push(box.dispose);
    return { home: box.home, root: box.root, version: CLINE_VERSION };
  }
  const src = await makeSource(cli, server);
  disposals.push(src.box.dispose);
  return { home: src.box.home, root: src.box.root, version: cliVersion(cli) };
}

function itemsOf(cli: Target, path: string, id: string): Item[] {
  if (cli === "opencode" || cli === "kilo") return openCodeItems(path, id);
  if (cli === "copilot") return copilotItems(path);
  if (cli === "cline") return clineItems(path);
  if (cli === "droid") return droidItems(path);
  return jsonlItems(cli, path);
}

describe.each(TARGETS)("writer vs native: %s", (cli) => {
  it.skipIf(!known.includes(cli))(
    "a copy txcript writes has the native session's record kinds, keys, id shapes and order, but for the documented differences",
    async () => {
      const { home, root, version } = await nativeSession(cli);
      const listed = JSON.parse(
        (await txcript(["list", "--json", "--from", cli], home)).stdout,
      ) as { sessions: { id: string; path: string }[] };
      const own = listed.sessions[0];
      expect(own, `txcript lists no ${cli} session`).toBeDefined();
      // Droid refuses --out (its only home variable moves its sign-in too): the copy goes in its store.
      const out = cli === "droid" ? [] : ["--out", join(root, "copy")];
      const cont = await txcript(
        ["continue", own?.id ?? "", "--from", cli, "--with", cli, ...out, "--no-resume"],
        home,
      );
      const copyId = cont.stdout.split("\n")[0]?.trim() ?? "";
      const copyPath = cont.stderr.split("\n")[1]?.trim() ?? "";
      const native = itemsOf(cli, own?.path ?? "", own?.id ?? "");
      const copy = itemsOf(cli, copyPath, copyId);
      expect(native.length).toBeGreaterThan(0);
      expect(copy.length).toBeGreaterThan(0);
      const diffs = differences(native, copy, cli === "copilot" ? COPILOT_ID_KEY : ID_KEY);
      console.log(
        `[test:real] writer vs native ${cli} ${version}: ${diffs.length} differences\n  ${diffs.join("\n  ")}`,
      );
      const unexplained = diffs.filter((d) => !ALLOWED[cli].some((re) => re.test(d)));
      expect(unexplained).toEqual([]);
      // Nothing but the mock server was reached (the proxy variables catch any other host).
      expect(server.unexpected).toEqual([]);
    },
    600_000,
  );
});
