/**
 * txcript completion bash|zsh|fish: shell completion scripts, generated
 * from the command tree by @bomb.sh/tab (which also answers the hidden
 * `complete -- ...` requests those scripts make).
 */

import tab from "@bomb.sh/tab/commander";
import type { Command } from "commander";

/** Call last: the completions are generated from the commands registered so far. */
export function register(program: Command): void {
  tab(program, { completionCommandName: "completion" });
}
