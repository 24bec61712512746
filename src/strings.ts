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
