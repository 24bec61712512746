/**
 * The compact text projection of a Common transcript (with optional
 * colors), for `view` and MCP; Markdown and HTML pages are its siblings
 * here, on the same numbering, times and tool views (model.ts, tools.ts). Messages keep
 * their session ordinals (`── #N ──`) and tool calls and results share
 * short session-local numbers, so a range shows the same numbers as the
 * whole session. Pure: returns strings.
 */

import type { Block, Message, Meta, Tool } from "../common.js";
import { stopReasonText } from "../common.js";
import { messageToJson, metaToJson } from "../common-json.js";
import { usageLabel } from "../usage/format.js";
import { base64Size, displayTime, resultText, toolNumbers } from "./model.js";
import { callView, type EditHunk } from "./tools.js";

export interface Painter {
  bold(s: string): string;
  dim(s: string): string;
  red(s: string): string;
  green(s: string): string;
  cyan(s: string): string;
  yellow(s: string): string;
  magenta(s: string): string;
  /** Session text shown unpainted (the CLI makes control characters visible here). */
  text(s: string): string;
}

const plain: Painter = {
  bold: (s) => s,
  dim: (s) => s,
  red: (s) => s,
  green: (s) => s,
  cyan: (s) => s,
  yellow: (s) => s,
  magenta: (s) => s,
  text: (s) => s,
};

export interface ViewInput {
  meta: Meta;
  /** The whole session, so numbering is stable under ranges. */
  messages: readonly Message[];
  /** 0-based [start, end) of the messages to show; default all. */
  start?: number;
  end?: number;
  /** Which harness it came from, for the header. */
  harness?: string;
  /** Where it lives, for the header. */
  path?: string;
  /** The session this one is a copy of (`continue`), for the header. */
  forkedFrom?: { harness: string; id: string };
}

/** A one-line summary of a tool call and the detail lines under it, from the call's view (tools.ts). */
function describeTool(tool: Tool): { head: string; body: string[] } {
  const view = callView(tool);
  const lines = (text: string) => text.split("\n");
  switch (view.kind) {
    case "shell":
      return {
        head: `${view.tool}${view.cwd ? ` (in ${view.cwd})` : ""}${view.background ? " [background]" : ""}`,
        body: [`$ ${view.command}`, ...(view.note ? [`# ${view.note}`] : [])],
      };
    case "read":
      return {
        head: `${view.tool} ${view.path}${view.lines ? ` (lines ${view.lines})` : ""}`,
        body: [],
      };
    case "write":
      return { head: `${view.tool} ${view.path}`, body: lines(view.content) };
    case "edit": {
      const n = view.hunks.length;
      const count = view.tool === "MultiEdit" ? ` (${n} edit${n === 1 ? "" : "s"})` : "";
      const diff = (h: EditHunk) => [
        ...lines(h.old).map((l) => `- ${l}`),
        ...lines(h.new).map((l) => `+ ${l}`),
      ];
      return {
        head: `${view.tool} ${view.path}${count}${view.all ? " (all occurrences)" : ""}`,
        body:
          view.tool === "MultiEdit"
            ? view.hunks.flatMap((h, i) => [`@@ edit ${i + 1}`, ...diff(h)])
            : view.hunks.flatMap(diff),
      };
    }
    case "patch":
      return { head: view.tool, body: lines(view.patch) };
    case "list":
      return { head: `${view.tool} ${view.path}`, body: [] };
    case "search":
      return { head: `${view.tool} ${view.query}${view.path ? ` in ${view.path}` : ""}`, body: [] };
    case "command":
      return { head: `${view.command}${view.args ? ` ${view.args}` : ""}`, body: [] };
    case "raw": {
      const compact = JSON.stringify(view.input);
      return compact.length <= 100
        ? { head: `${view.tool} ${compact}`, body: [] }
        : { head: view.tool, body: JSON.stringify(view.input, null, 2).split("\n") };
    }
    default:
      return view satisfies never;
  }
}

function metaLines(input: ViewInput): [string, string][] {
  const { meta } = input;
  const rows: [string, string][] = [];
  rows.push(["id", input.harness ? `${meta.id}  (${input.harness})` : meta.id]);
  rows.push(["started", `${displayTime(meta.timestamp)} UTC`]);
  if (meta.cwd) rows.push(["cwd", meta.cwd]);
  if (meta.git_branch) rows.push(["branch", meta.git_branch]);
  if (meta.model) rows.push(["model", meta.model]);
  if (meta.cli_version) rows.push(["version", meta.cli_version]);
  if (input.path) rows.push(["file", input.path]);
  if (input.forkedFrom)
    rows.push(["forked", `from ${input.forkedFrom.id}  (${input.forkedFrom.harness})`]);
  rows.push(["messages", String(input.messages.length)]);
  return rows;
}

/** A message's usage: one label for every format (usage/format.ts). */
const usageText = usageLabel;

function messageHeader(m: Message): string[] {
  const parts: string[] = [m.role];
  if (m.model) parts.push(m.model);
  parts.push(displayTime(m.timestamp));
  if (m.usage) parts.push(usageText(m.usage));
  if (m.stop_reason && m.stop_reason !== "end_turn" && m.stop_reason !== "tool_use") {
    parts.push(`stopped: ${stopReasonText(m.stop_reason)}`);
  }
  return parts;
}

function indent(lines: readonly string[], by = "  "): string[] {
  return lines.map((l) => (l === "" ? "" : by + l));
}

/** The compact text projection. */
export function renderText(input: ViewInput, paint: Painter = plain): string {
  return joinParts(textParts(input, paint), input);
}

/**
 * A projection cut into a head and one piece per message, so that a caller
 * can page through a huge session without rendering all of it at once:
 * `head + message(start) + … + message(end - 1) + tail` is exactly what the
 * whole-session renderer returns.
 */
export interface ViewParts {
  head: string;
  /** The piece for message `i` (0-based, within the input's [start, end)). */
  message(i: number): string;
  tail: string;
}

/**
 * The compact text projection as a stream of pieces (the head, then one per
 * message): joined, exactly `renderText`'s text, never made as one string.
 */
export function* renderTextChunks(input: ViewInput, paint: Painter = plain): Generator<string> {
  const parts = textParts(input, paint);
  yield parts.head;
  for (let i = input.start ?? 0; i < (input.end ?? input.messages.length); i++) {
    yield parts.message(i);
  }
  yield parts.tail;
}

function joinParts(parts: ViewParts, input: ViewInput): string {
  const out = [parts.head];
  for (let i = input.start ?? 0; i < (input.end ?? input.messages.length); i++) {
    out.push(parts.message(i));
  }
  out.push(parts.tail);
  return out.join("");
}

export function textParts(input: ViewInput, paint: Painter = plain): ViewParts {
  const numbers = toolNumbers(input.messages);
  const head = [paint.bold(input.meta.title ?? "(untitled session)")];
  for (const [k, v] of metaLines(input)) head.push(`  ${paint.dim(k.padEnd(8))} ${paint.text(v)}`);
  return {
    head: `${head.join("\n")}\n`,
    message(i) {
      const m = input.messages[i];
      if (!m) return "";
      const [role, ...rest] = messageHeader(m);
      const who = role === "user" ? paint.green(role) : paint.cyan(role ?? "");
      const out = [
        `${paint.dim(`── #${i + 1} ──`)} ${who}${paint.dim(rest.map((p) => ` · ${p}`).join(""))}`,
      ];
      for (const block of m.content) out.push(...blockText(block, numbers, paint));
      return `\n${out.join("\n")}\n`;
    },
    tail: "",
  };
}

function blockText(block: Block, numbers: Map<string, number>, paint: Painter): string[] {
  switch (block.type) {
    case "text":
      return paint.text(block.text).split("\n");
    case "thinking": {
      const trimmed = block.text.replace(/\s+$/, "");
      const lines = trimmed === "" ? [] : indent(trimmed.split("\n"), "  ");
      const note = block.text === "" && block.encrypted ? " (encrypted)" : "";
      return [paint.magenta(`[thinking${note}]`), ...lines.map((l) => paint.dim(l))];
    }
    case "tool_use": {
      const n = numbers.get(block.id) ?? 0;
      const { head, body } = describeTool(block.tool);
      return [paint.yellow(`→ [${n}] ${head}`), ...indent(body.map(paint.text))];
    }
    case "tool_result": {
      const n = numbers.get(block.tool_use_id);
      const label =
        n === undefined ? `← [?] (call ${block.tool_use_id} not in this session)` : `← [${n}]`;
      const head = block.is_error ? paint.red(`${label} error`) : paint.yellow(label);
      // Edge blank lines are noise; everything else is shown in full.
      const text = resultText(block);
      return [head, ...indent(text === "" ? ["(no output)"] : paint.text(text).split("\n"))];
    }
    case "image":
      return [paint.dim(`[image: ${block.source.media_type}, ${base64Size(block.source.data)}]`)];
    case "artifact": {
      const src = block.artifact.source;
      const where = src.type === "path" ? ` ${src.path}` : "";
      return [
        paint.dim(`[artifact: ${block.artifact.name}${where}]`),
        ...(src.type === "text" ? indent(paint.text(src.text).split("\n")) : []),
      ];
    }
    default:
      return block satisfies never;
  }
}

/**
 * Common JSON of the selected messages, as `renderCommon` prints it, in
 * pieces: the head holds the meta, each piece one message.
 */
export function commonJsonParts(input: ViewInput): ViewParts {
  const start = input.start ?? 0;
  const end = input.end ?? input.messages.length;
  const indent = (text: string, by: string) => text.replace(/\n/g, `\n${by}`);
  const meta = indent(JSON.stringify(metaToJson(input.meta), null, 2), "  ");
  if (start >= end) {
    return { head: `{\n  "meta": ${meta},\n  "messages": []\n}\n`, message: () => "", tail: "" };
  }
  return {
    head: `{\n  "meta": ${meta},\n  "messages": [\n`,
    message(i) {
      const m = input.messages[i];
      if (!m) return "";
      const json = JSON.stringify(messageToJson(m), null, 2);
      return `    ${indent(json, "    ")}${i < end - 1 ? "," : ""}\n`;
    },
    tail: "  ]\n}\n",
  };
}
