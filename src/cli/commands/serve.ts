/**
 * txcript serve [--port N] [--host H] [--open] [--allow-write]: every
 * session in a browser, from the server in src/serve/ over the one sessions
 * service. Prints the URL once (with the token when one is needed) and
 * serves until interrupted. `--archive URL` serves the shared archive
 * (src/archive/) instead: another backend behind the same sessions service.
 */

import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Command, InvalidArgumentError } from "commander";
import { describeCause, errorLine, TxcriptError } from "../../errors.js";
import type { ClientAssets } from "../../serve/app.js";
import { startServer } from "../../serve/server.js";
import { resumeLine } from "../../sessions/resume.js";
import type { LoadedAt } from "../../sessions/sessions.js";
import { Sessions } from "../../sessions/sessions.js";
import { addArchiveOptions, archiveFor } from "../archive.js";
import { cacheFlag, warn } from "../cache.js";
import { identity } from "../pages.js";
import { rootsFrom } from "../roots.js";

interface ServeOptions {
  port: number;
  host: string;
  open?: boolean;
  allowWrite?: boolean;
}

function parsePort(value: string): number {
  const n = Number(value);
  if (!/^\d{1,5}$/.test(value) || n > 65535)
    throw new InvalidArgumentError(`expected a port from 0 to 65535, got "${value}"`);
  return n;
}

/** The bundled client, beside this command's bundle (dist/cli/serve-client/). */
function clientAssets(): ClientAssets {
  const dir = fileURLToPath(new URL("./serve-client/", import.meta.url));
  try {
    return {
      js: readFileSync(join(dir, "app.js"), "utf8"),
      css: readFileSync(join(dir, "app-style.css"), "utf8"),
    };
  } catch (cause) {
    throw new TxcriptError(
      undefined,
      `the web client is missing (run "npm run build"): ${describeCause(cause)}`,
      { file: dir },
    );
  }
}

/** The resume command of a stored session, as `continue` prints it. */
async function resumeOf(loaded: LoadedAt): Promise<string | undefined> {
  const { allHarnesses } = await import("../../harness/index.js");
  const { resumeCommand } = await import("../../local.js");
  const h = allHarnesses().find((x) => x.id === loaded.located.harness);
  if (h === undefined) return undefined;
  const cmd = resumeCommand(
    h,
    { ...loaded.located, path: loaded.path ?? "", files: [] },
    loaded.transcript.meta,
    process.env,
  );
  return cmd ? resumeLine(cmd) : undefined;
}

/** Open `url` in the desktop's browser; failing to is not fatal. */
function openBrowser(url: string): void {
  const command =
    process.platform === "darwin" ? "open" : process.platform === "win32" ? "explorer" : "xdg-open";
  try {
    const child = spawn(command, [url], { stdio: "ignore", detached: true });
    child.on("error", () => process.stderr.write(`txcript serve: could not open a browser\n`));
    child.unref();
  } catch {
    process.stderr.write(`txcript serve: could not open a browser\n`);
  }
}

export function register(program: Command): void {
  const serve = program
    .command("serve")
    .description("browse, search and total every session in a local web app")
    .option("--port <n>", "the port (0 picks a free one)", parsePort, 7420)
    .option(
      "--host <host>",
      "the address to bind; beyond 127.0.0.1 a token is required",
      "127.0.0.1",
    )
    .option("--open", "open the app in the default browser")
    .option(
      "--allow-write",
      "offer continue and delete (each needs the token and a same-origin request)",
    );
  addArchiveOptions(serve).action(async (options: ServeOptions, command: Command) => {
    const assets = clientAssets();
    const log = (line: string) => process.stderr.write(`txcript serve: ${line}\n`);
    // A long-lived door: recent loads kept, and a refresh reused for a second under load.
    const sessions = new Sessions({
      env: process.env,
      roots: rootsFrom(command),
      cache: cacheFlag(command),
      warn,
      // The first search or usage page on a machine builds the text index: its log says so.
      note: log,
      keepLoaded: 8,
      backend: await archiveFor(command),
      reuseRefreshMs: 1000,
      refreshBehind: true,
    });
    // A bad request is answered by its handler (Hono turns a throw into a
    // 500); what escapes every handler is a failure of unknown extent, after
    // which nothing can be trusted: one line, and the server stops (exit 1).
    const fatal = (error: unknown) => {
      log(`stopping after an unexpected failure: ${errorLine(error).replace(/^txcript: /, "")}`);
      process.exit(1);
    };
    process.on("uncaughtException", fatal);
    process.on("unhandledRejection", fatal);
    const running = await startServer({
      backend: sessions,
      assets,
      who: identity(),
      allowWrite: options.allowWrite === true,
      deletes: sessions.backend === undefined,
      resume: resumeOf,
      host: options.host,
      port: options.port,
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    });
    // The one line with the token: printed once, on stdout, never logged elsewhere.
    process.stdout.write(`${running.url}\n`);
    if (options.open) openBrowser(running.url);
    await new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
    });
    await running.close();
    sessions.close();
  });
}
