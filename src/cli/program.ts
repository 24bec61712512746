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
import { installInterruptHandlers } from "./interrupt.js";
import { packageVersion } from "./version.js";

interface CommandModule {
  register(program: Command): void;
}

/** Every command, in help order; `completion` must stay last (it reads the others). */
const COMMANDS: { names: string[]; load: () => Promise<CommandModule> }[] = [
  { names: ["list", "ls"], load: () => import("./commands/list.js") },
  { names: ["query", "search"], load: () => import("./commands/query.js") },
  { names: ["pick"], load: () => import("./commands/pick.js") },
  { names: ["usage"], load: () => import("./commands/usage.js") },
  { names: ["view", "show"], load: () => import("./commands/view.js") },
  { names: ["export"], load: () => import("./commands/export.js") },
  { names: ["continue"], load: () => import("./commands/continue.js") },
  { names: ["convert"], load: () => import("./commands/convert.js") },
  { names: ["delete", "rm"], load: () => import("./commands/delete.js") },
  { names: ["mcp"], load: () => import("./commands/mcp.js") },
  { names: ["archive"], load: () => import("./commands/archive.js") },
  { names: ["serve"], load: () => import("./commands/serve.js") },
  { names: ["completion", "complete"], load: () => import("./commands/completion.js") },
];

const version = packageVersion;

/** The commands to load for `argv` (user arguments): the one it names, else all. */
function wanted(args: readonly string[]): typeof COMMANDS {
  // The first word that is not an option or the value of a global option (`--cache DIR`, `--codex-root DIR`).
  const named = args.find(
    (a, i) =>
      !a.startsWith("-") &&
      !/^--(cache|[a-z-]+-root)$/.test(args[i - 1] ?? "") &&
      COMMANDS.some((c) => c.names.includes(a)),
  );
  const help = args.includes("-h") || args.includes("--help");
  const one =
    named !== undefined && !help ? COMMANDS.find((c) => c.names.includes(named)) : undefined;
  // completion generates from the whole tree; a command's help needs only itself.
  if (one && one.names[0] !== "completion") return [one];
  if (named !== undefined && help) return COMMANDS.filter((c) => c.names.includes(named));
  return COMMANDS;
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
  const modules = await Promise.all(wanted(args).map((c) => c.load()));
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
  },
  async (error: unknown) => {
    process.exitCode = await reportError(error);
  },
);
