/**
 * The token estimate behind `max_tokens`, and the budget a page is cut to.
 * No tokenizer is exact for every client (Claude's and Gemini's are not
 * published; OpenAI's o200k is one model family's), so the estimate is a
 * stated heuristic that errs high: one token per CHARS_PER_TOKEN ASCII
 * characters, one per other code point. BPE tokenizers give English prose
 * about 4 ASCII characters a token and code or JSON about 3, and most
 * non-ASCII code points (CJK, emoji) one token or more; docs/mcp.md has the
 * reasoning and bench/mcp.bench.ts measures it. Pure.
 */

/** ASCII characters per estimated token. */
export const CHARS_PER_TOKEN = 3;

/** Characters and estimated tokens of some text: ASCII units, other code points. */
export interface Size {
  ascii: number;
  other: number;
}

function sizeOf(text: string, from = 0, to = text.length): Size {
  let ascii = 0;
  let other = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < 128) ascii++;
    // A surrogate pair is one code point: count its high half only.
    else if (c < 0xdc00 || c > 0xdfff) other++;
  }
  return { ascii, other };
}

function tokensOf(size: Size): number {
  return Math.ceil(size.ascii / CHARS_PER_TOKEN) + size.other;
}

export function estimateTokens(text: string): number {
  return tokensOf(sizeOf(text));
}

/** What one page may hold: characters, and estimated tokens when asked. */
export class Budget {
  private chars = 0;
  private size: Size = { ascii: 0, other: 0 };

  constructor(
    readonly maxChars: number,
    readonly maxTokens: number | undefined,
  ) {}

  get usedChars(): number {
    return this.chars;
  }

  get usedTokens(): number {
    return tokensOf(this.size);
  }

  get empty(): boolean {
    return this.chars === 0;
  }

  private fitsWith(chars: number, size: Size): boolean {
    if (this.chars + chars > this.maxChars) return false;
    if (this.maxTokens === undefined) return true;
    return (
      tokensOf({ ascii: this.size.ascii + size.ascii, other: this.size.other + size.other }) <=
      this.maxTokens
    );
  }

  /** Does text[from, to) fit in what is left? */
  fits(text: string, from = 0, to = text.length): boolean {
    if (this.chars + (to - from) > this.maxChars) return false;
    return this.maxTokens === undefined || this.fitsWith(to - from, sizeOf(text, from, to));
  }

  /** Count text[from, to) as used. */
  take(text: string, from = 0, to = text.length): void {
    this.chars += to - from;
    const s = sizeOf(text, from, to);
    this.size = { ascii: this.size.ascii + s.ascii, other: this.size.other + s.other };
  }

  /**
   * The furthest end e > from with text[from, e) fitting what is left,
   * never between the halves of a surrogate pair; `from` when nothing fits.
   */
  furthest(text: string, from: number): number {
    let end = Math.min(text.length, from + Math.max(0, this.maxChars - this.chars));
    if (this.maxTokens !== undefined) {
      const left = this.maxTokens;
      let ascii = this.size.ascii;
      let other = this.size.other;
      let i = from;
      for (; i < end; i++) {
        const c = text.charCodeAt(i);
        if (c < 128) ascii++;
        else if (c < 0xdc00 || c > 0xdfff) other++;
        if (Math.ceil(ascii / CHARS_PER_TOKEN) + other > left) break;
      }
      end = i;
    }
    if (end > from && end < text.length) {
      const c = text.charCodeAt(end - 1);
      if (c >= 0xd800 && c <= 0xdbff) end--;
    }
    return end;
  }
}
