/**
 * `txcript serve` through the built binary, for the server and browser
 * suites: a temporary home holding the bundled example agy store and
 * Claude Code sessions written from their format facts (one with a planted
 * word, one with hostile text), and the server started on a free port
 * against it, its printed URL read from stdout.
 */

import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assistant, jsonl, user } from "../claude-code/lines.js";
import { BIN, ROOT } from "./cli.js";

export const PLANTED = "zanzibarquux";
export const PLANTED_SID = "7a1b2c3d-0000-4000-8000-00000000aaaa";
export const HOSTILE_SID = "7a1b2c3d-0000-4000-8000-00000000bbbb";
export const PAYLOAD = `<script>alert("xss")</script><img src=x onerror="alert('img')"><a href="javascript:alert(1)">click</a>`;

/** The Claude Code project folder of the fixture sessions. */
export function claudeProject(home: string): string {
  return join(home, ".claude", "projects", "-home-dev-serve-app");
}

/** A Claude Code session: a prompt, `turns` answers with usage (the last saying `answer`), 1 + 2 × turns messages. */
export function claudeSession(sid: string, prompt: string, answer: string, turns = 6): string {
  const s = (r: Record<string, unknown>) => ({ ...r, sessionId: sid, cwd: "/home/dev/serve-app" });
  const lines: unknown[] = [s(user(1, null, prompt))];
  for (let k = 0; k < turns; k++) {
    lines.push(
      s(
        assistant(
          2 + 2 * k,
          1 + 2 * k,
          `msg_${sid.slice(-4)}_${k}`,
          [{ type: "text", text: k === turns - 1 ? answer : `step ${k} done` }],
          {
            model: "claude-sonnet-4-5",
            usage: {
              input_tokens: 1000 + k,
              output_tokens: 50,
              cache_read_input_tokens: 200,
              cache_creation_input_tokens: 10,
            },
          },
        ),
      ),
    );
    lines.push(s(user(3 + 2 * k, 2 + 2 * k, `continue ${k}`)));
  }
  return jsonl(lines);
}

/** A fresh home: the example agy store, a session with the planted word (and `secret`) and a hostile one. */
export function serveHome(secret = ""): string {
  const home = mkdtempSync(join(tmpdir(), "txcript-serve-"));
  cpSync(join(ROOT, "examples", "home"), home, { recursive: true });
  const project = claudeProject(home);
  mkdirSync(project, { recursive: true });
  writeFileSync(
    join(project, `${PLANTED_SID}.jsonl`),
    claudeSession(
      PLANTED_SID,
      "Where does the parser live?",
      `The ${PLANTED} parser lives in src/parse.ts. ${secret}`,
    ),
  );
  writeFileSync(
    join(project, `${HOSTILE_SID}.jsonl`),
    claudeSession(
      HOSTILE_SID,
      `Hostile ${PAYLOAD}`,
      `Answer ${PAYLOAD} **bold** [x](javascript:alert(2))`,
    ),
  );
  return home;
}

export interface Served {
  /** The URL printed (with the token when there is one). */
  url: string;
  /** Scheme, host and port, ending in "/". */
  base: string;
  token: string | undefined;
  child: ChildProcess;
  stderr(): string;
  stop(): Promise<void>;
}

/** Start `txcript serve --port 0 ...args` on `home`; resolves once it printed its URL. */
export function startServe(home: string, args: string[] = []): Promise<Served> {
  const cache = mkdtempSync(join(tmpdir(), "txcript-serve-cache-"));
  const child = spawn(process.execPath, [BIN, "serve", "--port", "0", ...args], {
    env: {
      PATH: process.env.PATH ?? "",
      HOME: home,
      NO_COLOR: "1",
      TXCRIPT_CACHE: cache,
      USER: "dev",
      ...(process.env.TZ === undefined ? {} : { TZ: process.env.TZ }),
    },
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stderr?.on("data", (d: Buffer) => {
    err += d.toString();
  });
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    }
    rmSync(cache, { recursive: true, force: true });
  };
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`serve exited ${code}: ${err}`)));
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      const line = out.split("\n")[0];
      if (out.includes("\n") && line !== undefined) {
        const url = new URL(line);
        const token = url.searchParams.get("token") ?? undefined;
        resolve({ url: line, base: `${url.origin}/`, token, child, stderr: () => err, stop });
      }
    });
  });
}
