/**
 * agy's per-conversation annotation, `annotations/<id>.pbtxt`: a protobuf
 * text-format message whose `title` field is the title agy's picker shows
 * (generated at creation since agy 1.1.21, replaced by a rename), beside
 * fields such as `last_user_view_time {seconds nanos}`. This module reads
 * the title out of that text and renders a title-only annotation; the store
 * moves the file, verbatim, and does no parsing. No I/O here.
 */

/** The annotation's title: its first top-level `title` string field, when not blank. */
export function annotationTitle(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const lexer = new Lexer(text);
  let depth = 0;
  for (;;) {
    const token = lexer.next();
    if (token === undefined) return undefined;
    if (token.kind === "open") depth++;
    else if (token.kind === "close") depth = Math.max(0, depth - 1);
    else if (token.kind === "ident" && token.text === "title" && depth === 0) {
      let value = lexer.next();
      if (value?.kind === "colon") value = lexer.next();
      if (value?.kind === "open") depth++; // `title { … }`: not the field we know
      if (value?.kind !== "string") continue;
      const parts = [value.bytes];
      // Adjacent string literals concatenate, as in protobuf text format.
      while (lexer.peekKind() === "string") {
        const more = lexer.next();
        if (more?.kind === "string") parts.push(more.bytes);
      }
      // ignoreBOM: a title that starts with U+FEFF keeps it.
      const title = new TextDecoder("utf-8", { ignoreBOM: true }).decode(concat(parts));
      return title.trim() === "" ? undefined : title;
    }
  }
}

/**
 * A title-only annotation, as agy writes the field: `title: "<text>"` and a
 * newline. Quotes, backslashes and control characters are escaped; other
 * text, non-ASCII included, is written as UTF-8.
 */
export function renderAnnotation(title: string): string {
  let out = 'title: "';
  for (const ch of title) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '"') out += '\\"';
    else if (ch === "\\") out += "\\\\";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, "0")}`;
    else out += ch;
  }
  return `${out}"\n`;
}

/**
 * The annotation a save writes over `existing`: `written`'s fields, then
 * every top-level field of `existing` other than the title whose name
 * `written` does not have
 * (agy keeps `last_user_view_time` and the like there; a continue that
 * replaces the conversation must not drop them). Empty when neither has a
 * field. Text that does not parse as fields is kept as it is.
 */
export function mergeAnnotation(existing: string | undefined, written: string | undefined): string {
  const mine = written ?? "";
  if (existing === undefined || existing.trim() === "") return mine;
  // The title is the writer's: an untitled save removes the old one.
  const names = new Set(["title", ...topLevelFields(mine).map((f) => f.name)]);
  const kept = topLevelFields(existing)
    .filter((f) => !names.has(f.name))
    .map((f) => existing.slice(f.start, f.end));
  if (kept.length === 0) return mine;
  const head = mine === "" || mine.endsWith("\n") ? mine : `${mine}\n`;
  return `${head}${kept.join("\n")}\n`;
}

interface FieldSpan {
  name: string;
  start: number;
  end: number;
}

/** Each top-level `name: value` or `name { … }`, with its span in the text. */
function topLevelFields(text: string): FieldSpan[] {
  const lexer = new Lexer(text);
  const out: FieldSpan[] = [];
  for (;;) {
    const token = lexer.next();
    if (token === undefined) return out;
    if (token.kind !== "ident") continue;
    const start = lexer.start;
    let value = lexer.next();
    if (value?.kind === "colon") value = lexer.next();
    if (value === undefined) return out;
    if (value.kind === "open") {
      // A message value: to its matching close (or the end of the text).
      let depth = 1;
      while (depth > 0) {
        const t = lexer.next();
        if (t === undefined) break;
        if (t.kind === "open") depth++;
        else if (t.kind === "close") depth--;
      }
    } else if (value.kind === "string") {
      while (lexer.peekKind() === "string") lexer.next();
    }
    out.push({ name: token.text, start, end: lexer.at });
  }
}

type Token =
  | { kind: "ident"; text: string }
  | { kind: "string"; bytes: Uint8Array }
  | { kind: "colon" | "open" | "close" | "other" };

const SIMPLE_ESCAPES: Record<string, number> = {
  n: 0x0a,
  t: 0x09,
  r: 0x0d,
  a: 0x07,
  b: 0x08,
  f: 0x0c,
  v: 0x0b,
  "\\": 0x5c,
  "'": 0x27,
  '"': 0x22,
  "?": 0x3f,
};

/** A tolerant protobuf text-format tokenizer: anything it does not know is `other`. */
class Lexer {
  private i = 0;
  /** Where the last token returned by `next` began. */
  start = 0;
  private readonly encoder = new TextEncoder();
  constructor(private readonly text: string) {}

  /** Where the next token's search begins: just past the last one. */
  get at(): number {
    return this.i;
  }

  peekKind(): Token["kind"] | undefined {
    const at = this.i;
    const start = this.start;
    const token = this.next();
    this.i = at;
    this.start = start;
    return token?.kind;
  }

  next(): Token | undefined {
    const s = this.text;
    for (;;) {
      while (this.i < s.length && /\s|,|;/.test(s.charAt(this.i))) this.i++;
      if (s.charAt(this.i) === "#") {
        while (this.i < s.length && s.charAt(this.i) !== "\n") this.i++;
        continue;
      }
      break;
    }
    this.start = this.i;
    if (this.i >= s.length) return undefined;
    const ch = s.charAt(this.i);
    if (ch === ":") {
      this.i++;
      return { kind: "colon" };
    }
    if (ch === "{" || ch === "<" || ch === "[") {
      this.i++;
      return { kind: "open" };
    }
    if (ch === "}" || ch === ">" || ch === "]") {
      this.i++;
      return { kind: "close" };
    }
    if (ch === '"' || ch === "'") return this.string(ch);
    const word = /^[A-Za-z0-9_.+-]+/.exec(s.slice(this.i, this.i + 256));
    if (word) {
      this.i += word[0].length;
      return /^[A-Za-z_]/.test(word[0]) ? { kind: "ident", text: word[0] } : { kind: "other" };
    }
    this.i++;
    return { kind: "other" };
  }

  /** A quoted literal, escapes resolved to bytes (`\x`, octal) or code points (`\u`, `\U`). */
  private string(quote: string): Token {
    const s = this.text;
    const bytes: number[] = [];
    const pushText = (text: string) => {
      for (const b of this.encoder.encode(text)) bytes.push(b);
    };
    this.i++;
    while (this.i < s.length) {
      const ch = s.charAt(this.i);
      if (ch === quote) {
        this.i++;
        break;
      }
      if (ch === "\n") break; // an unterminated literal ends at its line
      if (ch !== "\\") {
        const point = s.codePointAt(this.i) ?? 0;
        const text = String.fromCodePoint(point);
        pushText(text);
        this.i += text.length;
        continue;
      }
      const e = s.charAt(this.i + 1);
      this.i += 2;
      const simple = SIMPLE_ESCAPES[e];
      if (simple !== undefined) bytes.push(simple);
      else if (e === "x" || e === "X") {
        const hex = /^[0-9A-Fa-f]{1,2}/.exec(s.slice(this.i, this.i + 2));
        if (hex) {
          bytes.push(Number.parseInt(hex[0], 16));
          this.i += hex[0].length;
        }
      } else if (/[0-7]/.test(e)) {
        const oct = /^[0-7]{0,2}/.exec(s.slice(this.i, this.i + 2))?.[0] ?? "";
        bytes.push(Number.parseInt(e + oct, 8) & 0xff);
        this.i += oct.length;
      } else if (e === "u" || e === "U") {
        const n = e === "u" ? 4 : 8;
        const hex = s.slice(this.i, this.i + n);
        const point = /^[0-9A-Fa-f]+$/.test(hex) ? Number.parseInt(hex, 16) : Number.NaN;
        if (hex.length === n && point <= 0x10ffff) {
          pushText(String.fromCodePoint(point));
          this.i += n;
        }
      } else if (e !== "") pushText(e);
    }
    return { kind: "string", bytes: Uint8Array.from(bytes) };
  }
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
