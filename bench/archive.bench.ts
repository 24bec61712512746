/**
 * Archive benchmark, whole processes of the built CLI against a throwaway
 * PostgreSQL cluster (test/support/postgres.ts) on this machine, all in one
 * run so the figures share the machine's load:
 * - the local index build (`usage --json` on an empty cache: every
 *   session's text read) beside `archive push` of the same store, both in
 *   MB/s of source. The pushes find the index built, so they time the push
 *   alone (batched, the default);
 * - a push with nothing changed, and one after one conversation changed;
 * - a generated rare word (RARE, in one chunk) searched over the whole
 *   archive: `query --archive` (whole process) as the owner and as a reader
 *   role, the server's own time for the two function calls it makes
 *   (EXPLAIN ANALYZE) as each, the reader's plan inside txcript.search
 *   (auto_explain), and the local `query` of the same store beside it;
 *   medians of 5;
 * - the archive's rows and sizes (tables, GIN index), per session.
 * Pushes run once each (a push changes the archive); figures go in
 * docs/archive.md.
 *
 *   npx tsx bench/archive.bench.ts [conversations] [steps] [--generate-only]
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
import { type Cluster, postgresBin, startPostgres } from "../test/support/postgres.js";
import { mb, median, report, runProcess } from "./util.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BIN = join(ROOT, "dist", "cli", "main.cjs");
const DATA = join(ROOT, ".bench-data", "archive");

/** The generated rare word: in the second prompt of one conversation, nowhere else. */
const RARE = "quorvexintal";

function generate(count: number, steps: number): string {
  const dir = join(DATA, `agy-v2-${count}x${steps}`);
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
    if (i === count >> 1) spec.plantWord = RARE;
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

/** Run SQL on database a1 through psql; what the server sent as notices (stderr). */
function psqlNotices(pg: Cluster, sql: string): string {
  const r = spawnSync(
    join(postgresBin() ?? "", "psql"),
    [
      "-h",
      pg.host,
      "-p",
      String(pg.port),
      "-U",
      pg.user,
      "-d",
      "a1",
      "-v",
      "ON_ERROR_STOP=1",
      "-c",
      sql,
    ],
    { encoding: "utf8", env: { ...process.env, PGPASSWORD: pg.password } },
  );
  if (r.status !== 0) throw new Error(`psql failed: ${r.stderr}`);
  return r.stderr;
}

const sec = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const rate = (bytes: number, ms: number) => `${(bytes / 1e6 / (ms / 1000)).toFixed(1)} MB/s`;

function main(): void {
  const count = Number(process.argv[2] ?? 1000);
  const steps = Number(process.argv[3] ?? 200);
  const agy = generate(count, steps);
  if (process.argv.includes("--generate-only")) return;
  const source = bytesUnder(agy);
  if (spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: "ignore" }).status !== 0)
    throw new Error("build failed");
  const home = join(DATA, "home");
  rmSync(home, { recursive: true, force: true });
  mkdirSync(home, { recursive: true });
  const env = (extra: Record<string, string> = {}) => ({
    HOME: home,
    USER: "bench",
    TXCRIPT_MACHINE: "bench",
    TXCRIPT_ANTIGRAVITY_ROOT: agy,
    TXCRIPT_CACHE: join(home, "cache"),
    ...extra,
  });
  const cli = (args: string[], extra: Record<string, string> = {}) =>
    runProcess([process.execPath, BIN, ...args], env(extra));
  const load0 = loadavg()[0] ?? 0;
  const pg = startPostgres();
  try {
    pg.psql("CREATE DATABASE a1");
    const indexMs = cli(["usage", "--json"]);
    const push = (db: string, extra: Record<string, string> = {}) =>
      cli(["archive", "push", "--archive", pg.url(db)], extra);
    const batchedMs = push("a1");
    const againMs = push("a1");
    const first = readdirSync(join(agy, "conversations")).find((f) => f.endsWith(".db"));
    if (first === undefined) throw new Error("no conversation");
    const now = new Date();
    utimesSync(join(agy, "conversations", first), now, now);
    const oneMs = push("a1");
    // The rarest word (in one chunk if any is), a longer one first: a word a user would search for.
    const word = RARE;
    const inChunks = pg.psql(
      `SELECT count(*) FROM txcript.chunks WHERE tsv @@ phraseto_tsquery('simple', '${RARE}')`,
      "a1",
    );
    // A reader role (docs/archive.md's grants): its search goes through the search function.
    pg.psql(
      `CREATE ROLE txcript_reader NOLOGIN;
       GRANT USAGE ON SCHEMA txcript TO txcript_reader;
       GRANT SELECT ON txcript.migrations, txcript.sessions, txcript.chunks, txcript.usage TO txcript_reader;
       CREATE ROLE reader LOGIN PASSWORD 'reader-pw' IN ROLE txcript_reader;`,
      "a1",
    );
    const times = (f: () => number) => median(Array.from({ length: 5 }, f));
    const archiveQueryMs = times(() => cli(["query", "--json", "--archive", pg.url("a1"), word]));
    const readerUrl = pg.url("a1", "reader", "reader-pw");
    const readerQueryMs = times(() => cli(["query", "--json", "--archive", readerUrl, word]));
    const localQueryMs = times(() => cli(["query", "--json", word]));
    // The two calls `query --archive` makes (src/archive/archive.ts), as the server times them,
    // as the owner and as the reader (SET SESSION AUTHORIZATION: the functions read session_user).
    const q = `phraseto_tsquery('simple', '${word}')`;
    const none = "NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL";
    const executed = (who: string, sql: string) =>
      Number(
        /Execution Time: ([\d.]+) ms/.exec(pg.psql(`${who}EXPLAIN ANALYZE ${sql}`, "a1"))?.[1],
      );
    const server = (who: string) =>
      times(
        () =>
          executed(who, `SELECT txcript.search_count(${q}, ${none})`) +
          executed(who, `SELECT * FROM txcript.search(${q}, ${none}, 20, 0)`),
      );
    const ownerServerMs = server("");
    const readerServerMs = server("SET SESSION AUTHORIZATION reader; ");
    // The reader's plan inside the function (auto_explain logs nested statements).
    const readerPlan = psqlNotices(
      pg,
      `LOAD 'auto_explain'; SET auto_explain.log_min_duration = 0; SET auto_explain.log_nested_statements = on;
       SET auto_explain.log_level = notice; SET SESSION AUTHORIZATION reader;
       SELECT count(*) FROM txcript.search(${q}, ${none}, 20, 0)`,
    );
    const size = (rel: string) => Number(pg.psql(`SELECT pg_total_relation_size('${rel}')`, "a1"));
    const rows = (table: string) => Number(pg.psql(`SELECT count(*) FROM ${table}`, "a1"));
    const messages = Number(
      pg.psql("SELECT sum((discovered->>'message_count')::bigint) FROM txcript.sessions", "a1"),
    );
    const sessions = rows("txcript.sessions");
    report([
      {
        store: `${count} agy conversations of ~${steps} steps`,
        size: mb(source),
        messages,
        "load average before/after": `${load0.toFixed(1)} / ${(loadavg()[0] ?? 0).toFixed(1)}`,
      },
    ]);
    report([
      {
        what: "local index build (usage --json, empty cache)",
        time: sec(indexMs),
        rate: rate(source, indexMs),
      },
      {
        what: "archive push (default level, redacted), batched",
        time: sec(batchedMs),
        rate: rate(source, batchedMs),
      },
      { what: "archive push again, nothing changed", time: sec(againMs), rate: "" },
      { what: "archive push after one conversation changed", time: sec(oneMs), rate: "" },
      {
        what: `query --archive of a rare word ("${word}", in ${inChunks} chunk(s)), whole process, median of 5`,
        time: `${archiveQueryMs.toFixed(0)} ms`,
        rate: "",
      },
      {
        what: "  its two function calls on the server as the owner (EXPLAIN ANALYZE), median of 5",
        time: `${ownerServerMs.toFixed(1)} ms`,
        rate: "",
      },
      {
        what: "query --archive of the same word as a reader role, whole process, median of 5",
        time: `${readerQueryMs.toFixed(0)} ms`,
        rate: "",
      },
      {
        what: "  its two function calls on the server as the reader, median of 5",
        time: `${readerServerMs.toFixed(1)} ms`,
        rate: "",
      },
      {
        what: "  the reader's plan inside txcript.search uses",
        time:
          [
            ...readerPlan.matchAll(
              /(?:Bitmap Index|Index Only|Index|Seq) Scan (?:using \w+ )?on \w+/g,
            ),
          ]
            .map((m) => m[0])
            .join(", ") || `no plan logged (${readerPlan.slice(0, 200)})`,
        rate: "",
      },
      {
        what: "local query of the same word, same store, whole process, median of 5",
        time: `${localQueryMs.toFixed(0)} ms`,
        rate: "",
      },
    ]);
    const per = (bytes: number) => `${(bytes / sessions / 1024).toFixed(1)} KB/session`;
    report([
      {
        sessions,
        chunks: rows("txcript.chunks"),
        "usage rows": rows("txcript.usage"),
        "sessions table": `${mb(size("txcript.sessions"))} (${per(size("txcript.sessions"))})`,
        "chunks table": `${mb(size("txcript.chunks"))} (${per(size("txcript.chunks"))})`,
        "GIN index": `${mb(size("txcript.chunks_tsv"))} (${per(size("txcript.chunks_tsv"))})`,
        "usage table": `${mb(size("txcript.usage"))} (${per(size("txcript.usage"))})`,
        "local index": mb(bytesUnder(join(home, "cache"))),
      },
    ]);
  } finally {
    pg.stop();
  }
}

main();
