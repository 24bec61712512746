/**
 * txcript continue <id|file|->[#range] --with H: write a copy of a session
 * or document into a harness's store, print the new id and the resume
 * command, and on a terminal launch it.
 */

import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import type { Command } from "commander";
import which from "which";
import { harness } from "../../harness/index.js";
import { continueInto, type Env } from "../../local.js";
import type { HarnessId, TextForm } from "../../transcript.js";
import { isDocument, resolveSource, selected } from "../context.js";
import { UsageError } from "../errors.js";
import { parseHarness, parseTextForm } from "../options.js";

interface ContinueOptions {
  with?: HarnessId;
  from?: HarnessId;
  as?: TextForm;
  out?: string;
  resume: boolean;
}

/**
 * One argument as a POSIX shell word: bare when it is made of characters
 * no shell treats specially, else single-quoted. (shell-quote's `quote`
 * also backslashes `=`, which makes `--conversation=<id>` hard to read.)
 */
export function shellWord(arg: string): string {
  if (/^[A-Za-z0-9_\-./:=@%+,]+$/.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

export function register(program: Command): void {
  program
    .command("continue")
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
      "write under <dir> instead of the harness's real store (implies --no-resume)",
    )
    .option("--no-resume", "write the copy but do not launch the harness")
    .action((ref: string, options: ContinueOptions, command: Command) => {
      if (options.with === undefined && isDocument(ref)) {
        throw new UsageError(`continuing a document needs --with <harness> (where to continue it)`);
      }
      const source = resolveSource(command, ref, {
        ...(options.from ? { from: options.from } : {}),
        ...(options.as ? { documentForm: options.as } : {}),
        allowDocuments: true,
      });
      const target = options.with ?? source.found?.harness;
      if (target === undefined) {
        throw new UsageError(`continuing a document needs --with <harness> (where to continue it)`);
      }
      const h = harness(target);
      if (!h.store) throw new UsageError(`cannot continue in ${target}: it has no session store`);
      const env = process.env as Env;
      const result = continueInto(selected(source), target, {
        env,
        defaultCwd: process.cwd(),
        ...(options.out !== undefined ? { root: options.out } : {}),
      });
      const { saved, resume } = result;
      process.stderr.write(`wrote ${h.label} session ${saved.id}\n  ${saved.path}\n`);
      process.stdout.write(`${saved.id}\n`);
      if (!resume) {
        process.stderr.write(`${h.label} has no resume command\n`);
        return;
      }
      const line =
        (resume.cwd ? `cd ${shellWord(resume.cwd)} && ` : "") +
        resume.argv.map(shellWord).join(" ");
      process.stdout.write(`resume: ${line}\n`);
      const launch =
        options.resume && options.out === undefined && process.stdin.isTTY && process.stdout.isTTY;
      if (!launch) return;
      const program = resume.argv[0]!;
      if (!resume.overridden && which.sync(program, { nothrow: true }) === null) {
        process.stderr.write(
          `${program} is not installed (not on PATH); run the command above once it is\n`,
        );
        return;
      }
      const cwd = resume.cwd && existsSync(resume.cwd) ? resume.cwd : process.cwd();
      if (resume.cwd && cwd !== resume.cwd) {
        process.stderr.write(`${resume.cwd} does not exist here; launching in ${cwd}\n`);
      }
      const r = spawnSync(program, resume.argv.slice(1), {
        stdio: "inherit",
        cwd,
        env: process.env,
      });
      if (r.error) process.stderr.write(`could not launch ${program}: ${r.error.message}\n`);
      else if (r.status !== null) process.exitCode = r.status;
    });
}
