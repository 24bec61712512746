/**
 * The txcript command line: one file per command under ./commands, wired
 * here. This and its siblings are the only modules that print or exit.
 * main.ts runs it (from the bundle scripts/bundle.mjs makes of it).
 *
 * Start-up is kept short: `--version` answers before anything else loads,
 * and only the command named on the command line is imported (every
 * command loads for help, completion and anything unrecognized).
 */

import type { Command } from "commander";
import { COMMAND_NAMES, type CommandName, namedCommand } from "./command-word.js";
import { exitIfFinished, installInterruptHandlers } from "./interrupt.js";
import { packageVersion } from "./version.js";

interface CommandModule {
  register(program: Command): void;
}

/** How to load each command (COMMAND_NAMES gives their names and order). */
const LOADERS: Record<CommandName, () => Promise<CommandModule>> = {
  list: () => import("./commands/list.js"),
  query: () => import("./commands/query.js"),
  pick: () => import("./commands/pick.js"),
  usage: () => import("./commands/usage.js"),
  view: () => import("./commands/view.js"),
  export: () => import("./commands/export.js"),
  continue: () => import("./commands/continue.js"),
  convert: () => import("./commands/convert.js"),
  delete: () => import("./commands/delete.js"),
  mcp: () => import("./commands/mcp.js"),
  archive: () => import("./commands/archive.js"),
  serve: () => import("./commands/serve.js"),
  completion: () => import("./commands/completion.js"),
};

const version = packageVersion;

/** The commands to load for `args` (user arguments): the one it names, else all. */
function wanted(args: readonly string[]): CommandName[] {
  const all = COMMAND_NAMES.map((names) => names[0]);
  const named = namedCommand(args);
  if (named === undefined) return all;
  // completion generates from the whole tree; a command's help needs only itself.
  if (named === "completion" && !args.includes("-h") && !args.includes("--help")) return all;
  return [named];
}

export async function buildProgram(args: readonly string[] = []): Promise<Command> {
  const { Command } = await import("commander");
  const { addCacheOptions } = await import("./cache.js");
  const { addRootOptions } = await import("./roots.js");
  const program = new Command("txcript")
    .description("Read, convert and continue coding-agent sessions: agy (Antigravity CLI) first")
    .version(version(), "-V, --version")
    .exitOverride()
    .configureOutput({
      // Commander's own usage errors become our one-line format below.
      outputError: () => {},
    });
  addRootOptions(program);
  addCacheOptions(program);
  const modules = await Promise.all(wanted(args).map((name) => LOADERS[name]()));
  for (const m of modules) m.register(program);
  for (const command of program.commands)
    command.exitOverride().configureOutput({ writeErr: () => {} });
  return program;
}

async function main(argv: string[]): Promise<number> {
  const args = argv.slice(2);
  if (args.length === 1 && (args[0] === "--version" || args[0] === "-V")) {
    process.stdout.write(`${version()}\n`);
    return 0;
  }
  const { CommanderError } = await import("commander");
  const { UsageError } = await import("./errors.js");
  try {
    const program = await buildProgram(args);
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

async function reportError(error: unknown): Promise<number> {
  const { exitCodeFor, formatError } = await import("./errors.js");
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
    exitIfFinished(code);
  },
  async (error: unknown) => {
    process.exitCode = await reportError(error);
  },
);
