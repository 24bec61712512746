/**
 * Terminal output: colors only on a terminal and never with NO_COLOR, a
 * pager for long output on a terminal ($PAGER, default `less -FRX`), and a
 * progress line on stderr for slow scans.
 */

import pc from "picocolors";
import { parse as shellParse } from "shell-quote";
import { childProcess } from "../builtins.js";
import type { Painter } from "../render/text.js";
import { onInterrupt } from "./interrupt.js";
import { forTerminal } from "./sanitize.js";

export type Env = Readonly<Record<string, string | undefined>>;

export function colorEnabled(stream: NodeJS.WriteStream, env: Env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.TERM === "dumb") return false;
  return stream.isTTY === true;
}

/**
 * Colors for terminal output. Every piece is made safe for a terminal
 * before it is colored, so the only escape sequences printed are the
 * painter's own.
 */
export function painter(enabled: boolean): Painter {
  const c = pc.createColors(enabled);
  const safe =
    (color: (s: string) => string) =>
    (s: string): string =>
      color(forTerminal(s));
  return {
    bold: safe(c.bold),
    dim: safe(c.dim),
    red: safe(c.red),
    green: safe(c.green),
    cyan: safe(c.cyan),
    yellow: safe(c.yellow),
    magenta: safe(c.magenta),
    text: forTerminal,
  };
}

/**
 * Write pieces of text to stdout in batches of about a megabyte, so that
 * output far larger than one string can hold streams out. (On POSIX,
 * writes to files, pipes and terminals are synchronous: nothing piles up.)
 */
export function writeChunks(chunks: Iterable<string>): void {
  let batch = "";
  for (const chunk of chunks) {
    batch += chunk;
    if (batch.length >= 1 << 20) {
      process.stdout.write(batch);
      batch = "";
    }
  }
  if (batch !== "") process.stdout.write(batch);
}

/**
 * Pieces of text (already made safe for a terminal) to stdout: through the
 * pager as `writePaged` does when it may page (a terminal), else streamed
 * as they come, so that output longer than one string can hold is written.
 */
export function writePagedChunks(pieces: Iterable<string>, env: Env, usePager: boolean): void {
  if (usePager && process.stdout.isTTY) writePaged([...pieces].join(""), env, usePager);
  else writeChunks(pieces);
}

/** A message for the user on stderr, with control characters made visible. */
export function tell(text: string): void {
  process.stderr.write(forTerminal(text));
}

/** Write `text` (already made safe for a terminal) to stdout, paged when long on a terminal. */
function writePaged(text: string, env: Env, usePager: boolean): void {
  const out = process.stdout;
  const rows = out.rows || 24;
  const lines = text.length > 0 ? text.split("\n").length - 1 : 0;
  if (usePager && out.isTTY && lines > rows - 1) {
    const argv = shellParse(env.PAGER ?? "less").filter((t): t is string => typeof t === "string");
    const [program = "less", ...args] = argv;
    const r = childProcess().spawnSync(program, args, {
      input: text,
      stdio: ["pipe", "inherit", "inherit"],
      env: { ...env, LESS: env.LESS ?? "FRX" },
    });
    if (!r.error && r.status === 0) return;
  }
  out.write(text);
}

/**
 * A progress line on stderr, shown only on a terminal and only once the
 * work has taken longer than half a second. Discovery is synchronous, so
 * an animated spinner (which needs the event loop) would never move: the
 * line is redrawn from the scan's own progress callback instead.
 */
export class Progress {
  private readonly start = Date.now();
  private lastDraw = 0;
  private drawn = false;
  private forget: (() => void) | undefined;

  constructor(
    private readonly stream: Pick<NodeJS.WriteStream, "isTTY" | "write"> = process.stderr,
    private readonly delayMs = 500,
  ) {}

  update(text: string): void {
    if (!this.stream.isTTY) return;
    const now = Date.now();
    if (now - this.start < this.delayMs || now - this.lastDraw < 80) return;
    this.lastDraw = now;
    this.drawn = true;
    // A Ctrl-C must not leave the line behind.
    this.forget ??= onInterrupt(() => this.done());
    this.stream.write(`\r\x1b[K${text}`);
  }

  /** A line that stays (on a terminal or not), above the progress line if one is drawn. */
  note(line: string): void {
    this.stream.write(`${this.drawn ? "\r\x1b[K" : ""}${forTerminal(line)}\n`);
    this.drawn = false;
  }

  done(): void {
    if (this.drawn) this.stream.write("\r\x1b[K");
    this.drawn = false;
    this.forget?.();
    this.forget = undefined;
  }
}
