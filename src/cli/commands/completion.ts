/**
 * txcript completion bash|zsh|fish: shell completion scripts, generated
 * from the command tree by @bomb.sh/tab (which also answers the hidden
 * `complete -- ...` requests those scripts make). We narrow its shells to
 * the three we document and test, and make the bash script safe to source
 * more than once.
 */

import { script } from "@bomb.sh/tab";
import tab from "@bomb.sh/tab/commander";
import type { Command } from "commander";

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
  tab(program, { completionCommandName: "completion" });
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
