/**
 * What a long text build says before it starts (`IndexOptions.note`): one
 * line, so the first `query` or `usage` on a machine does not sit silent.
 */

/**
 * A text refresh reading this many sessions or more says so first:
 * bench/scale measures 10–18 ms a session (2 cores under load; a few ms
 * idle), so such a build runs for a second or longer.
 */
const NOTE_FROM = 200;

/** The line for a text refresh of `count` sessions into the index at `path` (undefined: in memory), if any. */
export function buildNote(count: number, path: string | undefined): string | undefined {
  if (count < NOTE_FROM) return undefined;
  const n = count.toLocaleString("en-US");
  return path === undefined
    ? `reading the text of ${n} sessions for search and usage (no index this run: the next run reads them again)`
    : `indexing the text of ${n} sessions for search and usage, once: later runs reuse the index (${path})`;
}
