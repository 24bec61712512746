/** Small string helpers shared by codecs and stores (pure: no I/O). */

/** `value` unless it is missing or empty. */
export function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}

/**
 * A prompt as a session title: whitespace runs collapsed to one space,
 * trimmed, and cut to `max` code points (`max - 1` and `…`) so that a cut
 * never splits a surrogate pair. Undefined when nothing is left.
 */
export function oneLineTitle(text: string, max: number): string | undefined {
  const line = text.replace(/\s+/gu, " ").trim();
  if (line === "") return undefined;
  const points = Array.from(line);
  return points.length <= max
    ? line
    : `${points
        .slice(0, max - 1)
        .join("")
        .trimEnd()}…`;
}

/** How long a title taken from a prompt may be, in code points (Claude Code's and Codex's cut). */
export const PROMPT_TITLE_MAX = 120;

/**
 * The title of a session its harness left untitled: the first user message
 * with any text, its text pieces joined, on one line (oneLineTitle). Takes
 * each user message as its text pieces, so a store can give them from
 * native rows and a codec from Common blocks, and both name it alike.
 */
export function firstPromptTitle(
  userTexts: Iterable<readonly string[]>,
  max = PROMPT_TITLE_MAX,
): string | undefined {
  for (const texts of userTexts) {
    const line = oneLineTitle(texts.join(" "), max);
    if (line !== undefined) return line;
  }
  return undefined;
}

/** firstPromptTitle over Common messages: their text blocks. */
export function promptTitle(
  body: readonly { role: string; content: readonly { type: string; text?: unknown }[] }[],
  max = PROMPT_TITLE_MAX,
): string | undefined {
  function* users() {
    for (const m of body)
      if (m.role === "user")
        yield m.content.flatMap((b) =>
          b.type === "text" && typeof b.text === "string" ? [b.text] : [],
        );
  }
  return firstPromptTitle(users(), max);
}
