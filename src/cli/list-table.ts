/**
 * The human `txcript list` table: id, harness, last activity, messages,
 * cwd and title, aligned by display width. Its own module, loaded only when
 * a table is printed: string-width builds its segmenter and emoji regexes
 * when imported, which `list --json` should not pay for.
 */

import { type Env, homeDir } from "../env.js";
import { uniquePrefixWidth } from "../id-forms.js";
import { timestampMillisOrZero } from "../time.js";
import type { Discovered } from "../transcript.js";
import { fitWidth, localDate, padEnd, padStart, width } from "./columns.js";
import { painter } from "./output.js";
import { forTerminal } from "./sanitize.js";

/** `42s`, `5m`, `3h`, `12d`, `8mo`, `2y`. */
function age(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86400) return `${Math.floor(s / 3600)}h`;
  if (s < 86400 * 60) return `${Math.floor(s / 86400)}d`;
  if (s < 86400 * 730) return `${Math.floor(s / (86400 * 30))}mo`;
  return `${Math.floor(s / (86400 * 365))}y`;
}

/** `path` with the home directory (as env.ts reads it) shown as `~`. */
export function tildify(path: string, env: Env = process.env): string {
  const home = homeDir(env);
  return home && (path === home || path.startsWith(`${home}/`))
    ? `~${path.slice(home.length)}`
    : path;
}

/**
 * The harness, with the surface a session came from when it is not the
 * harness's main one (agy's `antigravity/desktop`, `antigravity/acp`).
 */
export function harnessCell(s: Discovered): string {
  return s.lane !== undefined && s.lane !== "cli" ? `${s.harness}/${s.lane}` : s.harness;
}

/** A session's title as one line, marked when its harness says it is still running. */
export function titleCell(s: Discovered): string {
  return `${s.running ? "[running] " : ""}${s.meta.title ?? "(untitled)"}`
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * The table: id, harness, last activity (date and age), messages, cwd and
 * title; a header row and titles cut to the terminal's width on a terminal.
 */
export function renderTable(
  sessions: readonly Discovered[],
  options: { color: boolean; columns: number | undefined; now: number },
): string {
  const paint = painter(options.color);
  const cwdOf = (s: Discovered) => (s.meta.cwd ? tildify(s.meta.cwd) : "-");
  // Ids as short as they stay unique here (at least 8 characters): OpenCode's
  // all begin `ses_` and a timestamp, so 8 would name several at once.
  const idWidth = uniquePrefixWidth(sessions.map((s) => s.id));
  const cells = sessions.map((s) => {
    const updated = timestampMillisOrZero(s.updated);
    return {
      id: forTerminal(s.id.slice(0, idWidth)),
      harness: forTerminal(harnessCell(s)),
      date: localDate(updated),
      age: age(options.now - updated),
      count: `${s.message_count} msg${s.message_count === 1 ? "" : "s"}`,
      cwd: forTerminal(cwdOf(s)),
      // A session its harness says is still running is marked where the eye lands.
      title: forTerminal(titleCell(s)),
    };
  });
  const header = {
    id: "ID",
    harness: "HARNESS",
    date: "UPDATED",
    age: "AGE",
    count: "MESSAGES",
    cwd: "CWD",
    title: "TITLE",
  };
  const all = options.columns !== undefined ? [header, ...cells] : cells;
  const w = (key: keyof typeof header) => Math.max(0, ...all.map((c) => width(c[key])));
  // One long cwd should not push every title far right.
  const cwdWidth = Math.min(40, w("cwd"));
  const widths = {
    id: idWidth,
    harness: w("harness"),
    date: w("date"),
    age: w("age"),
    count: w("count"),
    cwd: cwdWidth,
  };
  const before =
    widths.id + widths.harness + widths.date + widths.age + widths.count + widths.cwd + 2 * 6;
  const titleWidth =
    options.columns !== undefined ? Math.max(10, options.columns - before) : Infinity;
  const line = (c: typeof header, head: boolean) => {
    const style = head ? paint.dim : (t: string) => t;
    const parts = [
      head ? style(padEnd(c.id, widths.id)) : paint.bold(padEnd(c.id, widths.id)),
      style(padEnd(c.harness, widths.harness)),
      head ? style(padEnd(c.date, widths.date)) : paint.dim(padEnd(c.date, widths.date)),
      head ? style(padStart(c.age, widths.age)) : paint.dim(padStart(c.age, widths.age)),
      style(padStart(c.count, widths.count)),
      head
        ? style(padEnd(c.cwd, widths.cwd))
        : paint.cyan(padEnd(fitWidth(c.cwd, widths.cwd), widths.cwd)),
      style(Number.isFinite(titleWidth) ? fitWidth(c.title, titleWidth) : c.title),
    ];
    return parts.join("  ").trimEnd();
  };
  const lines = cells.map((c) => line(c, false));
  if (options.columns !== undefined && lines.length > 0) lines.unshift(line(header, true));
  return lines.length > 0 ? `${lines.join("\n")}\n` : "";
}
