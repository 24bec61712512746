/**
 * The forms of ids: whether one is a UUID, and the shortest prefixes that
 * tell the ids of a set apart. Apart from ids.ts, which mints UUIDv5s, so
 * that what only looks at ids (a probe, `list`'s table) loads no uuid
 * package and no node:crypto.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A UUID in its 8-4-4-4-12 hex form, either case. */
export function isUuid(id: string): boolean {
  return UUID.test(id);
}

/** The fewest characters a printed id is cut to: short enough to type, long enough to read. */
const SHORT_ID_MIN = 8;

/**
 * How many leading characters keep every id in `ids` apart (at least
 * {@link SHORT_ID_MIN}; the whole id when one is a prefix of another).
 * Codex ids are time-based and OpenCode's all begin `ses_` and a timestamp,
 * so a fixed 8 would name several sessions at once.
 */
export function uniquePrefixWidth(ids: Iterable<string>): number {
  const distinct = [...new Set(ids)].sort();
  let width = SHORT_ID_MIN;
  for (let i = 1; i < distinct.length; i++) {
    const a = distinct[i - 1] ?? "";
    const b = distinct[i] ?? "";
    let common = 0;
    while (common < a.length && common < b.length && a[common] === b[common]) common++;
    width = Math.max(width, Math.min(common + 1, Math.max(a.length, b.length)));
  }
  return width;
}

/**
 * A function that shortens each id of `ids` to the shortest prefix (at least
 * {@link SHORT_ID_MIN} characters) that no other id of the set shares: what
 * every door prints, so what it prints opens. Per id, not one width for all,
 * so one clash does not lengthen every row. Ids outside the set come back whole.
 */
export function shortener(ids: Iterable<string>): (id: string) => string {
  const distinct = [...new Set(ids)].sort();
  const widths = new Map<string, number>();
  distinct.forEach((id, i) => {
    const common = (other: string | undefined) => {
      if (other === undefined) return 0;
      let n = 0;
      while (n < id.length && n < other.length && id[n] === other[n]) n++;
      return n;
    };
    const shared = Math.max(common(distinct[i - 1]), common(distinct[i + 1]));
    widths.set(id, Math.min(id.length, Math.max(SHORT_ID_MIN, shared + 1)));
  });
  return (id) => id.slice(0, widths.get(id) ?? id.length);
}
