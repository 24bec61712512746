/**
 * txcript delete <id>: remove a session from its store. Asks on a
 * terminal; elsewhere --yes is required.
 */

import { createInterface } from "node:readline/promises";
import type { Command } from "commander";
import type { HarnessId } from "../../transcript.js";
import { UsageError } from "../errors.js";
import { INTERRUPTED } from "../interrupt.js";
import { parseHarness } from "../options.js";
import { tell } from "../output.js";
import { forTerminal } from "../sanitize.js";
import { sessionsFor } from "../sessions.js";

export function register(program: Command): void {
  program
    .command("delete")
    .alias("rm")
    .description("delete a session from its harness's store")
    .argument("<session>", "an id or unique prefix")
    .option("--from <harness>", "look the id up in this harness only", parseHarness)
    .option("-y, --yes", "do not ask for confirmation")
    .action(async (ref: string, options: { from?: HarnessId; yes?: boolean }, command: Command) => {
      if (ref.includes("#")) throw new UsageError("delete takes a whole session, not a #range");
      const sessions = sessionsFor(command);
      const found = await sessions.resolve(ref, options.from);
      if (!options.yes) {
        if (!process.stdin.isTTY) {
          throw new UsageError(
            `refusing to delete ${found.id} without --yes when not on a terminal`,
          );
        }
        const rl = createInterface({ input: process.stdin, output: process.stderr });
        // readline takes Ctrl-C itself on a terminal: end as an interrupt does.
        rl.on("SIGINT", () => {
          rl.close();
          process.stderr.write("\nnot deleted\n");
          process.exit(INTERRUPTED);
        });
        // The title helps the user recognize it; a session too damaged to load can still go.
        let title = "";
        try {
          const t = (await sessions.load(found)).transcript.meta.title;
          if (t) title = ` "${t}"`;
        } catch {}
        let answer = "";
        try {
          answer = await rl.question(
            forTerminal(`delete ${found.harness} session ${found.id}${title}? [y/N] `),
          );
        } catch {
          // Ctrl-D (end of input) closes the prompt: that is not a yes.
          process.stderr.write("\n");
        }
        rl.close();
        if (!/^y(es)?$/i.test(answer.trim())) {
          tell("not deleted\n");
          return;
        }
      }
      const removed = await sessions.remove(found);
      tell(`deleted ${found.harness} session ${found.id}\n`);
      for (const path of removed) process.stdout.write(`${path}\n`);
    });
}
