/**
 * Grouping a harness's events into Common messages, for harnesses that
 * record each tool result as an event of its own (Copilot CLI, pi). Pure.
 */

/**
 * One group per Common message: consecutive tool results share one (a
 * user message holding a turn's results), anything else is a message of
 * its own. `kind` says which an item is; undefined leaves it out. Each
 * group is yielded once it is whole: a caller that reads them one at a
 * time never holds them all (a huge session's).
 */
export function* resultGroups<T>(
  items: Iterable<T>,
  kind: (item: T) => "result" | "message" | undefined,
): Generator<T[]> {
  let results: T[] | undefined;
  for (const item of items) {
    const k = kind(item);
    if (k === undefined) continue;
    if (k === "result") {
      results ??= [];
      results.push(item);
      continue;
    }
    if (results !== undefined) yield results;
    results = undefined;
    yield [item];
  }
  if (results !== undefined) yield results;
}

/** How many groups (or items) an iterable yields, without holding them: a listing's message count. */
export function countOf(items: Iterable<unknown>): number {
  let n = 0;
  for (const _ of items) n++;
  return n;
}
