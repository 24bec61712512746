/**
 * Terminal output: colors only on a terminal and never with NO_COLOR, a
 * pager for long output on a terminal ($PAGER, default `less -FRX`), and a
 * progress line on stderr for slow scans.
 */

import pc from "picocolors";
import { parse as shellParse } from "shell-quote";
import { childProcess } from "../builtins.js";
import { progressAfterMs } from "../env.js";
import { WRITE_BATCH } from "../fsx.js";
import type { Painter } from "../render/text.js";
import { Utf8Batches } from "../utf8-batches.js";
import { childStarted, onInterrupt } from "./interrupt.js";
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

function isIterable(value: unknown): value is Iterable<unknown> {
  return (
    typeof value === "object" &&
    value !== null &&
    Symbol.iterator in value &&
    typeof value[Symbol.iterator] === "function"
  );
}

/** How many items of a top-level array `jsonChunks` stringifies in one call. */
const JSON_BATCH = 128;

/**
 * `JSON.stringify(doc, null, 2)` and a newline, the same text, in pieces:
 * the items of a top-level array (given as any iterable, made as it is
 * written) are stringified a batch at a time, so a 20,000-session listing
 * is never one string (bench/scale: the warm `list --json`'s peak RSS). A
 * batch is stringified inside `{key: batch}`, which puts its items at the
 * depth they have in the document, and cut out of that: no re-indenting.
 */
export function* jsonChunks(doc: Readonly<Record<string, unknown>>): Generator<string> {
  const indent = (text: string, by: string) => text.replaceAll("\n", `\n${by}`);
  let open = "{";
  for (const [key, value] of Object.entries(doc)) {
    const head = `${open}\n  ${JSON.stringify(key)}: `;
    if (isIterable(value)) {
      // `{\n  "key": [\n` before the items and `\n  ]\n}` after them.
      const cut = [head.length - open.length + 3, 6] as const;
      let sep = `${head}[\n`;
      let batch: unknown[] = [];
      const items = function* () {
        // An item JSON.stringify cannot write (undefined, a function) is null in an array.
        const text = JSON.stringify({ [key]: batch }, null, 2);
        yield `${sep}${text.slice(cut[0], -cut[1])}`;
        sep = ",\n";
        batch = [];
      };
      for (const item of value) {
        batch.push(item);
        if (batch.length === JSON_BATCH) yield* items();
      }
      if (batch.length > 0) yield* items();
      yield sep === ",\n" ? "\n  ]" : `${head}[]`;
    } else {
      const text = JSON.stringify(value, null, 2);
      if (text === undefined) continue; // left out, as JSON.stringify leaves it out
      yield `${head}${indent(text, "  ")}`;
    }
    open = ",";
  }
  yield open === "{" ? "{}\n" : "\n}\n";
}

/**
 * Write pieces of text to stdout in batches of about a megabyte, so that
 * output far larger than one string can hold streams out. (On POSIX,
 * writes to files, pipes and terminals are synchronous: nothing piles up.)
 * The batches are encoded as the pieces come (`Utf8Batches`), never
 * gathered as a string.
 */
export function writeChunks(chunks: Iterable<string>): void {
  // A write to a file, or one a pipe or terminal took whole, keeps nothing;
  // one the stream queued holds the buffer until it is written.
  const out = process.stdout;
  const batches = new Utf8Batches(
    (data) => out.write(data),
    () => out.writableLength > 0,
  );
  for (const chunk of chunks) batches.write(chunk);
  batches.end();
}

/**
 * Pieces of text (already made safe for a terminal) to stdout. On a
 * terminal with paging allowed, output longer than one screen goes through
 * $PAGER (default `less`, with LESS=FRX): the pager starts as soon as the
 * first screen is rendered and the rest streams into its stdin as it is
 * rendered, so no output is ever held as one string (a huge session's page
 * can exceed V8's longest string). Shorter output, and all output when
 * paging is off or stdout is not a terminal, is written directly.
 */
export async function writePagedChunks(
  pieces: Iterable<string>,
  env: Env,
  usePager: boolean,
): Promise<void> {
  const out = process.stdout;
  if (!usePager || !out.isTTY) {
    writeChunks(pieces);
    return;
  }
  const rows = out.rows || 24;
  const it = pieces[Symbol.iterator]();
  // Held until the output is known to be longer than a screen.
  const head: string[] = [];
  let lines = 0;
  for (;;) {
    const next = it.next();
    if (next.done) {
      writeChunks(head);
      return;
    }
    head.push(next.value);
    lines += newlines(next.value);
    if (lines > rows - 1) break;
  }
  const all = (function* () {
    yield* head.splice(0);
    for (let next = it.next(); !next.done; next = it.next()) yield next.value;
  })();
  const argv = shellParse(env.PAGER ?? "less").filter((t): t is string => typeof t === "string");
  const [program = "less", ...args] = argv;
  // A pager that cannot be started: the output goes to the terminal as it is.
  if (!(await pageInto(program, args, env, all))) writeChunks(all);
}

function newlines(text: string): number {
  let n = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/**
 * Stream `pieces` into the stdin of `program` (a pager on this terminal) a
 * batch (WRITE_BATCH) at a time, waiting while the pager reads; when it quits
 * early (the reader is done), rendering stops there. Resolves false, having
 * consumed nothing, when the program cannot be started; true once it has
 * exited. Ctrl-C belongs to the pager while it runs.
 */
async function pageInto(
  program: string,
  args: string[],
  env: Env,
  pieces: Iterator<string>,
): Promise<boolean> {
  const child = childProcess().spawn(program, args, {
    stdio: ["pipe", "inherit", "inherit"],
    env: { ...env, LESS: env.LESS ?? "FRX" },
  });
  const started = await new Promise<boolean>((resolve) => {
    child.once("spawn", () => resolve(true));
    child.once("error", () => resolve(false));
  });
  if (!started) return false;
  const done = childStarted();
  const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
  const stdin = child.stdin;
  let closed = false;
  // The pager quitting before the end (EPIPE) is the reader being done, not a failure.
  const close = () => {
    closed = true;
  };
  stdin.on("error", close);
  stdin.on("close", close);
  const room = () =>
    new Promise<void>((resolve) => {
      const go = () => {
        stdin.off("drain", go);
        stdin.off("close", go);
        resolve();
      };
      stdin.on("drain", go);
      stdin.on("close", go);
    });
  let batch = "";
  for (let next = pieces.next(); !next.done && !closed; next = pieces.next()) {
    batch += next.value;
    if (batch.length < WRITE_BATCH) continue;
    const more = stdin.write(batch);
    batch = "";
    if (!more && !closed) await room();
  }
  if (!closed) stdin.end(batch);
  await exited;
  done();
  return true;
}

/** A message for the user on stderr, with control characters made visible. */
export function tell(text: string): void {
  process.stderr.write(forTerminal(text));
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
    private readonly delayMs = progressAfterMs(process.env),
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
