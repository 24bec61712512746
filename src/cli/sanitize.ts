/**
 * What may reach a terminal from a session: every control character that a
 * terminal would act on (C0 but newline and tab, DEL, C1, and the bidi
 * controls that reorder what is shown) is replaced by a visible stand-in,
 * so a title or message holding OSC 52 (clipboard), OSC 0 (window title) or
 * CSI sequences is shown, not obeyed. JSON, HTML and files keep the text
 * as it is; only human-readable output on stdout and stderr passes here.
 */

const UNSAFE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
  /\r\n|[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function standIn(c: string): string {
  if (c === "\r\n") return "\n";
  const code = c.charCodeAt(0);
  // C0 and DEL have Unicode "control pictures" (␛ for ESC); the rest are spelled out.
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return "\u2421";
  return `<U+${code.toString(16).toUpperCase().padStart(4, "0")}>`;
}

/** `text` with everything a terminal would interpret made visible; newlines and tabs kept. */
export function forTerminal(text: string): string {
  UNSAFE.lastIndex = 0;
  // Most text holds none: skip the copy.
  if (!UNSAFE.test(text)) return text;
  UNSAFE.lastIndex = 0;
  return text.replace(UNSAFE, standIn);
}

/**
 * `forTerminal` over a stream of pieces: joined, the result is exactly
 * `forTerminal` of the joined pieces (a "\r" that ends a piece waits for
 * the next, since "\r\n" is one line break).
 */
export function* forTerminalChunks(pieces: Iterable<string>): Generator<string> {
  let carry = "";
  for (const piece of pieces) {
    const text = carry + piece;
    carry = text.endsWith("\r") ? "\r" : "";
    const safe = forTerminal(carry ? text.slice(0, -1) : text);
    if (safe !== "") yield safe;
  }
  if (carry) yield forTerminal(carry);
}

/** One line for a terminal: control characters made visible, line breaks and runs of whitespace as one space. */
export function oneLineForTerminal(text: string): string {
  return forTerminal(text.replace(/\s*[\r\n]+\s*/g, " ")).trim();
}

/** A piece of one line for a terminal: control characters made visible, every run of whitespace (tabs, line breaks) as one space; not trimmed. */
export function inlineForTerminal(text: string): string {
  return forTerminal(text.replace(/\s+/g, " "));
}
