#!/usr/bin/env node
/**
 * The txcript command line: one file per command under ./commands, wired
 * here. This and its siblings are the only modules that print or exit.
 */

import { createRequire } from "node:module";
import { Command, CommanderError } from "commander";
import { register as registerCompletion } from "./commands/completion.js";
import { register as registerContinue } from "./commands/continue.js";
import { register as registerConvert } from "./commands/convert.js";
import { register as registerDelete } from "./commands/delete.js";
import { register as registerExport } from "./commands/export.js";
import { register as registerList } from "./commands/list.js";
import { register as registerView } from "./commands/view.js";
import { addRootOptions } from "./context.js";
import { exitCodeFor, formatError, UsageError } from "./errors.js";
import { installInterruptHandlers } from "./interrupt.js";

const pkg = createRequire(import.meta.url)("../../package.json") as { version: string };

export function buildProgram(): Command {
  const program = new Command("txcript")
    .description("Read, convert and continue coding-agent sessions: agy (Antigravity CLI) first")
    .version(pkg.version, "-V, --version")
    .exitOverride()
    .configureOutput({
      // Commander's own usage errors become our one-line format below.
      outputError: () => {},
    });
  addRootOptions(program);
  registerList(program);
  registerView(program);
  registerExport(program);
  registerContinue(program);
  registerConvert(program);
  registerDelete(program);
  registerCompletion(program);
  for (const command of program.commands)
    command.exitOverride().configureOutput({ writeErr: () => {} });
  return program;
}

async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === "number" ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === "commander.helpDisplayed" || error.code === "commander.version") return 0;
      // `txcript` alone prints the help to stderr as a usage error (exit code
      // 1 from commander); `help`, `help <command>` and `help --help` asked for it.
      if (error.code === "commander.help") return error.exitCode === 0 ? 0 : 2;
      return reportError(new UsageError(error.message.replace(/^error: /, "")));
    }
    return reportError(error);
  }
}

function reportError(error: unknown): number {
  // formatError makes the message one line with control characters visible.
  process.stderr.write(`${formatError(error)}\n`);
  if (process.env.TXCRIPT_DEBUG === "1" && error instanceof Error && error.stack) {
    process.stderr.write(`${error.stack}\n`);
  }
  return exitCodeFor(error);
}

installInterruptHandlers();
main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.exitCode = reportError(error);
  },
);
