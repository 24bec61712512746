/**
 * Archive benchmark, whole processes of the built CLI against a throwaway
 * PostgreSQL cluster (test/support/postgres.ts) on this machine:
 * - the local index build (`usage --json` on an empty cache: every
 *   session's text read) beside `archive push` of the same store (default
 *   content level and redaction, then `--content full --no-redact`), in
 *   MB/s of source;
 * - an incremental push after one conversation changed;
 * - `query --archive` of a word in one message (whole process), and the
 *   server's own time for that search (EXPLAIN ANALYZE);
 * - the archive's rows and sizes (tables, GIN index).
 * One run each (a push changes the archive); figures go in docs/archive.md.
 *
 *   npx tsx bench/archive.bench.ts [conversations] [steps]
 */

import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { writeAgyDatabase } from "../test/antigravity-store/support.js";
import { buildConversation, type ConversationSpec } from "../test/support/agy-fixtures.js";
import { startPostgres } from "../test/support/postgres.js";
import { mb, report, runProcess } from "./util.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BIN = join(ROOT, "dist", "cli", "main.js");
const DATA = join(ROOT, ".bench-data", "archive");

function generate(count: number, steps: number): string {
  const dir = join(DATA, `agy-v1-${count}x${steps}`);
  if (existsSync(join(dir, "complete"))) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, "conversations"), { recursive: true });
  for (let i = 0; i < count; i++) {
    const spec: ConversationSpec = {
      steps,
      seed: i + 1,
      layout: i % 4 === 0 ? "typed" : "generic",
    };
    if (i % 2) spec.modelName = "gemini-3.8-flash";
    if (i % 3 === 0) spec.checkpointTitle = `Task ${i}`;
    writeAgyDatabase(dir, buildConversation(spec));
  }
  writeFileSync(join(dir, "complete"), "");
  return dir;
}

function bytesUnder(dir: string): number {
  let total = 0;
  for (const name of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    const st = statSync(join(dir, name));
    if (st.isFile()) total += st.size;
  }
  return total;
}

const sec = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const rate = (bytes: number, ms: number) => `${(bytes / 1e6 / (ms / 1000)).toFixed(1)} MB/s`;

function main(): void {
  const count = Number(process.argv[2] ?? 1000);
  const steps = Number(process.argv[3] ?? 200);
  const agy = generate(count, steps);
  const source = bytesUnder(agy);
  if (spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: "ignore" }).status !== 0)
    throw new Error("build failed");
  const home = join(DATA, "home");
  rmSync(home, { recursive: true, force: true });
  mkdirSync(home, { recursive: true });
  const env = (cache: string) => ({
    HOME: home,
    USER: "bench",
    TXCRIPT_MACHINE: "bench",
    TXCRIPT_ANTIGRAVITY_ROOT: agy,
    TXCRIPT_CACHE: join(home, cache),
  });
  const pg = startPostgres();
  try {
    pg.psql("CREATE DATABASE a1");
    pg.psql("CREATE DATABASE a2");
    const indexMs = runProcess([process.execPath, BIN, "usage", "--json"], env("c0"));
    // The push refreshes its own (empty) index first: its time includes a build like the one above.
    const pushMs = runProcess(
      [process.execPath, BIN, "archive", "push", "--archive", pg.url("a1")],
      env("c1"),
    );
    const fullMs = runProcess(
      [
        process.execPath,
        BIN,
        "archive",
        "push",
        "--archive",
        pg.url("a2"),
        "--content",
        "full",
        "--no-redact",
      ],
      env("c2"),
    );
    const againMs = runProcess(
      [process.execPath, BIN, "archive", "push", "--archive", pg.url("a1")],
      env("c1"),
    );
    const first = readdirSync(join(agy, "conversations")).find((f) => f.endsWith(".db"));
    if (first === undefined) throw new Error("no conversation");
    const now = new Date();
    utimesSync(join(agy, "conversations", first), now, now);
    const oneMs = runProcess(
      [process.execPath, BIN, "archive", "push", "--archive", pg.url("a1")],
      env("c1"),
    );
    const word = pg
      .psql(
        "SELECT word FROM ts_stat('SELECT tsv FROM txcript.chunks') WHERE ndoc = 1 ORDER BY word LIMIT 1",
        "a2",
      )
      .trim();
    const queryMs = runProcess(
      [process.execPath, BIN, "query", "--json", "--archive", pg.url("a2"), word],
      env("c2"),
    );
    const plan = pg.psql(
      `EXPLAIN ANALYZE SELECT count(*) FROM txcript.chunks c JOIN txcript.sessions s ON s.sid = c.sid
       WHERE c.tsv @@ phraseto_tsquery('simple', '${word.replace(/'/g, "")}')`,
      "a2",
    );
    const server = /Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? "?";
    const size = (rel: string) => Number(pg.psql(`SELECT pg_total_relation_size('${rel}')`, "a2"));
    const rows = (table: string) => pg.psql(`SELECT count(*) FROM ${table}`, "a2");
    report([
      {
        store: `${count} agy conversations of ~${steps} steps`,
        size: mb(source),
        "load average": loadavg()[0]!.toFixed(2),
      },
    ]);
    report([
      {
        what: "local index build (usage --json, empty cache)",
        time: sec(indexMs),
        rate: rate(source, indexMs),
      },
      {
        what: "archive push, default (no-tool-output, redacted), empty cache",
        time: sec(pushMs),
        rate: rate(source, pushMs),
      },
      {
        what: "archive push --content full --no-redact, empty cache",
        time: sec(fullMs),
        rate: rate(source, fullMs),
      },
      { what: "archive push again, nothing changed", time: sec(againMs), rate: "" },
      { what: "archive push after one conversation changed", time: sec(oneMs), rate: "" },
      {
        what: `query --archive of a word in one chunk ("${word}"), whole process`,
        time: `${queryMs.toFixed(0)} ms`,
        rate: "",
      },
      { what: "the same search on the server (EXPLAIN ANALYZE)", time: `${server} ms`, rate: "" },
    ]);
    report([
      {
        sessions: rows("txcript.sessions"),
        chunks: rows("txcript.chunks"),
        "usage rows": rows("txcript.usage"),
        "sessions table": mb(size("txcript.sessions")),
        "chunks table": mb(size("txcript.chunks")),
        "GIN index": mb(size("txcript.chunks_tsv")),
        "usage table": mb(size("txcript.usage")),
        "local index": mb(bytesUnder(join(home, "c0"))),
      },
    ]);
  } finally {
    pg.stop();
  }
}

main();
