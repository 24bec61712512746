/**
 * Helpers for the OpenCode store tests: child processes (bundled once to
 * plain JavaScript, as the agy store tests do, so fifty of them start fast),
 * the database's integrity, row counts per table, and Common sessions of a
 * chosen size.
 */

import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { buildSync } from "esbuild";
import type { Message } from "../../src/common.js";
import type { Common, Transcript } from "../../src/transcript.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, "..", "..");
const BUNDLES = join(ROOT, "node_modules", ".cache", "txcript-opencode-tests");
const bundled = new Map<string, string>();

function bundle(script: string): string {
  let out = bundled.get(script);
  if (out === undefined) {
    out = join(BUNDLES, `${process.pid}-${script.replace(/\.ts$/, ".mjs")}`);
    buildSync({
      entryPoints: [join(HERE, "children", script)],
      outfile: out,
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      packages: "external",
      logLevel: "silent",
    });
    bundled.set(script, out);
  }
  return out;
}

export function startChild(script: string, args: string[]) {
  return spawn(process.execPath, [bundle(script), ...args], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** Resolves with the first stdout line matching `pattern`, rejects if the child exits first. */
export function waitFor(
  child: ReturnType<typeof startChild>,
  pattern: RegExp,
): Promise<RegExpExecArray> {
  let out = "";
  let err = "";
  child.stderr.on("data", (d) => {
    err += d;
  });
  return new Promise((resolve, reject) => {
    child.stdout.on("data", (d) => {
      out += d;
      const m = pattern.exec(out);
      if (m) resolve(m);
    });
    child.on("exit", () => reject(new Error(`child exited before ${pattern}: ${out} ${err}`)));
  });
}

export function exited(child: ReturnType<typeof startChild>): Promise<number | null> {
  return new Promise((r) => {
    if (child.exitCode !== null || child.signalCode !== null) r(child.exitCode);
    else child.on("exit", (code) => r(code));
  });
}

/** `PRAGMA integrity_check` and the foreign-key check, from a fresh connection. */
export function integrity(path: string): { integrity: string; foreignKeys: unknown[] } {
  const db = new Database(path);
  try {
    return {
      integrity: db.pragma("integrity_check", { simple: true }) as string,
      foreignKeys: db.pragma("foreign_key_check") as unknown[],
    };
  } finally {
    db.close();
  }
}

/** Rows per table, and of one session in the tables that key rows by it. */
export function counts(path: string, session?: string): Record<string, number> {
  const db = new Database(path, { readonly: true });
  try {
    const out: Record<string, number> = {};
    for (const t of ["project", "session", "message", "part", "event", "event_sequence"]) {
      const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE name = ?").get(t);
      if (!exists) continue;
      const where =
        session === undefined
          ? ""
          : t === "session"
            ? " WHERE id = ?"
            : t === "event" || t === "event_sequence"
              ? " WHERE aggregate_id = ?"
              : t === "project"
                ? " WHERE 0 AND ? IS NOT NULL"
                : " WHERE session_id = ?";
      const row = db
        .prepare(`SELECT count(*) AS n FROM ${t}${where}`)
        .get(...(session === undefined ? [] : [session])) as { n: number };
      out[t] = row.n;
    }
    return out;
  } finally {
    db.close();
  }
}

/** A coding session of `turns` prompt/call/result/answer rounds, `pad` characters of output each. */
export function session(id: string, turns: number, pad = 40, cwd = "/srv/app"): Transcript<Common> {
  const body: Message[] = [];
  const t = (n: number) => new Date(Date.UTC(2026, 10, 1, 9, 0, 0) + n * 1000).toISOString();
  for (let i = 0; i < turns; i++) {
    body.push({
      role: "user",
      content: [{ type: "text", text: `step ${i}` }],
      timestamp: t(4 * i),
    });
    body.push({
      role: "assistant",
      content: [
        { type: "text", text: `running step ${i}` },
        { type: "tool_use", id: `call_${i}`, tool: { name: "Bash", command: `make step-${i}` } },
      ],
      timestamp: t(4 * i + 1),
      model: "claude-opus-4-5",
      stop_reason: "tool_use",
      usage: { input_tokens: 100 + i, output_tokens: 10 },
    });
    body.push({
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: `call_${i}`,
          content: `ok ${i} ${"x".repeat(pad)}`,
          ...(i % 5 === 4 ? { is_error: true as const } : {}),
        },
      ],
      timestamp: t(4 * i + 2),
    });
    body.push({
      role: "assistant",
      content: [{ type: "text", text: `step ${i} done` }],
      timestamp: t(4 * i + 3),
      model: "claude-opus-4-5",
      stop_reason: "end_turn",
    });
  }
  return { meta: { id, timestamp: t(0), cwd, title: `Session ${id}` }, body };
}
