/**
 * Syntax highlighting at render time with highlight.js core and the few
 * languages sessions are mostly made of, so a page needs no script to show
 * colors. The output is highlight.js's escaped HTML (it escapes every text
 * node), and very large inputs are left plain to keep pages fast.
 */

import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import c from "highlight.js/lib/languages/c";
import cpp from "highlight.js/lib/languages/cpp";
import css from "highlight.js/lib/languages/css";
import diff from "highlight.js/lib/languages/diff";
import dockerfile from "highlight.js/lib/languages/dockerfile";
import go from "highlight.js/lib/languages/go";
import ini from "highlight.js/lib/languages/ini";
import java from "highlight.js/lib/languages/java";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import kotlin from "highlight.js/lib/languages/kotlin";
import makefile from "highlight.js/lib/languages/makefile";
import markdown from "highlight.js/lib/languages/markdown";
import php from "highlight.js/lib/languages/php";
import python from "highlight.js/lib/languages/python";
import ruby from "highlight.js/lib/languages/ruby";
import rust from "highlight.js/lib/languages/rust";
import shell from "highlight.js/lib/languages/shell";
import sql from "highlight.js/lib/languages/sql";
import swift from "highlight.js/lib/languages/swift";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";

// A private instance: registering languages on the shared default would be a global side effect.
const hl = hljs.newInstance();
for (const [name, lang] of Object.entries({
  bash,
  c,
  cpp,
  css,
  diff,
  dockerfile,
  go,
  ini,
  java,
  javascript,
  json,
  kotlin,
  makefile,
  markdown,
  php,
  python,
  ruby,
  rust,
  shell,
  sql,
  swift,
  typescript,
  xml,
  yaml,
})) {
  hl.registerLanguage(name, lang);
}
hl.registerAliases(["sh", "zsh", "console-bash"], { languageName: "bash" });
hl.registerAliases(["console", "shell-session"], { languageName: "shell" });

/** Above this many characters a block is shown plain (highlighting is superlinear on some grammars). */
const MAX_HIGHLIGHT = 100_000;

export function escapeHtml(s: string): string {
  return s
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** Highlighted HTML for `text` in `lang`, or escaped plain text when the language is unknown. */
export function highlight(text: string, lang: string | undefined): string {
  if (lang === undefined || text.length > MAX_HIGHLIGHT) return escapeHtml(text);
  const name = lang.toLowerCase();
  if (!hl.getLanguage(name)) return escapeHtml(text);
  try {
    return hl.highlight(text, { language: name, ignoreIllegals: true }).value;
  } catch {
    return escapeHtml(text);
  }
}

export function knownLanguage(lang: string): boolean {
  return hl.getLanguage(lang.toLowerCase()) !== undefined;
}
