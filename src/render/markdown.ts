/**
 * The Markdown page: reads well raw and renders well on GitHub. One `##`
 * heading per turn, speakers in bold, prose passed through as the Markdown
 * it already is, every tool call as what it did (a `console` fence for a
 * command, a `diff` for an edit, the file's language for reads and
 * writes) with its result right under it, and `<details>` around thinking
 * and long output. Names and paths go in code spans rather than being
 * backslash-escaped. No raw HTML from session data reaches the page: prose
 * and thinking keep their Markdown, but outside code `<` and `&` become
 * entities and links to script URLs are broken, and image data must be
 * base64 of an image type. Pure.
 */

import MarkdownItCtor, { type MarkdownIt } from "markdown-it";
import type { Block, Message, ToolResultBlock, ToolUseBlock } from "../common.js";
import { stopReasonText } from "../common.js";
import { usageLabel } from "../usage/format.js";
import {
  base64Size,
  buildModel,
  displayTime,
  findCall,
  headFacts,
  isLong,
  type Model,
  onlyResults,
  type RenderInput,
  resultText,
  turnLabel,
} from "./model.js";
import { type CallView, callView, diffText, languageOf } from "./tools.js";

/** A code fence longer than any backtick run inside `text`. */
function fence(text: string, lang = ""): string[] {
  const longest = Math.max(2, ...(text.match(/`{3,}/g) ?? []).map((s) => s.length));
  const f = "`".repeat(longest + 1);
  return [`${f}${lang}`, ...text.split("\n"), f];
}

/** An inline code span that survives any backticks in `s` (newlines become spaces). */
function code(s: string): string {
  const flat = s.replace(/\s*\n\s*/g, " ");
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((r) => r.length));
  const tick = "`".repeat(longest + 1);
  const pad = flat.startsWith("`") || flat.endsWith("`") || flat.startsWith(" ") ? " " : "";
  return `${tick}${pad}${flat}${pad}${tick}`;
}

/** Plain text in Markdown prose: only what would otherwise become markup is escaped. */
function inline(s: string): string {
  return s
    .replace(/\s*\n\s*/g, " ")
    .replace(/([\\`*[\]<>|])/g, "\\$1")
    .replace(/(^|\W)_|_(?=\W|$)/g, (m) => m.replace("_", "\\_"))
    .replace(/^([#+-]|\d+[.)])(?=\s)/, "\\$1");
}

/** Link and image targets a browser would run or load as a page. */
const SCRIPT_TARGET = /(\]\s*)\((?=\s*<?\s*(?:javascript|vbscript|data|file)\s*:)/gi;
const SCRIPT_DEFINITION =
  /^(\s{0,3})\[(?=[^\]]*\]:\s*<?\s*(?:javascript|vbscript|data|file)\s*:)/gim;

/** A stretch of prose outside code: no HTML tag, entity or script link survives. */
function safeProse(s: string): string {
  return s
    .replace(SCRIPT_TARGET, "$1\\(")
    .replace(SCRIPT_DEFINITION, "$1\\[")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;");
}

/** Inline code spans kept as they are (a renderer shows them literally), the rest made safe. */
function safeLine(line: string): string {
  let out = "";
  let at = 0;
  // A backslash-escaped backtick opens no span (CommonMark): treating it as
  // prose only escapes more. A span opens at a whole backtick run only
  // (```x` has no span: its run of three has no closing run of three).
  const span = /(?<![\\`])(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g;
  for (const m of line.matchAll(span)) {
    out += safeProse(line.slice(at, m.index)) + m[0];
    at = m.index + m[0].length;
  }
  return out + safeProse(line.slice(at));
}

/**
 * Markdown from the session (prose, thinking) made safe to render: fenced
 * code blocks and inline code spans pass unchanged, since every renderer
 * shows them as text; everywhere else raw HTML is escaped. Indented code
 * is escaped too, which shows `&lt;` there: the price of not parsing.
 */
function safeMarkdown(text: string): string {
  const kept = keptCode(text);
  // Where a renderer's block structure differs from the line scan above (a
  // fence inside a list item ends with the item; a code span cannot cross
  // into a heading), what was kept as code could be read as HTML or a
  // link: the renderer itself checks, and anything it finds escapes all.
  // The fallback keeps no fence either: one the renderer left open would
  // swallow the rest of the page and turn txcript's own fences inside out.
  // And no link either, nor a link definition another message could use.
  return isInert(kept)
    ? kept
    : safeProse(text)
        .replace(/^(\s{0,3})(`{3,}|~{3,})/gm, "$1\\$2")
        .replace(/\[/g, "\\[");
}

/** Follows a text in the check: found as the last block only when nothing the text opened runs on. */
const END_MARK = "<!-- txcript: end -->";

/** markdown-it as a permissive renderer runs it: raw HTML on, every link target accepted. */
let checker: MarkdownIt | undefined;

/** A data: URL a page may embed: base64 of an image type. */
const IMAGE_DATA = /^data:image\/[a-z0-9.+-]+;base64,[a-z0-9+/]*={0,2}$/i;

/**
 * No raw HTML, no link or image target a browser would run or load as a
 * page, and nothing left open (a fence) that would run on into the page.
 */
function isInert(md: string): boolean {
  if (!/[<:`~]/.test(md)) return true;
  if (checker === undefined) {
    checker = new MarkdownItCtor({ html: true });
    checker.validateLink = () => true;
  }
  const unsafe = (target: string) =>
    /^(?:javascript|vbscript|file):/i.test(target.trim()) ||
    (/^data:/i.test(target.trim()) && !IMAGE_DATA.test(target.trim()));
  const ok = (tokens: ReturnType<MarkdownIt["parse"]>): boolean =>
    tokens.every((t) => {
      if (t.type === "html_block" || t.type === "html_inline") return false;
      if (unsafe(String(t.attrGet("href") ?? t.attrGet("src") ?? ""))) return false;
      return t.children ? ok(t.children) : true;
    });
  // A link definition counts wherever it is used: another message may use it.
  const env: Parameters<MarkdownIt["parse"]>[1] = {};
  const tokens = checker.parse(`${md}\n\n${END_MARK}\n`, env);
  const last = tokens.pop();
  return (
    last?.type === "html_block" &&
    last.content.trim() === END_MARK &&
    ok(tokens) &&
    Object.values(env.references ?? {}).every((r) => !unsafe(String(r.href)))
  );
}

/** safeMarkdown by a line scan: fences and code spans kept, the rest made safe. */
function keptCode(text: string): string {
  const lines = text.split("\n");
  let fenceOpen: string | undefined;
  let paragraph: string[] = [];
  const out: string[] = [];
  const flush = () => {
    // Code spans may run across lines of one paragraph.
    if (paragraph.length) out.push(...safeLine(paragraph.join("\n")).split("\n"));
    paragraph = [];
  };
  for (const line of lines) {
    const f = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fenceOpen !== undefined) {
      out.push(line);
      if (
        f?.[1] &&
        f[1][0] === fenceOpen[0] &&
        f[1].length >= fenceOpen.length &&
        line.trim() === f[1]
      )
        fenceOpen = undefined;
    } else if (
      f?.[1] &&
      !(f[1][0] === "`" && line.slice(line.indexOf(f[1]) + f[1].length).includes("`"))
    ) {
      flush();
      fenceOpen = f[1];
      out.push(line);
    } else if (line.trim() === "") {
      flush();
      out.push(line);
    } else paragraph.push(line);
  }
  flush();
  // An unclosed fence runs to the end of the page in a renderer, and so
  // does its protection; close it so what follows is not swallowed either.
  if (fenceOpen !== undefined) out.push(fenceOpen);
  return out.join("\n");
}

/** Image data a page may embed: base64 of an image media type, else nothing. */
function imageMarkdown(mediaType: string, data: string): string {
  const ok = /^image\/[a-z0-9.+-]+$/i.test(mediaType) && /^[A-Za-z0-9+/]*={0,2}$/.test(data);
  if (!ok) return `*image (${inline(mediaType)}): not valid base64 image data, left out*`;
  return `![image (${mediaType}, ${base64Size(data)})](data:${mediaType};base64,${data})`;
}

function details(summary: string, body: string[], open = false): string[] {
  return [
    `<details${open ? " open" : ""}><summary>${htmlText(summary)}</summary>`,
    "",
    ...body,
    "",
    "</details>",
  ];
}

function htmlText(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function speaker(m: Message, label: string, ordinal: number): string {
  const parts = [`**${label}**`, `#${ordinal}`];
  if (m.role === "assistant" && m.model) parts.push(code(m.model));
  parts.push(displayTime(m.timestamp));
  if (m.usage) parts.push(usageLabel(m.usage));
  if (m.stop_reason && m.stop_reason !== "end_turn" && m.stop_reason !== "tool_use") {
    parts.push(`stopped: ${inline(stopReasonText(m.stop_reason))}`);
  }
  return parts.join(" · ");
}

function callHead(view: CallView, n: number, model: Model): { head: string; body: string[] } {
  const p = (s: string) => code(model.paths.path(s));
  const tag = `**[${n}] ${code(view.tool)}**`;
  switch (view.kind) {
    case "shell": {
      const where =
        view.cwd !== undefined && model.paths.path(view.cwd) !== "." ? ` in ${p(view.cwd)}` : "";
      const note = view.note !== undefined ? ` · ${inline(model.paths.text(view.note))}` : "";
      const lines = model.paths.text(view.command).split("\n");
      return {
        head: `${tag}${where}${note}`,
        body: fence([`$ ${lines[0]}`, ...lines.slice(1)].join("\n"), "console"),
      };
    }
    case "read":
      return {
        head: `${tag} ${p(view.path)}${view.lines ? ` (lines ${view.lines})` : ""}`,
        body: [],
      };
    case "write": {
      const lang = languageOf(view.path) ?? "";
      const content = model.paths.text(view.content);
      const body = fence(content, lang);
      return {
        head: `${tag} ${p(view.path)}`,
        body: isLong(content) ? details(`${content.split("\n").length} lines`, body) : body,
      };
    }
    case "edit":
      return {
        head: `${tag} ${p(view.path)}${view.all ? " (every occurrence)" : ""}`,
        body: fence(model.paths.text(diffText(view.hunks)), "diff"),
      };
    case "patch":
      return { head: tag, body: fence(model.paths.text(view.patch), "diff") };
    case "list":
      return { head: `${tag} ${p(view.path)}`, body: [] };
    case "search":
      return {
        head: `${tag} ${code(model.paths.text(view.query))}${view.path !== undefined ? ` in ${p(view.path)}` : ""}`,
        body: [],
      };
    case "command":
      return {
        head: `**[${n}]** ${code(`${view.command}${view.args ? ` ${view.args}` : ""}`)}`,
        body: [],
      };
    case "raw": {
      const summary =
        view.summary !== undefined ? ` · ${inline(model.paths.text(view.summary))}` : "";
      const compact = model.paths.text(JSON.stringify(view.input));
      const json = model.paths.text(JSON.stringify(view.input, null, 2));
      if (compact.length <= 80 && !compact.includes("\\n"))
        return { head: `${tag} ${code(compact)}${summary}`, body: [] };
      const body = fence(json, "json");
      return { head: `${tag}${summary}`, body: isLong(json) ? details("arguments", body) : body };
    }
    default:
      return view satisfies never;
  }
}

function resultLang(view: CallView | undefined, b: ToolResultBlock): string {
  if (typeof b.content !== "string") return "json";
  if (view?.kind === "read") return languageOf(view.path) ?? "text";
  return "text";
}

function resultMarkdown(
  b: ToolResultBlock,
  n: number | undefined,
  view: CallView | undefined,
  model: Model,
): string[] {
  const text = model.paths.text(resultText(b));
  const label = `${n !== undefined ? `Result of [${n}]` : `Result of an unknown call (${b.tool_use_id})`}${b.is_error ? " · error" : ""}`;
  if (text === "") return [`*${label}: no output*`];
  const body = fence(text, resultLang(view, b));
  if (isLong(text)) return details(`${label} (${text.split("\n").length} lines)`, body);
  return [`*${label}*`, "", ...body];
}

function callMarkdown(b: ToolUseBlock, model: Model): string[] {
  const n = model.numbers.get(b.id) ?? 0;
  const view = callView(b.tool);
  const { head, body } = callHead(view, n, model);
  const out = [head, ...(body.length ? ["", ...body] : [])];
  const result = model.results.get(b.id);
  if (result && model.folded.has(result)) out.push("", ...resultMarkdown(result, n, view, model));
  else out.push("", "*no result recorded*");
  return out;
}

function blockMarkdown(block: Block, model: Model): string[] {
  switch (block.type) {
    case "text":
      return [safeMarkdown(model.paths.text(block.text))];
    case "thinking":
      if (block.text.trim() === "")
        return block.encrypted || block.signature ? ["*thinking (not readable)*"] : [];
      return details("Thinking", [safeMarkdown(model.paths.text(block.text.trim()))]);
    case "tool_use":
      return callMarkdown(block, model);
    case "tool_result": {
      if (model.folded.has(block)) return [];
      const n = model.numbers.get(block.tool_use_id);
      const use = n !== undefined ? findCall(model, block.tool_use_id) : undefined;
      return resultMarkdown(block, n, use ? callView(use.tool) : undefined, model);
    }
    case "image":
      return [imageMarkdown(block.source.media_type, block.source.data)];
    case "artifact": {
      const src = block.artifact.source;
      const head = `**Artifact** ${code(block.artifact.name)}`;
      if (src.type === "text")
        return [
          head,
          "",
          ...fence(model.paths.text(src.text), languageOf(block.artifact.name) ?? ""),
        ];
      if (src.type === "path") return [`${head} at ${code(model.paths.path(src.path))}`];
      return [`${head} (${src.media_type ?? "binary"}, ${base64Size(src.data)})`];
    }
    default:
      return block satisfies never;
  }
}

/** The page's header lines: the title and the session's fields. */
function headLines(model: Model, input: RenderInput): string[] {
  const { meta } = model;
  const head: string[] = [`# ${inline(meta.title ?? "Untitled session")}`, ""];
  const rows: [string, string][] = [
    ["Session", `${code(meta.id)}${input.harness ? ` (${input.harness})` : ""}`],
  ];
  for (const [k, v, literal] of headFacts(model, input)) rows.push([k, literal ? code(v) : v]);
  for (const [k, v] of rows) head.push(`- **${k}:** ${v}`);
  return head;
}

/** Per shown message, in order, its own lines (its turn's heading first when it opens one). */
function* messageLines(model: Model): Generator<[number, string[]]> {
  for (const turn of model.turns) {
    for (let i = turn.start; i < turn.end; i++) {
      const out: string[] = [];
      if (i === turn.start)
        out.push("", `## Turn ${turn.n}: ${inline(model.paths.text(turnLabel(model, turn)))}`, "");
      const m = model.messages[i];
      if (
        m &&
        !(onlyResults(m) && m.content.every((b) => b.type === "tool_result" && model.folded.has(b)))
      ) {
        const label = m.role === "user" ? (onlyResults(m) ? "Tool results" : "User") : "Assistant";
        out.push(speaker(m, label, i + 1), "");
        for (const b of m.content) {
          const lines = blockMarkdown(b, model);
          if (lines.length > 0) out.push(...lines, "");
        }
      }
      yield [i, out];
    }
  }
}

/** The page's lines: the header, then per shown message its own (its turn's heading first when it opens one). */
function pageLines(input: RenderInput): { head: string[]; messages: Map<number, string[]> } {
  const model = buildModel(input);
  return { head: headLines(model, input), messages: new Map(messageLines(model)) };
}

const collapse = (text: string) => text.replace(/\n{3,}/g, "\n\n");

/** The Markdown page of a session (or a range of it). */
export function renderMarkdown(input: RenderInput): string {
  const { head, messages } = pageLines(input);
  const all = [...head];
  for (const lines of messages.values()) all.push(...lines);
  return `${collapse(all.join("\n")).trimEnd()}\n`;
}

/** The Markdown page in pieces, for reading it a page at a time between messages. */
export interface MarkdownPieces {
  /** The title and the session's fields. */
  head: string;
  /** Per message index shown (0-based, session-wide): its part of the page; "" when it shows nothing. */
  messages: Map<number, string>;
  /** What ends the page. */
  tail: string;
}

/**
 * renderMarkdown's page cut at message boundaries: head, then each shown
 * message's piece in order, then tail concatenate to exactly the page.
 * Pieces are separated by one blank line, which each piece carries at its
 * start; blank-line runs collapse inside a piece as they do on the page.
 */
export function markdownPieces(input: RenderInput): MarkdownPieces {
  const lines = pageLines(input);
  const strip = (text: string) => collapse(text).replace(/^\n+/, "").replace(/\n+$/, "");
  let head = strip(lines.head.join("\n"));
  const messages = new Map<number, string>();
  for (const [i, own] of lines.messages) {
    const text = strip(own.join("\n"));
    messages.set(i, text === "" ? "" : `\n\n${text}`);
  }
  // The page ends trimmed: the last pieces with anything left carry that.
  let trimmed = false;
  for (const i of [...messages.keys()].reverse()) {
    const text = (messages.get(i) ?? "").trimEnd();
    messages.set(i, text);
    if (text !== "") {
      trimmed = true;
      break;
    }
  }
  if (!trimmed) head = head.trimEnd();
  return { head, messages, tail: "\n" };
}

/**
 * The Markdown page as a stream of pieces, one message at a time: the same
 * pieces as `markdownPieces` (empty ones left out), made as they are
 * written, so a huge session's page is never one string nor one list of
 * lines. Joined, they are exactly `renderMarkdown`'s page.
 */
export function* renderMarkdownChunks(input: RenderInput): Generator<string> {
  const model = buildModel(input);
  const strip = (text: string) => collapse(text).replace(/^\n+/, "").replace(/\n+$/, "");
  // The page ends trimmed: the last piece with more than blanks is held
  // back until it is known to be the last, and blank ones after it vanish.
  let held = strip(headLines(model, input).join("\n"));
  let blanks: string[] = [];
  for (const [, own] of messageLines(model)) {
    const text = strip(own.join("\n"));
    if (text === "") continue;
    const piece = `\n\n${text}`;
    if (piece.trim() === "") {
      blanks.push(piece);
      continue;
    }
    yield held;
    yield* blanks;
    held = piece;
    blanks = [];
  }
  yield held.trimEnd();
  yield "\n";
}
