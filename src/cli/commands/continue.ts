/**
 * txcript continue <id|file|->[#range] --with H: write a copy of a session
 * or document into a harness's store, print the new id and the resume
 * command, and on a terminal launch it.
 */

import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import type { Command } from "commander";
import which from "which";
import type { Origin } from "../../copies.js";
import { harness } from "../../harness/index.js";
import { defined } from "../../json.js";
import { resumeLine } from "../../sessions/resume.js";
import type { HarnessId, TextForm } from "../../transcript.js";
import { addArchiveOptions } from "../archive.js";
import { collectGarbage } from "../collect.js";
import { isDocument, resolveSource, selected } from "../context.js";
import { UsageError } from "../errors.js";
import { childStarted, INTERRUPTED, uninterrupted } from "../interrupt.js";
import { parseHarness, parseTextForm } from "../options.js";
import { tell } from "../output.js";
import { forTerminal } from "../sanitize.js";
import { sessionsFor } from "../sessions.js";

interface ContinueOptions {
  with?: HarnessId;
  from?: HarnessId;
  as?: TextForm;
  out?: string;
  surface?: Surface;
  resume: boolean;
}

/** Antigravity's surfaces a copy can be written for (docs/formats/antigravity.md, "Surfaces"). */
type Surface = "cli" | "desktop";

function parseSurface(value: string): Surface {
  if (value === "cli" || value === "desktop") return value;
  throw new UsageError(`unknown surface ${JSON.stringify(value)} (expected cli or desktop)`);
}

/** One argument as a POSIX shell word (the quoting every door's resume line uses). */
export { shellWord } from "../../sessions/resume.js";

/**
 * Run the harness on this terminal and wait for it; Ctrl-C is its own
 * while it runs. Resolves with its exit status.
 */
function launchHarness(
  program: string,
  args: string[],
  cwd: string | undefined,
  env: Record<string, string> | undefined,
): Promise<number> {
  const done = childStarted();
  return new Promise((resolve) => {
    const child = spawn(program, args, {
      stdio: "inherit",
      env: { ...process.env, ...env },
      ...defined({ cwd }),
    });
    child.on("error", (error) => {
      done();
      tell(`could not launch ${program}: ${error.message}\n`);
      resolve(1);
    });
    child.on("exit", (code, signal) => {
      done();
      resolve(code ?? (signal === "SIGINT" ? INTERRUPTED : 1));
    });
  });
}

export function register(program: Command): void {
  addArchiveOptions(program.command("continue"))
    .description("copy a session or document into a harness and resume it there")
    .argument(
      "<source>",
      'a session id or prefix, a document file, or "-" for stdin; optionally with #range',
    )
    .option(
      "-w, --with <harness>",
      "the harness to continue in (required for documents)",
      parseHarness,
    )
    .option("--from <harness>", "look the id up in this harness only", parseHarness)
    .option("--as <form>", "the text form of a document (default: detected)", parseTextForm)
    .option(
      "--out <dir>",
      "write a self-contained copy with <dir> as the harness's home; the resume line names the variable that points the harness there (implies --no-resume)",
    )
    .option(
      "--surface <surface>",
      "antigravity only: write for agy's CLI (cli, the default) or the desktop app (desktop)",
      parseSurface,
    )
    .option("--no-resume", "write the copy but do not launch the harness")
    .action(async (ref: string, options: ContinueOptions, command: Command) => {
      if (options.with === undefined && isDocument(ref)) {
        throw new UsageError(`continuing a document needs --with <harness> (where to continue it)`);
      }
      const source = await resolveSource(command, ref, {
        ...defined({ from: options.from }),
        ...(options.as ? { documentForm: options.as } : {}),
        allowDocuments: true,
      });
      const target = options.with ?? source.found?.harness;
      if (target === undefined) {
        throw new UsageError(`continuing a document needs --with <harness> (where to continue it)`);
      }
      const h = harness(target);
      if (!h.store) throw new UsageError(`cannot continue in ${target}: it has no session store`);
      if (options.surface !== undefined && target !== "antigravity")
        throw new UsageError(`--surface applies to antigravity only, not ${target}`);
      // The load's garbage (the source's bytes, its parsed records) goes
      // before the copy is made, not after it: else the copy's peak holds both.
      collectGarbage();
      const origin: Origin = source.found
        ? { harness: source.found.harness, id: source.found.id }
        : { harness: source.form ?? "simple", id: source.transcript.meta.id };
      const { result, interrupted } = await uninterrupted(() =>
        sessionsFor(command).continue({
          transcript: selected(source),
          source: origin,
          target,
          defaultCwd: process.cwd(),
          root: options.out,
          surface: options.surface,
        }),
      );
      const { saved, resume } = result;
      for (const id of result.kept) {
        tell(`an earlier copy ${id} has changed since txcript wrote it; left as it is\n`);
      }
      const what =
        result.status === "unchanged"
          ? `${h.label} already holds this copy, unchanged: session`
          : result.status === "updated"
            ? `updated the copy (unchanged since txcript wrote it): ${h.label} session`
            : `wrote ${h.label} session`;
      tell(`${what} ${saved.id}\n  ${saved.path}\n`);
      for (const note of saved.notes ?? []) tell(`${note}\n`);
      if (result.notice !== undefined) tell(`${result.notice}\n`);
      if (result.unrecorded !== undefined)
        tell(`(its lineage was not recorded: ${result.unrecorded})\n`);
      process.stdout.write(`${saved.id}\n`);
      if (interrupted !== undefined) {
        // The save had begun: it was finished rather than left half-made.
        tell(`interrupted (${interrupted}) after the session was saved; not resuming\n`);
        process.exitCode = INTERRUPTED;
        return;
      }
      if (!resume) {
        tell(
          saved.lane === "desktop"
            ? "open it in the Antigravity app (agy --conversation resumes only the CLI's conversations)\n"
            : `${h.label} has no resume command\n`,
        );
        return;
      }
      // A working directory missing here: the harness would not find the
      // session (Claude Code looks it up by the directory it starts in), or
      // would run its tools elsewhere. Say how to resume instead of launching.
      const missingCwd = resume.cwd !== undefined && !existsSync(resume.cwd);
      const line = resumeLine(resume, { mkdir: missingCwd });
      process.stdout.write(forTerminal(`resume: ${line}\n`));
      const launch =
        options.resume && options.out === undefined && process.stdin.isTTY && process.stdout.isTTY;
      if (!launch) return;
      if (missingCwd) {
        tell(
          `not launched: the session's directory ${resume.cwd} does not exist here, and ${h.label} resumes a session from its own directory; run the command above (it creates the directory) or check out the project there\n`,
        );
        return;
      }
      const [program, ...args] = resume.argv;
      if (!resume.overridden && which.sync(program, { nothrow: true }) === null) {
        tell(`${program} is not installed (not on PATH); run the command above once it is\n`);
        return;
      }
      process.exitCode = await launchHarness(program, args, resume.cwd, resume.env);
    });
}
