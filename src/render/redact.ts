/**
 * Redaction for sharing, one function over a Common transcript that every
 * door (view and export in every format, export --all, MCP, and what an
 * archive or web page sends) applies before rendering. It finds secrets
 * with txcript's own credential patterns (./secrets.ts), secretlint's
 * recommended rule preset (MIT) and a user's own patterns, in every string
 * of the transcript: metadata, prose, thinking, tool arguments (keys as
 * well as values) and results, artifacts; then e-mail addresses, the home
 * directory path and the user name. Every finding is removed whole: a
 * token match cut short is widened to the token around it, overlapping
 * findings merge. secretlint's `secretlint-disable` comments never apply:
 * the text it scans has them neutralized first, so nothing inside a session
 * can switch redaction off. Returns a redacted copy, counts by kind, and
 * where each finding was (kind, message ordinal, field) for a dry run,
 * never the value.
 */

import { isJsonObject } from "../common.js";
import { TxcriptError } from "../errors.js";
import { assignDefined } from "../json.js";
import type { Common, Transcript } from "../transcript.js";
import { BUILTIN, SECRET_FIELD, type SecretPattern } from "./secrets.js";

export interface RedactOptions {
  /** The home directory path to replace with `~`. */
  home?: string;
  /** The user name to replace with `user` (generic account names are left alone). */
  user?: string;
  /** A user's own patterns (see parsePatterns), applied after the built-in ones. */
  patterns?: readonly SecretPattern[];
}

/** One thing redacted: its kind and where it was, never its value. */
export interface Finding {
  kind: string;
  /** The message's ordinal (1-based, session-wide); absent for session metadata. */
  message?: number;
  /** The field: `text`, `thinking`, `tool input command`, `tool input key`, `tool output`, `cwd`... */
  field: string;
}

export interface Redaction {
  transcript: Transcript<Common>;
  /** Everything replaced. */
  count: number;
  /** Replacements by kind: `home`, `user`, `email`, or the credential kind (`github`, `aws-key-id`, …). */
  byKind: Record<string, number>;
  /** Every replacement, in transcript order. */
  findings: Finding[];
}

/** Account names that identify nobody, and would mangle prose if replaced. */
const GENERIC_USERS = new Set([
  "root",
  "user",
  "admin",
  "ubuntu",
  "runner",
  "node",
  "debian",
  "guest",
]);

const SEPARATOR = "\n\u0000\n";

interface Slot {
  get(): string;
  set(value: string): void;
  message?: number;
  field: string;
  /** Set when the whole value is a secret because of the field that holds it. */
  secretField?: boolean;
}

/** Every redactable string of the transcript, as get/set slots on `t` (a private copy). */
function slots(t: Transcript<Common>): Slot[] {
  const out: Slot[] = [];
  let message: number | undefined;
  // Each slot keeps its current value and writes every change back to its
  // holder through `put`, so no property is reached by a computed type.
  const text = (value: unknown, field: string, put: (v: string) => void, secretField = false) => {
    if (typeof value !== "string") return;
    let current = value;
    const slot: Slot = {
      get: () => current,
      set: (v) => {
        current = v;
        put(v);
      },
      field,
    };
    assignDefined(slot, "message", message);
    if (secretField && value !== "") slot.secretField = true;
    out.push(slot);
  };
  // Tool inputs and results are JSON-shaped: every string at any depth,
  // object keys too (a secret can be a key), renamed in place in order.
  const inside = (holder: unknown, field: string) => {
    if (Array.isArray(holder))
      holder.forEach((item, i) => {
        text(item, field, (v) => {
          holder[i] = v;
        });
        inside(item, field);
      });
    else if (isJsonObject(holder)) {
      // Values are written through the key's current name, which a key slot may change.
      const keys = Object.keys(holder);
      keys.forEach((k, i) => {
        const item = holder[k];
        const name = `${field} ${k.length <= 40 && /^[\w.-]+$/.test(k) ? k : "(key)"}`;
        text(
          item,
          name,
          (v) => {
            holder[keys[i] ?? k] = v;
          },
          SECRET_FIELD.test(k),
        );
        inside(item, name);
      });
      keys.forEach((k, i) => {
        text(k, `${field} key`, (v) => {
          // Rename keeping the order: move every later key after the new one.
          const old = keys[i] ?? k;
          const value = holder[old];
          const rest = keys.slice(i + 1).map((r) => [r, holder[r]] as const);
          delete holder[old];
          for (const [r] of rest) delete holder[r];
          holder[v] = value === undefined ? null : value;
          for (const [r, rv] of rest) holder[r] = rv === undefined ? null : rv;
          keys[i] = v;
        });
      });
    }
  };
  const meta = t.meta;
  text(meta.cwd, "cwd", (v) => {
    meta.cwd = v;
  });
  text(meta.title, "title", (v) => {
    meta.title = v;
  });
  text(meta.git_branch, "git branch", (v) => {
    meta.git_branch = v;
  });
  t.body.forEach((m, i) => {
    message = i + 1;
    for (const b of m.content) {
      switch (b.type) {
        case "text":
        case "thinking":
          text(b.text, b.type, (v) => {
            b.text = v;
          });
          break;
        case "tool_use": {
          // A Raw tool's input is named by its own keys, not `input`.
          const tool = b.tool;
          if (tool.name === "Raw") {
            text(tool.tool_name, "tool name", (v) => {
              tool.tool_name = v;
            });
            inside(tool.input, "tool input");
          } else inside(tool, "tool input");
          break;
        }
        case "tool_result":
          text(b.content, "tool output", (v) => {
            b.content = v;
          });
          inside(b.content, "tool output");
          break;
        case "image":
          break;
        case "artifact": {
          const artifact = b.artifact;
          text(artifact.name, "artifact name", (v) => {
            artifact.name = v;
          });
          const src = artifact.source;
          if (src.type === "text")
            text(src.text, "artifact", (v) => {
              src.text = v;
            });
          if (src.type === "path")
            text(src.path, "artifact path", (v) => {
              src.path = v;
            });
          break;
        }
        default:
          b satisfies never;
      }
    }
  });
  return out;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

interface Range {
  from: number;
  to: number;
  kind: string;
  /** What replaces it: `[redacted kind]`, or `~` and `user` for the home path and user name. */
  with: string;
}

const redacted = (kind: string) => `[redacted ${kind}]`;
const TOKEN_CHAR = /[A-Za-z0-9+/=_-]/;

/** `[from, to)` grown over token characters: to the right, and to the left too when `left`. */
function widen(s: string, r: Range, left: boolean): void {
  while (r.to < s.length && TOKEN_CHAR.test(s[r.to] ?? "")) r.to++;
  // A backslash before the character means an escape (`\n`), not part of the token.
  while (left && r.from > 0 && TOKEN_CHAR.test(s[r.from - 1] ?? "") && s[r.from - 2] !== "\\")
    r.from--;
}

/** secretlint's findings over every slot's text, as ranges per slot. */
async function secretlintRanges(texts: readonly string[]): Promise<Map<number, Range[]>> {
  const starts: number[] = [];
  let at = 0;
  for (const t of texts) {
    starts.push(at);
    at += t.length + SEPARATOR.length;
  }
  // One scan over every string; offsets map findings back to their string.
  // Its comment filter (`secretlint-disable`...) runs over the whole text,
  // so one such comment anywhere in a session would switch the scan off:
  // every `secretlint` is made `xecretlint`, same length, so offsets hold.
  const content = texts.join(SEPARATOR).replace(/secretlint/gi, (m) => `x${m.slice(1)}`);
  let messages: { ruleId: string; range: readonly [number, number] }[];
  try {
    // Imported here, not at the top: @secretlint/core opens a pipe to
    // stderr as it loads, and importing txcript must leave nothing behind.
    const { lintSource } = await import("@secretlint/core");
    const { creator: recommended } = await import("@secretlint/secretlint-rule-preset-recommend");
    const result = await lintSource({
      source: { filePath: "transcript.txt", content, ext: ".txt", contentType: "text" },
      options: {
        config: {
          rules: [{ id: "@secretlint/secretlint-rule-preset-recommend", rule: recommended }],
        },
        noPhysicFilePath: true,
      },
    });
    messages = result.messages.filter((m) => m.type === "message");
  } catch (cause) {
    throw new TxcriptError(undefined, "secret scan failed", { cause });
  }
  const out = new Map<number, Range[]>();
  for (const m of messages) {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] ?? 0) <= m.range[0]) lo = mid;
      else hi = mid - 1;
    }
    const text = texts[lo];
    if (text === undefined) continue;
    const base = starts[lo] ?? 0;
    const from = m.range[0] - base;
    const to = Math.min(m.range[1] - base, text.length);
    if (from < 0 || from >= text.length || to <= from) continue;
    const kind = m.ruleId.replace(/^@secretlint\/secretlint-rule-/, "");
    const r: Range = { from, to, kind, with: redacted(kind) };
    // A rule's range is not trusted to cover the whole secret.
    widen(text, r, true);
    const list = out.get(lo) ?? [];
    list.push(r);
    out.set(lo, list);
  }
  return out;
}

/** Every match of `patterns` in `s`, the `s` group when a pattern has one. */
function patternRanges(s: string, patterns: readonly SecretPattern[]): Range[] {
  const out: Range[] = [];
  for (const p of patterns) {
    p.re.lastIndex = 0;
    for (const m of s.matchAll(p.re)) {
      const at = m.indices?.groups?.s ?? m.indices?.[0];
      if (!at || at[1] <= at[0]) continue;
      const r: Range = { from: at[0], to: at[1], kind: p.kind, with: redacted(p.kind) };
      if (p.token) widen(s, r, false);
      out.push(r);
    }
  }
  return out;
}

/** A redacted copy of `transcript`. Rejects only if secretlint itself fails. */
export async function redact(
  transcript: Transcript<Common>,
  options: RedactOptions = {},
): Promise<Redaction> {
  const copy = structuredClone(transcript);
  const all = slots(copy);
  const texts = all.map((s) => s.get());
  const fromSecretlint = await secretlintRanges(texts);
  const patterns = [...BUILTIN, ...(options.patterns ?? [])];
  const home = options.home?.replace(/\/+$/, "");
  const homePattern =
    home && home !== "" ? new RegExp(`${escapeRegExp(home)}(?=$|[^\\w.-])`, "g") : undefined;
  const user = options.user;
  const userPattern =
    user && user.length >= 2 && !GENERIC_USERS.has(user.toLowerCase())
      ? new RegExp(`(?<![\\w.-])${escapeRegExp(user)}(?![\\w-])`, "g")
      : undefined;
  const byKind: Record<string, number> = {};
  const findings: Finding[] = [];
  all.forEach((slot, i) => {
    const s = texts[i] ?? "";
    const ranges: Range[] = slot.secretField
      ? [{ from: 0, to: s.length, kind: "secret-field", with: redacted("secret-field") }]
      : [];
    ranges.push(...patternRanges(s, patterns), ...(fromSecretlint.get(i) ?? []));
    const literal = (re: RegExp | undefined, kind: string, by: string) => {
      if (re)
        for (const m of s.matchAll(re))
          ranges.push({ from: m.index, to: m.index + m[0].length, kind, with: by });
    };
    literal(homePattern, "home", "~");
    literal(userPattern, "user", "user");
    if (ranges.length === 0) return;
    // Overlapping findings (two rules on one token) are one replacement, the first found's kind.
    ranges.sort((a, b) => a.from - b.from || b.to - a.to);
    const merged: Range[] = [];
    for (const r of ranges) {
      const last = merged[merged.length - 1];
      if (last && r.from < last.to) {
        if (r.to > last.to) {
          // A secret reaching past the home path or user name is a secret.
          if (last.with === "~" || last.with === "user") {
            last.kind = r.kind;
            last.with = r.with;
          }
          last.to = r.to;
        }
      } else merged.push({ ...r });
    }
    let out = "";
    let at = 0;
    for (const r of merged) {
      out += s.slice(at, r.from) + r.with;
      at = r.to;
      byKind[r.kind] = (byKind[r.kind] ?? 0) + 1;
      const finding: Finding = { kind: r.kind, field: slot.field };
      assignDefined(finding, "message", slot.message);
      findings.push(finding);
    }
    slot.set(out + s.slice(at));
  });
  return { transcript: copy, count: findings.length, byKind, findings };
}

/**
 * Loose strings (titles, directories, file paths, search snippets) through
 * the same redactor in one scan: each is a text block of one synthetic
 * message, so it gets exactly what a message's text gets.
 */
const EPOCH = "1970-01-01T00:00:00.000Z";

export async function redactTexts(
  texts: readonly string[],
  options: RedactOptions = {},
): Promise<string[]> {
  if (texts.length === 0) return [];
  const r = await redact(
    {
      meta: { id: "texts", timestamp: EPOCH },
      body: [
        {
          role: "user",
          timestamp: EPOCH,
          content: texts.map((text) => ({ type: "text", text })),
        },
      ],
    },
    options,
  );
  const blocks = r.transcript.body[0]?.content ?? [];
  return texts.map((given, i) => {
    const b = blocks[i];
    return b?.type === "text" ? b.text : given;
  });
}
