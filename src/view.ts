/**
 * Projections of a Common transcript for people: compact text (with
 * optional colors), Markdown and a self-contained HTML page. Messages keep
 * their session ordinals (`── #N ──`) and tool calls and results share
 * short session-local numbers, so a range shows the same numbers as the
 * whole session. Pure: returns strings.
 */

import type { Block, Json, Message, Meta, Tool, Usage } from "./common.js";
import { isJsonObject, stopReasonText, toolDisplayName, toolToCanonical } from "./common.js";

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

/** Session-local numbers for tool calls, in order of appearance. */
export function toolNumbers(messages: readonly Message[]): Map<string, number> {
  const numbers = new Map<string, number>();
  for (const m of messages) {
    for (const b of m.content) {
      if (b.type === "tool_use" && !numbers.has(b.id)) numbers.set(b.id, numbers.size + 1);
    }
  }
  return numbers;
}

/** `2026-08-10 12:00:00` (UTC), for headers. */
export function displayTime(ts: string): string {
  return ts.replace("T", " ").replace(/(\.\d+)?Z$/, "");
}

function imageSize(data: string): string {
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  const bytes = Math.max(0, Math.floor((data.length * 3) / 4) - padding);
  return bytes >= 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${bytes} bytes`;
}

export function jsonText(value: Json): string {
  return typeof value === "string" ? value : JSON.stringify(value, null, 2);
}

/** A one-line summary of a tool call and the full detail lines under it. */
export function describeTool(tool: Tool): { head: string; body: string[] } {
  switch (tool.name) {
    case "Bash":
      return {
        head: `Bash${tool.workdir ? ` (in ${tool.workdir})` : ""}${tool.run_in_background ? " [background]" : ""}`,
        body: [`$ ${tool.command}`, ...(tool.description ? [`# ${tool.description}`] : [])],
      };
    case "Read": {
      const lines =
        tool.offset !== undefined || tool.limit !== undefined
          ? ` (lines ${tool.offset ?? 1}${tool.limit !== undefined ? `-${(tool.offset ?? 1) + tool.limit - 1}` : "-"})`
          : "";
      return { head: `Read ${tool.file_path}${lines}`, body: [] };
    }
    case "Write":
      return { head: `Write ${tool.file_path}`, body: tool.content.split("\n") };
    case "Edit":
      return {
        head: `Edit ${tool.file_path}${tool.replace_all ? " (all occurrences)" : ""}`,
        body: [
          ...tool.old_string.split("\n").map((l) => `- ${l}`),
          ...tool.new_string.split("\n").map((l) => `+ ${l}`),
        ],
      };
    case "MultiEdit":
      return {
        head: `MultiEdit ${tool.file_path} (${tool.edits.length} edit${tool.edits.length === 1 ? "" : "s"})`,
        body: tool.edits.flatMap((e, i) => [
          `@@ edit ${i + 1}${e.replace_all ? " (all occurrences)" : ""}`,
          ...e.old_string.split("\n").map((l) => `- ${l}`),
          ...e.new_string.split("\n").map((l) => `+ ${l}`),
        ]),
      };
    case "Command":
      return { head: `${tool.command}${tool.args ? ` ${tool.args}` : ""}`, body: [] };
    case "Raw": {
      const input = toolToCanonical(tool).input;
      // Shell tools of every harness (agy run_command, Codex exec_command, …)
      // read best as the command line, whatever else rides along.
      const key = isJsonObject(input)
        ? ["CommandLine", "command", "cmd"].find((k) => typeof input[k] === "string")
        : undefined;
      if (key !== undefined && isJsonObject(input)) {
        const { [key]: command, ...rest } = input;
        const extra = Object.keys(rest).length > 0 ? [`# ${JSON.stringify(rest)}`] : [];
        return { head: tool.tool_name, body: [`$ ${command as string}`, ...extra] };
      }
      const compact = JSON.stringify(input);
      return compact.length <= 100
        ? { head: `${tool.tool_name} ${compact}`, body: [] }
        : { head: tool.tool_name, body: JSON.stringify(input, null, 2).split("\n") };
    }
    default:
      return tool satisfies never;
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

/**
 * `13012 in (13000 cached) / 5 out`. Common's input_tokens leave out cache
 * reads and writes (Anthropic's convention); the prompt a model read is all three.
 */
export function usageText(u: Usage): string {
  const cached = (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0);
  const input = u.input_tokens + cached;
  return `${input} in${cached > 0 ? ` (${cached} cached)` : ""} / ${u.output_tokens} out`;
}

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
  const numbers = toolNumbers(input.messages);
  const out: string[] = [];
  out.push(paint.bold(input.meta.title ?? "(untitled session)"));
  for (const [k, v] of metaLines(input)) out.push(`  ${paint.dim(k.padEnd(8))} ${paint.text(v)}`);
  const start = input.start ?? 0;
  const end = input.end ?? input.messages.length;
  for (let i = start; i < end; i++) {
    const m = input.messages[i];
    if (!m) break;
    out.push("");
    const [role, ...rest] = messageHeader(m);
    const who = role === "user" ? paint.green(role) : paint.cyan(role ?? "");
    out.push(
      `${paint.dim(`── #${i + 1} ──`)} ${who}${paint.dim(rest.map((p) => ` · ${p}`).join(""))}`,
    );
    for (const block of m.content) out.push(...blockText(block, numbers, paint));
  }
  return `${out.join("\n")}\n`;
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
      // Trailing blank lines are noise; everything else is shown in full.
      const text = jsonText(block.content)
        .replace(/^(?:[ \t\r]*\n)+/, "")
        .replace(/\s+$/, "");
      return [head, ...indent(text === "" ? ["(no output)"] : paint.text(text).split("\n"))];
    }
    case "image":
      return [paint.dim(`[image: ${block.source.media_type}, ${imageSize(block.source.data)}]`)];
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

/** A code fence longer than any backtick run inside `text`. */
function fence(text: string, lang = ""): string[] {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((s) => s.length));
  const f = "`".repeat(longest + 1);
  return [`${f}${lang}`, ...text.split("\n"), f];
}

/** The Markdown projection. */
export function renderMarkdown(input: ViewInput): string {
  const numbers = toolNumbers(input.messages);
  const out: string[] = [`# ${escapeMarkdown(input.meta.title ?? "Untitled session")}`, ""];
  for (const [k, v] of metaLines(input)) out.push(`- **${k}**: ${escapeMarkdown(v)}`);
  const start = input.start ?? 0;
  const end = input.end ?? input.messages.length;
  for (let i = start; i < end; i++) {
    const m = input.messages[i];
    if (!m) break;
    out.push("", `## #${i + 1} · ${messageHeader(m).map(escapeMarkdown).join(" · ")}`, "");
    for (const block of m.content) {
      out.push(...blockMarkdown(block, numbers), "");
    }
  }
  return `${out
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trimEnd()}\n`;
}

function escapeMarkdown(s: string): string {
  return s.replace(/([\\`*_[\]<>#|])/g, "\\$1");
}

function blockMarkdown(block: Block, numbers: Map<string, number>): string[] {
  switch (block.type) {
    case "text":
      return [block.text];
    case "thinking":
      return block.text === ""
        ? ["*[thinking: encrypted]*"]
        : [
            "<details><summary>thinking</summary>",
            "",
            ...fence(block.text, "text"),
            "",
            "</details>",
          ];
    case "tool_use": {
      const { head, body } = describeTool(block.tool);
      const lang =
        block.tool.name === "Bash" ? "sh" : block.tool.name.endsWith("Edit") ? "diff" : "";
      return [
        `**→ [${numbers.get(block.id) ?? 0}]** \`${toolDisplayName(block.tool)}\` ${escapeMarkdown(head)}`,
        ...(body.length ? ["", ...fence(body.join("\n"), lang)] : []),
      ];
    }
    case "tool_result": {
      const n = numbers.get(block.tool_use_id);
      const text = jsonText(block.content);
      return [
        `**← [${n ?? "?"}]**${block.is_error ? " **error**" : ""}`,
        "",
        ...fence(
          text === "" ? "(no output)" : text,
          typeof block.content === "string" ? "" : "json",
        ),
      ];
    }
    case "image":
      return [`![image](data:${block.source.media_type};base64,${block.source.data})`];
    case "artifact": {
      const src = block.artifact.source;
      return src.type === "text"
        ? [`**artifact** ${escapeMarkdown(block.artifact.name)}`, "", ...fence(src.text)]
        : [
            `**artifact** ${escapeMarkdown(block.artifact.name)}${src.type === "path" ? ` (${src.path})` : ""}`,
          ];
    }
    default:
      return block satisfies never;
  }
}

function escapeHtml(s: string): string {
  return s
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

/** A self-contained HTML page (no scripts, no external resources). */
export function renderHtml(input: ViewInput): string {
  const numbers = toolNumbers(input.messages);
  const title = escapeHtml(input.meta.title ?? "Untitled session");
  const rows = metaLines(input)
    .map(([k, v]) => `<tr><th>${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`)
    .join("");
  const start = input.start ?? 0;
  const end = input.end ?? input.messages.length;
  const sections: string[] = [];
  for (let i = start; i < end; i++) {
    const m = input.messages[i];
    if (!m) break;
    const blocks = m.content.map((b) => blockHtml(b, numbers)).join("\n");
    sections.push(
      `<section class="msg ${m.role}" id="m${i + 1}"><h2><a href="#m${i + 1}">#${i + 1}</a> ${messageHeader(m).map(escapeHtml).join(" · ")}</h2>\n${blocks}</section>`,
    );
  }
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
pre{background:#f6f6f6;padding:.6rem;overflow-x:auto;white-space:pre-wrap}
.msg{border-top:1px solid #ddd;padding:.5rem 0}.msg h2{font-size:1rem;color:#555}
.user h2{color:#2a7a2a}.assistant h2{color:#1f5f9f}.err{color:#b00}
details{color:#666}img{max-width:100%}th{text-align:left;padding-right:1rem;color:#666}
</style></head><body>
<h1>${title}</h1><table>${rows}</table>
${sections.join("\n")}
</body></html>
`;
}

function blockHtml(block: Block, numbers: Map<string, number>): string {
  const pre = (s: string) => `<pre>${escapeHtml(s)}</pre>`;
  switch (block.type) {
    case "text":
      return `<div class="text">${pre(block.text)}</div>`;
    case "thinking":
      return `<details><summary>thinking</summary>${block.text === "" ? "<p>(encrypted)</p>" : pre(block.text)}</details>`;
    case "tool_use": {
      const { head, body } = describeTool(block.tool);
      return `<div class="tool"><strong>→ [${numbers.get(block.id) ?? 0}]</strong> ${escapeHtml(head)}${body.length ? pre(body.join("\n")) : ""}</div>`;
    }
    case "tool_result": {
      const n = numbers.get(block.tool_use_id);
      const text = jsonText(block.content);
      return `<div class="result${block.is_error ? " err" : ""}"><strong>← [${n ?? "?"}]${block.is_error ? " error" : ""}</strong>${pre(text === "" ? "(no output)" : text)}</div>`;
    }
    case "image":
      return `<img alt="image" src="data:${escapeHtml(block.source.media_type)};base64,${escapeHtml(block.source.data)}">`;
    case "artifact": {
      const src = block.artifact.source;
      return `<div class="artifact"><strong>artifact</strong> ${escapeHtml(block.artifact.name)}${src.type === "text" ? pre(src.text) : src.type === "path" ? ` ${escapeHtml(src.path)}` : ""}</div>`;
    }
    default:
      return block satisfies never;
  }
}
