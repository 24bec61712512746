/**
 * txcript completion bash|zsh|fish: shell completion scripts, generated
 * from the command tree by @bomb.sh/tab (which also answers the hidden
 * `complete -- ...` requests those scripts make). Session ids and harness
 * names are answered from the index, so completing an id reads no session.
 * We narrow its shells to the three we document and test, and make the
 * bash script safe to source more than once.
 */

import { script } from "@bomb.sh/tab";
import tab from "@bomb.sh/tab/commander";
import type { Command } from "commander";
import type { Env } from "../../env.js";
import { storedHarnesses } from "../../harness/index.js";
import { pathComponentProblem } from "../../paths.js";
import { Sessions } from "../../sessions/sessions.js";
import { TEXT_FORMS } from "../../transcript.js";
import { inlineForTerminal } from "../sanitize.js";

type Complete = (value: string, description: string) => void;

/** Session ids, newest first, with their titles; nothing (never an error) when the index cannot be read. */
export function completeIds(env: Env, complete: Complete): void {
  let sessions: Sessions | undefined;
  try {
    sessions = new Sessions({ env });
    for (const s of sessions.ids()) {
      // zsh and fish show the description: a title's escapes are shown, not obeyed; an id no command could take is not offered.
      if (pathComponentProblem(s.id) !== undefined) continue;
      complete(s.id, inlineForTerminal(s.title ? `${s.harness}: ${s.title}` : s.harness).trim());
    }
  } catch {
    // completion must never print an error into the user's command line
  } finally {
    sessions?.close();
  }
}

/** Arguments that name a stored session, by command. */
const SESSION_ARGUMENTS: Record<string, string> = {
  view: "session",
  export: "session",
  continue: "source",
  delete: "session",
};

export const SHELLS = ["bash", "zsh", "fish"] as const;
type Shell = (typeof SHELLS)[number];

/**
 * tab's bash script declares its directive constants `readonly`, so a
 * second `source` (a reloaded ~/.bashrc) fails with "readonly variable".
 * Each declaration becomes "declare it unless it is already set".
 */
export function rerunnableBash(script: string): string {
  return script.replace(
    /^readonly (\w+)=(\S+)$/gm,
    (_all, name: string, value: string) => `[[ -n \${${name}+set} ]] || readonly ${name}=${value}`,
  );
}

/** Call last: the completions are generated from the commands registered so far. */
export function register(program: Command): void {
  const root = tab(program, { completionCommandName: "completion" });
  const env = process.env;
  const stored = () => storedHarnesses().map((h) => h.id);
  const values: Record<string, () => readonly string[]> = {
    from: stored,
    with: stored,
    to: () => TEXT_FORMS,
    as: () => TEXT_FORMS,
  };
  for (const [name, command] of root.commands) {
    for (const [key, option] of command.options) {
      const list = values[key];
      if (list)
        option.handler = (complete) => {
          for (const v of list()) complete(v, "");
        };
    }
    const arg = SESSION_ARGUMENTS[name];
    const argument = arg ? command.arguments.get(arg) : undefined;
    if (argument) argument.handler = (complete) => completeIds(env, complete);
  }
  const command = program.commands.find((c) => c.name() === "completion");
  const shell = command?.registeredArguments[0];
  if (!command || !shell) return;
  command.description("print a shell completion script: bash, zsh or fish");
  shell.description = "the shell: bash, zsh or fish";
  shell.choices(SHELLS);
  command.action((chosen: Shell) => {
    // tab prints the script with console.log; collect it to post-process bash's.
    const lines: string[] = [];
    const log = console.log;
    console.log = (...parts: unknown[]) => lines.push(parts.map(String).join(" "));
    try {
      // The script only names the program: completions are asked of it at run time.
      script(chosen, program.name(), program.name());
    } finally {
      console.log = log;
    }
    const text = `${lines.join("\n")}\n`;
    process.stdout.write(chosen === "bash" ? rerunnableBash(text) : text);
  });
}
