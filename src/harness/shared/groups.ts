/**
 * Grouping a harness's events into Common messages, for harnesses that
 * record each tool result as an event of its own (Copilot CLI, pi). Pure.
 */

/**
 * One group per Common message: consecutive tool results share one (a
 * user message holding a turn's results), anything else is a message of
 * its own. `kind` says which an item is; undefined leaves it out.
 */
export function groupResults<T>(
  items: Iterable<T>,
  kind: (item: T) => "result" | "message" | undefined,
): T[][] {
  const groups: T[][] = [];
  let results: T[] | undefined;
  for (const item of items) {
    const k = kind(item);
    if (k === undefined) continue;
    if (k === "result") {
      if (results === undefined) {
        results = [];
        groups.push(results);
      }
      results.push(item);
      continue;
    }
    results = undefined;
    groups.push([item]);
  }
  return groups;
}
