/**
 * Redaction for sharing: secrets found by secretlint's recommended rule
 * preset (@secretlint/secretlint-rule-preset-recommend, MIT: AWS, GCP,
 * GitHub, npm, Slack, SendGrid, OpenAI, Anthropic, private keys, basic-auth
 * URLs, database connection strings...), the home directory path and the
 * user name, in every string of a Common transcript (metadata, prose,
 * thinking, tool arguments and results, artifacts). Returns a redacted copy
 * and counts; the input is not changed. Every string is scanned in one
 * secretlint pass over their concatenation, so a 20 MB session costs one
 * scan rather than thousands.
 */

import { isJsonObject } from "../common.js";
import { TxcriptError } from "../errors.js";
import type { Common, Transcript } from "../transcript.js";

export interface RedactOptions {
  /** The home directory path to replace with `~`. */
  home?: string;
  /** The user name to replace with `user` (generic account names are left alone). */
  user?: string;
}

export interface Redaction {
  transcript: Transcript<Common>;
  /** Everything replaced. */
  count: number;
  /** Replacements by kind: `home`, `user`, or the secretlint rule (`github`, `aws`, …). */
  byKind: Record<string, number>;
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
}

/** Every redactable string of the transcript, as get/set slots on `t` (a private copy). */
function slots(t: Transcript<Common>): Slot[] {
  const out: Slot[] = [];
  // Each slot keeps its current value and writes every change back to its
  // holder through `put`, so no property is reached by a computed type.
  const text = (value: unknown, put: (v: string) => void) => {
    if (typeof value !== "string") return;
    let current = value;
    out.push({
      get: () => current,
      set: (v) => {
        current = v;
        put(v);
      },
    });
  };
  // Tool inputs and results are JSON-shaped: every string at any depth.
  const inside = (holder: unknown) => {
    if (Array.isArray(holder))
      holder.forEach((item, i) => {
        text(item, (v) => {
          holder[i] = v;
        });
        inside(item);
      });
    else if (isJsonObject(holder))
      for (const [k, item] of Object.entries(holder)) {
        text(item, (v) => {
          holder[k] = v;
        });
        inside(item);
      }
  };
  const meta = t.meta;
  text(meta.cwd, (v) => {
    meta.cwd = v;
  });
  text(meta.title, (v) => {
    meta.title = v;
  });
  text(meta.git_branch, (v) => {
    meta.git_branch = v;
  });
  for (const m of t.body) {
    for (const b of m.content) {
      switch (b.type) {
        case "text":
        case "thinking":
          text(b.text, (v) => {
            b.text = v;
          });
          break;
        case "tool_use":
          inside(b.tool);
          break;
        case "tool_result":
          text(b.content, (v) => {
            b.content = v;
          });
          inside(b.content);
          break;
        case "image":
          break;
        case "artifact": {
          const artifact = b.artifact;
          text(artifact.name, (v) => {
            artifact.name = v;
          });
          const src = artifact.source;
          if (src.type === "text")
            text(src.text, (v) => {
              src.text = v;
            });
          if (src.type === "path")
            text(src.path, (v) => {
              src.path = v;
            });
          break;
        }
        default:
          b satisfies never;
      }
    }
  }
  return out;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function bump(byKind: Record<string, number>, kind: string, n = 1): void {
  if (n > 0) byKind[kind] = (byKind[kind] ?? 0) + n;
}

/** A redacted copy of `transcript`. Rejects only if secretlint itself fails. */
export async function redact(
  transcript: Transcript<Common>,
  options: RedactOptions = {},
): Promise<Redaction> {
  const copy = structuredClone(transcript);
  const all = slots(copy);
  const byKind: Record<string, number> = {};
  // One scan over every string; offsets map findings back to their string.
  const starts: number[] = [];
  let at = 0;
  for (const s of all) {
    starts.push(at);
    at += s.get().length + SEPARATOR.length;
  }
  const content = all.map((s) => s.get()).join(SEPARATOR);
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
  const perSlot = new Map<number, { from: number; to: number; kind: string }[]>();
  for (const m of messages) {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] ?? 0) <= m.range[0]) lo = mid;
      else hi = mid - 1;
    }
    const slot = all[lo];
    if (slot === undefined) continue;
    const base = starts[lo] ?? 0;
    const len = slot.get().length;
    const from = m.range[0] - base;
    const to = Math.min(m.range[1] - base, len);
    if (from < 0 || from >= len || to <= from) continue;
    const kind = m.ruleId.replace(/^@secretlint\/secretlint-rule-/, "");
    const list = perSlot.get(lo) ?? [];
    list.push({ from, to, kind });
    perSlot.set(lo, list);
  }
  for (const [i, ranges] of perSlot) {
    // Overlapping findings (two rules on one token) are one replacement.
    ranges.sort((a, b) => a.from - b.from || b.to - a.to);
    const merged: typeof ranges = [];
    for (const r of ranges) {
      const last = merged[merged.length - 1];
      if (last && r.from < last.to) last.to = Math.max(last.to, r.to);
      else merged.push({ ...r });
    }
    const slot = all[i];
    if (slot === undefined) continue;
    let s = slot.get();
    for (const r of merged.reverse()) {
      s = `${s.slice(0, r.from)}[redacted ${r.kind}]${s.slice(r.to)}`;
      bump(byKind, r.kind);
    }
    slot.set(s);
  }
  const home = options.home?.replace(/\/+$/, "");
  const homePattern =
    home && home !== "" ? new RegExp(`${escapeRegExp(home)}(?=$|[^\\w.-])`, "g") : undefined;
  const user = options.user;
  const userPattern =
    user && user.length >= 2 && !GENERIC_USERS.has(user.toLowerCase())
      ? new RegExp(`(?<![\\w.-])${escapeRegExp(user)}(?![\\w-])`, "g")
      : undefined;
  for (const slot of all) {
    let s = slot.get();
    let n = 0;
    if (homePattern) {
      s = s.replace(homePattern, () => {
        n++;
        return "~";
      });
      bump(byKind, "home", n);
    }
    if (userPattern) {
      let u = 0;
      s = s.replace(userPattern, () => {
        u++;
        return "user";
      });
      bump(byKind, "user", u);
      n += u;
    }
    if (n > 0) slot.set(s);
  }
  const count = Object.values(byKind).reduce((a, b) => a + b, 0);
  return { transcript: copy, count, byKind };
}
