/**
 * Pages for people: Markdown and self-contained HTML renderings of a
 * Common transcript, and redaction for sharing them.
 */

export {
  type IndexEntry,
  renderHtml,
  renderHtmlChunks,
  renderIndexHtml,
} from "./html.js";
export { markdownPieces, renderMarkdown, renderMarkdownChunks } from "./markdown.js";
export type { RenderInput } from "./model.js";
export type { PathOptions } from "./paths.js";
export { type Redaction, type RedactOptions, redact, redactTexts } from "./redact.js";
