/**
 * txcript completion bash|zsh|fish: shell completion scripts, generated
 * from the command tree by @bomb.sh/tab (which also answers the hidden
 * `complete -- ...` requests those scripts make). Session ids and harness
 * names are answered from the index, so completing an id reads no session.
 */

import tab from "@bomb.sh/tab/commander";
import type { Command } from "commander";
import { storedHarnesses } from "../../harness/index.js";
import { SessionIndex } from "../../index/index.js";
import type { Env } from "../../local.js";
import { TEXT_FORMS } from "../../transcript.js";

type Complete = (value: string, description: string) => void;

/** Session ids, newest first, with their titles; nothing (never an error) when the index cannot be read. */
export function completeIds(env: Env, complete: Complete): void {
  let index: SessionIndex | undefined;
  try {
    index = SessionIndex.open({ env });
    for (const s of index.ids()) complete(s.id, s.title ? `${s.harness}: ${s.title}` : s.harness);
  } catch {
    // completion must never print an error into the user's command line
  } finally {
    index?.close();
  }
}

/** Arguments that name a stored session, by command. */
const SESSION_ARGUMENTS: Record<string, string> = {
  view: "session",
  export: "session",
  continue: "source",
  delete: "session",
};

/** Call last: the completions are generated from the commands registered so far. */
export function register(program: Command): void {
  const root = tab(program, { completionCommandName: "completion" });
  const env = process.env as Env;
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
}
