/**
 * Text as verbatim lines: each line's exact text and exact terminator, so
 * that `joinLines(Lines.split(t)) === t` for every string (CRLF, a missing
 * final newline and blank lines included). Imports nothing, so the types
 * (`TextCodec.parseLines` in src/transcript.ts) reach the browser build;
 * src/lines.ts re-exports it beside the line-count limit.
 */

type LineEnding = "" | "\n" | "\r\n";

/** Where each line starts (see `lineStarts`). */
type Bounds = Uint32Array | Float64Array;

export interface VerbatimLine {
  /** The line without its terminator. */
  text: string;
  /** The terminator that followed it; "" only on a last line without one. */
  eol: LineEnding;
}

/** UTF-8 as `readFileSync(path, "utf8")` decodes it: a byte-order mark is kept, bad bytes become U+FFFD. */
const UTF8 = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * A text's verbatim lines, held as the text (or its UTF-8 bytes) they were
 * split from and where each line starts: a line's text is made when it is
 * asked for, so a huge session's lines cost about its file's size, not a
 * string (and an object) per line beside it. Bytes are decoded a line at
 * a time, so one non-Latin-1 character widens its own line only, never the
 * whole file. The lines a writer makes are held as they are, or made
 * afresh each time they are walked (`generated`).
 */
export class Lines implements Iterable<VerbatimLine> {
  // Fields private to the class (`#`): Lines compare equal (vitest's `toEqual`) by their lines alone.
  readonly #source: string | Uint8Array | readonly VerbatimLine[] | Generate;
  /** `bounds[i]` is where line i starts, `bounds[length]` where the text ends. */
  readonly #bounds: Bounds | undefined;
  /** A generated source's lines, gathered the first time one is asked for by number. */
  #gathered: readonly VerbatimLine[] | undefined;

  private constructor(
    source: string | Uint8Array | readonly VerbatimLine[] | Generate,
    bounds: Bounds | undefined,
  ) {
    this.#source = source;
    this.#bounds = bounds;
  }

  /** Lines held as they are (a writer's). */
  static of(lines: readonly VerbatimLine[]): Lines {
    return new Lines(lines, undefined);
  }

  /**
   * Lines that `make` writes anew on each walk, never held: what a codec
   * gives a store to save, so that a huge session's native lines are
   * written as they are made, not gathered beside the Common transcript
   * they come from. `make` must give the same lines every time (a codec
   * is pure). Asking for a line by number or for the count (`at`, `text`,
   * `length`) gathers them all once, and holds them from then on.
   */
  static generated(make: () => Iterable<VerbatimLine>): Lines {
    return new Lines(new Generate(make), undefined);
  }

  /** The lines of a text (`joinLines` gives it back). */
  static split(text: string): Lines {
    return new Lines(
      text,
      lineStarts(text.length, (from) => text.indexOf("\n", from)),
    );
  }

  /** The lines of UTF-8 bytes: the same lines as `split` of their decoding. */
  static fromBytes(bytes: Uint8Array): Lines {
    return new Lines(
      bytes,
      lineStarts(bytes.length, (from) => bytes.indexOf(10, from)),
    );
  }

  get length(): number {
    const source = this.#source;
    const bounds = this.#bounds;
    if (bounds !== undefined) return bounds.length - 1;
    if (source instanceof Generate) return this.gather().length;
    return Array.isArray(source) ? source.length : 0;
  }

  /** A generated source's lines, gathered once; a held source's as they are. */
  private gather(): readonly VerbatimLine[] {
    const source = this.#source;
    if (!(source instanceof Generate)) return [];
    this.#gathered ??= [...source.make()];
    return this.#gathered;
  }

  /** Line `i` (from the end when negative, as `Array.prototype.at`), or undefined past the ends. */
  at(index: number): VerbatimLine | undefined {
    const source = this.#source;
    const bounds = this.#bounds;
    const i = index < 0 ? index + this.length : index;
    if (i < 0 || i >= this.length) return undefined;
    if (typeof source === "string") {
      const [end, eol] = lineEnd(bounds, i, (k) => source.charCodeAt(k));
      return { text: source.slice(bounds?.[i] ?? 0, end), eol };
    }
    if (source instanceof Uint8Array) {
      const [end, eol] = lineEnd(bounds, i, (k) => source[k] ?? 0);
      return { text: UTF8.decode(source.subarray(bounds?.[i] ?? 0, end)), eol };
    }
    return source instanceof Generate ? this.gather()[i] : source[i];
  }

  /** Line `i`'s text ("" past the end). */
  text(i: number): string {
    return this.at(i)?.text ?? "";
  }

  *[Symbol.iterator](): Generator<VerbatimLine> {
    const source = this.#source;
    if (source instanceof Generate) {
      // Made afresh unless already gathered: a walk holds one line at a time.
      yield* this.#gathered ?? source.make();
      return;
    }
    for (let i = 0; i < this.length; i++) {
      const line = this.at(i);
      if (line !== undefined) yield line;
    }
  }
}

/** How generated lines are made: a class, so that `instanceof` tells it from a held source. */
class Generate {
  constructor(readonly make: () => Iterable<VerbatimLine>) {}
}

/**
 * Where each line starts, and the end, in a typed array sized by a first
 * count: no list of numbers grown beside the text. Four bytes a line while
 * offsets fit 32 bits (every file a store reads whole), else eight.
 */
function lineStarts(size: number, nextNewline: (from: number) => number): Bounds {
  let n = 1;
  let last = 0;
  for (let nl = nextNewline(0); nl !== -1; nl = nextNewline(nl + 1)) {
    n++;
    last = nl + 1;
  }
  if (last !== size) n++;
  const starts = size <= 0xffffffff ? new Uint32Array(n) : new Float64Array(n);
  let k = 1;
  for (let nl = nextNewline(0); nl !== -1; nl = nextNewline(nl + 1)) starts[k++] = nl + 1;
  if (k < n) starts[k] = size;
  return starts;
}

/** Where line `i`'s text ends and the terminator after it, from the code of each unit. */
function lineEnd(
  bounds: Bounds | undefined,
  i: number,
  code: (k: number) => number,
): [number, LineEnding] {
  const start = bounds?.[i] ?? 0;
  const next = bounds?.[i + 1] ?? start;
  if (next === start || code(next - 1) !== 10) return [next, ""];
  return next - 1 > start && code(next - 2) === 13 ? [next - 2, "\r\n"] : [next - 1, "\n"];
}

export function joinLines(lines: Iterable<VerbatimLine>): string {
  let out = "";
  for (const line of lines) out += line.text + line.eol;
  return out;
}

/**
 * The same text as `joinLines`, a line at a time: what a store writes, so
 * that a huge session's file is never one string in memory (nor a string
 * longer than V8 can hold).
 */
export function* linePieces(lines: Iterable<VerbatimLine>): Generator<string> {
  for (const line of lines) yield line.text + line.eol;
}
