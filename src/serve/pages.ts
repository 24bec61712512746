/**
 * The HTML `txcript serve` answers with: the app's shell (no inline
 * script: the client comes from /assets/app.js), the session page (the
 * HTML export's renderer, framed for the server: its script from
 * /assets/session.js and a bar with the way back, the downloads and the
 * resume command), and the downloads (HTML, Markdown, Simple, redacted
 * on request with the export's redactor).
 */

import { renderSimpleChunks } from "../harness/simple.js";
import { assignDefined, defined } from "../json.js";
import { escapeHtml } from "../render/highlight.js";
import {
  type RenderInput,
  redact,
  renderHtmlChunks,
  renderMarkdownChunks,
} from "../render/index.js";
import type { Common, HarnessId, Transcript } from "../transcript.js";
import { WRITE_STYLE, writeBar } from "./write-ui.js";

const DOWNLOAD_FORMATS = ["html", "markdown", "simple"] as const;
export type DownloadFormat = (typeof DOWNLOAD_FORMATS)[number];

export function isDownloadFormat(value: string): value is DownloadFormat {
  return DOWNLOAD_FORMATS.some((f) => f === value);
}

const EXTENSION: Record<DownloadFormat, string> = { html: "html", markdown: "md", simple: "json" };
const MIME: Record<DownloadFormat, string> = {
  html: "text/html; charset=utf-8",
  markdown: "text/markdown; charset=utf-8",
  simple: "application/json; charset=utf-8",
};

/** The user's home and name: `~` in pages, and what redaction removes. */
export interface Who {
  home?: string | undefined;
  user?: string | undefined;
}

/** The app's one page; everything else is drawn by /assets/app.js from the JSON API. */
export function shellHtml(options: { writable: boolean }): string {
  return `<!doctype html>
<html lang="en" data-theme="auto"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>txcript</title>
<link rel="stylesheet" href="/assets/app.css">
<script type="module" src="/assets/app.js"></script>
</head><body data-writable="${options.writable ? "1" : "0"}">
<noscript>txcript serve needs JavaScript for its list; each session page reads without it.</noscript>
</body></html>
`;
}

/** A file name for a download: harness and id, anything a file system may refuse made `_`. */
export function downloadName(harness: HarnessId, id: string, format: DownloadFormat): string {
  const safe = id
    .replace(/[^A-Za-z0-9._-]/g, "_")
    .replace(/^\.+/, "_")
    .slice(0, 120);
  return `${harness}-${safe}.${EXTENSION[format]}`;
}

export function mimeOf(format: DownloadFormat): string {
  return MIME[format];
}

/** The transcript as shown: redacted (secrets, e-mail, home, user name) when asked. */
export async function shown(
  transcript: Transcript<Common>,
  redacted: boolean,
  who: Who,
): Promise<Transcript<Common>> {
  if (!redacted) return transcript;
  const r = await redact(transcript, {
    ...defined({ home: who.home }),
    ...defined({ user: who.user }),
    patterns: [],
  });
  return r.transcript;
}

function renderInput(transcript: Transcript<Common>, harness: HarnessId, who: Who): RenderInput {
  const input: RenderInput = { transcript, harness };
  assignDefined(input, "home", who.home);
  return input;
}

/** A download: the export's page, Markdown or Simple document of the session. */
export function download(
  transcript: Transcript<Common>,
  harness: HarnessId,
  format: DownloadFormat,
  who: Who,
): Iterable<string> {
  switch (format) {
    case "html":
      return renderHtmlChunks(renderInput(transcript, harness, who));
    case "markdown":
      return renderMarkdownChunks(renderInput(transcript, harness, who));
    case "simple":
      return renderSimpleChunks(transcript);
    default:
      return format satisfies never;
  }
}

/**
 * The bar above a served session: back to the list, downloads, the resume
 * command, and (with --allow-write) continue and delete.
 */
function preface(
  harness: HarnessId,
  id: string,
  resume: string | undefined,
  write: { title: string | undefined; deletable: boolean } | undefined,
): string {
  const base = `/s/${encodeURIComponent(harness)}/${encodeURIComponent(id)}/download`;
  const links = DOWNLOAD_FORMATS.map(
    (f) =>
      `<a href="${escapeHtml(`${base}?format=${f}`)}" download>${f}</a> <a href="${escapeHtml(`${base}?format=${f}&redact=1`)}" download>(redacted)</a>`,
  ).join(" · ");
  const cmd =
    resume === undefined
      ? ""
      : `<p class="serve-resume">Resume: <code id="resume-cmd">${escapeHtml(resume)}</code> <button type="button" id="copy-resume">Copy</button></p>`;
  const style = `<style>.serve-bar{margin:1rem 0;padding:.5rem .75rem;border:1px solid var(--border);border-radius:8px;background:var(--panel);font-size:14px}.serve-bar p{margin:.25rem 0}${write ? WRITE_STYLE : ""}</style>`;
  const writes = write ? writeBar(harness, id, write.title, write.deletable) : "";
  return `${style}<nav class="serve-bar" aria-label="txcript serve"><p><a href="/" id="back">← All sessions</a> · Download: ${links}</p>${cmd}${writes}</nav>`;
}

/** The session page as served: the export's renderer, its script from this server. */
export function sessionPage(
  transcript: Transcript<Common>,
  harness: HarnessId,
  id: string,
  who: Who,
  resume: string | undefined,
  writable = false,
  deletable = true,
): Iterable<string> {
  const write = writable ? { title: transcript.meta.title, deletable } : undefined;
  return renderHtmlChunks(renderInput(transcript, harness, who), {
    scriptSrc: "/assets/session.js",
    preface: preface(harness, id, resume, write),
  });
}

/**
 * What the served session page adds to the export's script: landing on the
 * message the URL names (the page arrives in pieces, so the browser's own
 * jump can come before the message does), and copying the resume command.
 */
export const SESSION_SCRIPT_EXTRA = `
(function(){
"use strict";
var h=location.hash&&document.getElementById(decodeURIComponent(location.hash.slice(1)));
if(h)h.scrollIntoView({block:"start"});
var b=document.getElementById("copy-resume"),c=document.getElementById("resume-cmd");
if(!b||!c)return;
b.addEventListener("click",function(){
var t=c.textContent||"";
if(navigator.clipboard){navigator.clipboard.writeText(t).then(function(){b.textContent="Copied"},function(){b.textContent="Copy failed"})}
else{b.textContent="Copy failed"}});
})();
`;
