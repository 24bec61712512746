/**
 * The HTML page: one self-contained file (inline CSS, one inline script
 * allowed by hash in the page's Content-Security-Policy, no network at
 * all). A transcript is untrusted input: prose goes through markdown-it
 * with raw HTML off (its safe mode: tags are shown as text, and its link
 * validator refuses `javascript:`, `vbscript:`, `file:` and non-image
 * `data:` URLs), remote images become plain links so opening a page
 * fetches nothing, and every other string is escaped. Tool calls are shown
 * as what they did, each with its result under it and links both ways.
 * Pure.
 */

import MarkdownItCtor, { type MarkdownIt, type RendererRule } from "markdown-it";
import type { Block, Message, ToolResultBlock, ToolUseBlock } from "../common.js";
import { stopReasonText } from "../common.js";
import { shortener } from "../id-forms.js";
import { usageLabel } from "../usage/format.js";
import { CSS, SCRIPT, SCRIPT_HASH } from "./assets.js";
import { escapeHtml, highlight, knownLanguage } from "./highlight.js";
import {
  base64Size,
  buildModel,
  displayTime,
  findCall,
  headFacts,
  isLong,
  type Model,
  onlyResults,
  plural,
  type RenderInput,
  resultText,
  turnLabel,
} from "./model.js";
import { type CallView, callView, diffText, languageOf } from "./tools.js";

const INLINE_IMAGE = /^data:image\/(?:png|jpeg|gif|webp);base64,[A-Za-z0-9+/=\s]*$/;

/** The path of a `file:` URL, for a tooltip; a malformed escape is kept as written. */
function filePath(href: string): string {
  const raw = href.replace(/^file:\/\//i, "");
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

function markdownIt(breaks: boolean): MarkdownIt {
  const md = new MarkdownItCtor({
    html: false,
    linkify: true,
    breaks,
    highlight: (text, lang) => {
      const name = lang.trim().split(/\s+/)[0] ?? "";
      return name !== "" && knownLanguage(name) ? highlight(text, name) : "";
    },
  });
  const defaultImage: RendererRule =
    md.renderer.rules.image ??
    ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
  md.renderer.rules.image = (tokens, idx, options, env, self) => {
    const token = tokens[idx];
    if (!token) return "";
    const src = String(token.attrGet("src") ?? "");
    if (INLINE_IMAGE.test(src)) return defaultImage(tokens, idx, options, env, self);
    // A remote image would be fetched on open: show it as a link instead.
    const alt = self.renderInlineAsText(token.children ?? [], options, env) || src;
    return `<a href="${escapeHtml(src)}" rel="noopener noreferrer nofollow">${escapeHtml(`[image: ${alt}]`)}</a>`;
  };
  const defaultLink =
    md.renderer.rules.link_open ??
    ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
  // Agents link local files (`file:///…/calc.py`): markdown-it would print such
  // a link as raw source, so accept it and show its text, unlinked, with the path as a tooltip.
  const validate = md.validateLink.bind(md);
  md.validateLink = (url) => /^file:/i.test(url.trim()) || validate(url);
  md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
    const token = tokens[idx];
    if (!token) return "";
    const href = String(token.attrGet("href") ?? "");
    if (/^file:/i.test(href)) {
      token.attrs = [["title", filePath(href)]];
      token.attrSet("class", "file");
    } else token.attrSet("rel", "noopener noreferrer nofollow");
    return defaultLink(tokens, idx, options, env, self);
  };
  return md;
}

const assistantMd = markdownIt(false);
/** People type prompts with single line breaks that mean line breaks. */
const userMd = markdownIt(true);

/**
 * Characters of tool text a page highlights; past that, code is shown
 * plain. Highlighting is most of the rendering time (and triples the size
 * of the markup it touches), and a 20 MB session
 * would otherwise take tens of seconds to render.
 */
const HIGHLIGHT_BUDGET = 500_000;

function codeBlock(text: string, lang: string | undefined, model: Model): string {
  const use =
    lang !== undefined && knownLanguage(lang) && text.length <= model.highlightLeft
      ? lang
      : undefined;
  if (use !== undefined) model.highlightLeft -= text.length;
  const cls = use !== undefined ? ` language-${escapeHtml(use)}` : "";
  return `<pre class="code"><code class="hljs${cls}">${highlight(text, use)}</code></pre>`;
}

function collapsible(summary: string, inner: string, long: boolean, cls = ""): string {
  return `<details${cls ? ` class="${cls}"` : ""}${long ? "" : " open"}><summary>${summary}</summary>${inner}</details>`;
}

function callHeader(
  view: CallView,
  model: Model,
): { tag: string; target: string; extra: string; body: string } {
  const p = (s: string) => `<span class="target">${escapeHtml(model.paths.path(s))}</span>`;
  const t = (s: string) => escapeHtml(model.paths.text(s));
  switch (view.kind) {
    case "shell": {
      const cwd =
        view.cwd !== undefined && model.paths.path(view.cwd) !== "."
          ? `<span class="note">in</span> ${p(view.cwd)}`
          : "";
      const note = view.note !== undefined ? `<span class="note">${t(view.note)}</span>` : "";
      return {
        tag: "Shell",
        target: cwd,
        extra: note,
        body: codeBlock(`$ ${model.paths.text(view.command)}`, "bash", model),
      };
    }
    case "read":
      return {
        tag: "Read",
        target: p(view.path),
        extra: view.lines ? `<span class="note">lines ${escapeHtml(view.lines)}</span>` : "",
        body: "",
      };
    case "write": {
      const content = model.paths.text(view.content);
      const lines = content.split("\n").length;
      return {
        tag: "Write",
        target: p(view.path),
        extra: `<span class="note">${plural(lines, "line")}</span>`,
        body: collapsible(
          "content",
          codeBlock(content, languageOf(view.path), model),
          isLong(content),
        ),
      };
    }
    case "edit": {
      const diff = model.paths.text(diffText(view.hunks));
      return {
        tag: "Edit",
        target: p(view.path),
        extra: view.all
          ? `<span class="note">every occurrence</span>`
          : view.hunks.length > 1
            ? `<span class="note">${plural(view.hunks.length, "edit")}</span>`
            : "",
        body: isLong(diff)
          ? collapsible("diff", codeBlock(diff, "diff", model), true)
          : codeBlock(diff, "diff", model),
      };
    }
    case "patch": {
      const patch = model.paths.text(view.patch);
      const files = [...patch.matchAll(/^\*\*\* (?:Add|Update|Delete) File: (.+)$/gm)].map(
        (m) => m[1] ?? "",
      );
      return {
        tag: "Patch",
        target: files.map((f) => p(f)).join(", "),
        extra: "",
        body: isLong(patch)
          ? collapsible("patch", codeBlock(patch, "diff", model), true)
          : codeBlock(patch, "diff", model),
      };
    }
    case "list":
      return { tag: "List", target: p(view.path), extra: "", body: "" };
    case "search":
      return {
        tag: "Search",
        target: `<span class="target">${t(view.query)}</span>`,
        extra: view.path !== undefined ? `<span class="note">in</span> ${p(view.path)}` : "",
        body: "",
      };
    case "command":
      return {
        tag: "Command",
        target: `<span class="target">${escapeHtml(`${view.command}${view.args ? ` ${view.args}` : ""}`)}</span>`,
        extra: "",
        body: "",
      };
    case "raw": {
      const compact = model.paths.text(JSON.stringify(view.input));
      const json = model.paths.text(JSON.stringify(view.input, null, 2));
      const short = compact.length <= 90 && !compact.includes("\\n");
      return {
        tag: escapeHtml(view.tool),
        target: short ? `<span class="target">${escapeHtml(compact)}</span>` : "",
        extra: view.summary !== undefined ? `<span class="note">${t(view.summary)}</span>` : "",
        body: short ? "" : collapsible("arguments", codeBlock(json, "json", model), isLong(json)),
      };
    }
    default:
      return view satisfies never;
  }
}

function resultLang(view: CallView | undefined, b: ToolResultBlock): string | undefined {
  if (typeof b.content !== "string") return "json";
  if (view?.kind === "read") return languageOf(view.path);
  return undefined;
}

function resultHtml(
  b: ToolResultBlock,
  n: number | undefined,
  view: CallView | undefined,
  model: Model,
  id: string,
): string {
  const text = model.paths.text(resultText(b));
  const err = b.is_error ? ` <span class="badge error">error</span>` : "";
  const back = n !== undefined ? ` <a class="link" href="#c${n}">↑ call [${n}]</a>` : "";
  const what = n !== undefined ? `result [${n}]` : `result of an unknown call`;
  const cls = `result${b.is_error ? " error" : ""}`;
  if (text === "")
    return `<div class="${cls}" id="${id}"><div class="rh">${what}${err}<span class="empty">no output</span>${back}</div></div>`;
  const lines = text.split("\n").length;
  const body = codeBlock(text, resultLang(view, b), model);
  if (isLong(text)) {
    return `<details class="${cls}" id="${id}"><summary>${what} · ${plural(lines, "line")}${err}${back}</summary>${body}</details>`;
  }
  return `<div class="${cls}" id="${id}"><div class="rh">${what}${err}${back}</div>${body}</div>`;
}

/** Canonical tool names the tag already says (Shell is Bash, …). */
const CANONICAL = new Set(["Bash", "Read", "Write", "Edit", "MultiEdit"]);

function callHtml(b: ToolUseBlock, model: Model): string {
  const n = model.numbers.get(b.id) ?? 0;
  const view = callView(b.tool);
  const h = callHeader(view, model);
  const result = model.results.get(b.id);
  const shown = result !== undefined && model.folded.has(result);
  const link = shown
    ? `<a class="link" href="#r${n}">result ↓</a>`
    : `<span class="link empty">no result</span>`;
  const toolName =
    view.kind === "raw" ||
    view.kind === "command" ||
    CANONICAL.has(view.tool) ||
    view.tool === h.tag
      ? ""
      : `<span class="note">${escapeHtml(view.tool)}</span>`;
  return `<div class="call ${view.kind}${shown && result.is_error ? " error" : ""}" id="c${n}"><div class="call-h"><span class="n">[${n}]</span><span class="tag">${h.tag}</span>${toolName}${h.target}${h.extra}${link}</div>${h.body}${shown ? resultHtml(result, n, view, model, `r${n}`) : ""}</div>`;
}

function blockHtml(block: Block, m: Message, model: Model): string {
  switch (block.type) {
    case "text": {
      const md = m.role === "user" ? userMd : assistantMd;
      return `<div class="md">${md.render(model.paths.text(block.text))}</div>`;
    }
    case "thinking":
      if (block.text.trim() === "") {
        return block.encrypted || block.signature
          ? `<p class="empty">thinking (not readable)</p>`
          : "";
      }
      return `<details class="thinking"><summary>Thinking</summary><div class="md">${assistantMd.render(model.paths.text(block.text))}</div></details>`;
    case "tool_use":
      return callHtml(block, model);
    case "tool_result": {
      if (model.folded.has(block)) return "";
      const n = model.numbers.get(block.tool_use_id);
      const use = n !== undefined ? findCall(model, block.tool_use_id) : undefined;
      return `<div class="orphan call">${resultHtml(block, n, use ? callView(use.tool) : undefined, model, "")}</div>`.replace(
        ' id=""',
        "",
      );
    }
    case "image": {
      const src = `data:${block.source.media_type};base64,${block.source.data}`;
      const caption = `${escapeHtml(block.source.media_type)}, ${base64Size(block.source.data)}`;
      if (!INLINE_IMAGE.test(src)) return `<p class="empty">[image: ${caption}]</p>`;
      return `<figure class="image"><img alt="image" loading="lazy" src="${escapeHtml(src)}"><figcaption>${caption}</figcaption></figure>`;
    }
    case "artifact": {
      const src = block.artifact.source;
      const name = escapeHtml(block.artifact.name);
      if (src.type === "text") {
        const text = model.paths.text(src.text);
        return `<div class="call artifact"><div class="call-h"><span class="tag">Artifact</span><span class="target">${name}</span></div>${collapsible("content", codeBlock(text, languageOf(block.artifact.name), model), isLong(text))}</div>`;
      }
      const where =
        src.type === "path"
          ? `<span class="target">${escapeHtml(model.paths.path(src.path))}</span>`
          : `<span class="note">${escapeHtml(src.media_type ?? "binary")}, ${base64Size(src.data)}</span>`;
      return `<div class="call artifact"><div class="call-h"><span class="tag">Artifact</span><span class="target">${name}</span>${where}</div></div>`;
    }
    default:
      return block satisfies never;
  }
}

function messageHtml(m: Message, i: number, model: Model): string {
  if (onlyResults(m) && m.content.every((b) => b.type === "tool_result" && model.folded.has(b))) {
    return `<span class="anchor" id="m${i + 1}"></span>`;
  }
  const role = m.role === "user" ? (onlyResults(m) ? "Tool results" : "User") : "Assistant";
  const parts = [`<span class="role">${role}</span>`];
  if (m.role === "assistant" && m.model) parts.push(`<span>${escapeHtml(m.model)}</span>`);
  parts.push(
    `<time datetime="${escapeHtml(m.timestamp)}">${escapeHtml(displayTime(m.timestamp))}</time>`,
  );
  if (m.usage) parts.push(`<span>${escapeHtml(usageLabel(m.usage))}</span>`);
  if (m.stop_reason && m.stop_reason !== "end_turn" && m.stop_reason !== "tool_use") {
    parts.push(
      `<span class="badge error">stopped: ${escapeHtml(stopReasonText(m.stop_reason))}</span>`,
    );
  }
  parts.push(`<a class="ord" href="#m${i + 1}">#${i + 1}</a>`);
  const cls = m.role === "user" && !onlyResults(m) ? "user" : "assistant";
  const body = m.content.map((b) => blockHtml(b, m, model)).join("");
  return `<article class="msg ${cls}" id="m${i + 1}"><div class="who">${parts.join("")}</div><div class="body">${body}</div></article>`;
}

/** The Content-Security-Policy of every page: nothing from anywhere, images only from the page itself. */
const PAGE_CSP = `default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src ${SCRIPT_HASH}; base-uri 'none'; form-action 'none'`;

/**
 * How a page is framed when a server serves it (`txcript serve`) rather
 * than written as a file: its script from `scriptSrc` (the server's CSP
 * allows no inline script), and `preface`, HTML the caller built (escaped
 * there), at the top of the main column.
 */
export interface PageShell {
  scriptSrc?: string;
  preface?: string;
}

/**
 * The served page's policy: the same, with the script from the page's own
 * origin, which it may also call (serve's continue and delete).
 */
const SERVED_CSP = `default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'`;

function page(title: string, body: string, toc: string): string {
  const [before, after] = pageStart(title);
  return `${before}${toc}${after}${body}${PAGE_END}`;
}

/**
 * A page up to where its main content begins, in two parts: the table of
 * contents stands between them (streamed a turn at a time: a session of a
 * million turns has a table far longer than one string should be).
 */
function pageStart(title: string, shell: PageShell = {}): [string, string] {
  const csp = shell.scriptSrc !== undefined ? SERVED_CSP : PAGE_CSP;
  return [
    `<!doctype html>
<html lang="en" data-theme="auto"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="referrer" content="no-referrer">
<meta name="generator" content="txcript">
<title>${title}</title>
<style>${CSS}</style></head><body>
<div class="bar"><span class="brand">${title}</span><input type="search" id="q" placeholder="Search  ( / )" aria-label="Search this page" autocomplete="off"><span id="qcount" aria-live="polite"></span><button id="prev" type="button" aria-label="Previous match">↑</button><button id="next" type="button" aria-label="Next match">↓</button><button id="expand" type="button" aria-pressed="false">Expand all</button><button id="theme" type="button">Theme: auto</button></div>
<div class="layout">`,
    `<main>
${shell.preface ?? ""}`,
  ];
}

/** A page from the end of its main content. */
const PAGE_END = `
</main></div>
<script>${SCRIPT}</script>
</body></html>
`;

/** The HTML page of a session (or a range of it). */
export function renderHtml(input: RenderInput): string {
  return [...renderHtmlChunks(input)].join("");
}

/**
 * The same page in pieces, a message at a time, for a caller that writes
 * each as it comes: a page of a huge session is larger than the longest
 * string V8 can hold (issue 31, item 9), and never exists whole this way.
 */
export function* renderHtmlChunks(input: RenderInput, shell: PageShell = {}): Generator<string> {
  const model = buildModel(input);
  model.highlightLeft = HIGHLIGHT_BUDGET;
  const { meta } = model;
  const title = escapeHtml(meta.title ?? "Untitled session");
  const rows: [string, string][] = [
    ["Session", `${escapeHtml(meta.id)}${input.harness ? ` · ${escapeHtml(input.harness)}` : ""}`],
  ];
  for (const [k, v] of headFacts(model, input)) rows.push([k, escapeHtml(v)]);
  rows.push(["Tool calls", String(model.numbers.size)]);
  const head = `<section class="head"><h1>${title}</h1><dl class="meta">${rows.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join("")}</dl></section>`;
  const [before, after] = pageStart(title, shell);
  yield before;
  yield '<nav class="toc" aria-label="Turns"><h2>Turns</h2><ol>';
  for (const t of model.turns)
    yield `<li><a href="#t${t.n}"><span class="n">${t.n}</span><span class="l">${escapeHtml(model.paths.text(turnLabel(model, t)))}</span></a></li>`;
  yield `</ol></nav>${after}`;
  yield head;
  if (model.turns.length === 0) yield "\n";
  for (const t of model.turns) {
    yield `\n<section class="turn" id="t${t.n}"><h2><a href="#t${t.n}">Turn ${t.n}</a></h2>`;
    let first = true;
    for (let i = t.start; i < t.end; i++) {
      const m = model.messages[i];
      if (!m) continue;
      yield first ? messageHtml(m, i, model) : `\n${messageHtml(m, i, model)}`;
      first = false;
    }
    yield "</section>";
  }
  yield shell.scriptSrc !== undefined
    ? PAGE_END.replace(
        `<script>${SCRIPT}</script>`,
        `<script src="${escapeHtml(shell.scriptSrc)}"></script>`,
      )
    : PAGE_END;
}

export interface IndexEntry {
  file: string;
  title: string;
  harness: string;
  id: string;
  started: string;
  messages: number;
  cwd?: string;
}

/** The index page of `export --all`: one row per exported page, linked by relative file name. */
export function renderIndexHtml(
  entries: readonly IndexEntry[],
  options: { title?: string } = {},
): string {
  const title = escapeHtml(options.title ?? "Sessions");
  // Ids as short as they stay apart on this page (Codex's share a prefix per minute).
  const short = shortener(entries.map((e) => e.id));
  const rows = entries
    .map(
      (e) =>
        `<li><a href="${escapeHtml(encodeURI(e.file))}"><span class="l">${escapeHtml(e.title)}</span></a><div class="who"><span>${escapeHtml(e.harness)}</span><time>${escapeHtml(displayTime(e.started))}</time><span>${plural(e.messages, "message")}</span>${e.cwd ? `<span>${escapeHtml(e.cwd)}</span>` : ""}<span class="ord">${escapeHtml(short(e.id))}</span></div></li>`,
    )
    .join("\n");
  const body = `<section class="head"><h1>${title}</h1><p class="empty">${plural(entries.length, "session")}</p></section><ol class="index">${rows}</ol>`;
  return page(title, body, "").replace(
    "</style>",
    ".index{list-style:none;padding:0}.index li{padding:.6rem 0;border-bottom:1px solid var(--border)}.index a{font-weight:600;text-decoration:none}</style>",
  );
}
