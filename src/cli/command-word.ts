/**
 * Which command a command line names, read one way by main.ts (which
 * bundle to run) and program.ts (which command to load): the first word
 * that is a command's name and is neither an option nor the value of a
 * global option (`--cache DIR`, `--codex-root DIR`).
 */

/** Every command's names, primary name first, in help order; `completion` stays last (it reads the others). */
export const COMMAND_NAMES = [
  ["list", "ls"],
  ["query", "search"],
  ["pick"],
  ["usage"],
  ["view", "show"],
  ["export"],
  ["continue"],
  ["convert"],
  ["delete", "rm"],
  ["mcp"],
  ["archive"],
  ["serve"],
  ["completion", "complete"],
] as const;

export type CommandName = (typeof COMMAND_NAMES)[number][0];

/** The primary name of the command `args` (user arguments) names, if any. */
export function namedCommand(args: readonly string[]): CommandName | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? "";
    if (a.startsWith("-") || /^--(cache|[a-z-]+-root)$/.test(args[i - 1] ?? "")) continue;
    const names = COMMAND_NAMES.find((n) => n.some((name) => name === a));
    if (names) return names[0];
  }
  return undefined;
}
