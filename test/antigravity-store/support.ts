/**
 * Helpers for the Antigravity store tests: hand-made rows with arbitrary
 * blobs, databases written the way agy writes them (independently of the
 * store's own writer: WAL mode, the -wal left uncheckpointed), bodies in a
 * comparable form, and child processes run through tsx.
 */

import { spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import { buildSync } from "esbuild";
import type { AntigravityBody, StepRow } from "../../src/harness/antigravity/body.js";
import { emptyBody } from "../../src/harness/antigravity/body.js";
import "../../src/sqlite.js"; // enables URI filenames before any test opens a database
import { ROOT } from "../support/cli.js";

export const CHILDREN = join(ROOT, "test", "antigravity-store", "children");
export const T0 = "2026-09-10T09:00:00Z";

/** A small deterministic PRNG (mulberry32). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function randomBytesFrom(rand: () => number, n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = Math.floor(rand() * 256);
  return out;
}

/** A step row of arbitrary bytes: the store must carry them without looking. */
export function rawStep(
  idx: number,
  rand: () => number,
  overrides: Partial<StepRow> = {},
): StepRow {
  const blob = (n: number) => (rand() < 0.2 ? null : randomBytesFrom(rand, n));
  return {
    idx,
    step_type: Math.floor(rand() * 140),
    status: Math.floor(rand() * 12),
    has_subtrajectory: rand() < 0.1,
    metadata: blob(8 + Math.floor(rand() * 40)),
    error_details: blob(Math.floor(rand() * 10)),
    permissions: blob(Math.floor(rand() * 10)),
    task_details: blob(Math.floor(rand() * 10)),
    render_info: blob(Math.floor(rand() * 10)),
    step_payload: blob(Math.floor(rand() * 300)),
    step_format: Math.floor(rand() * 3),
    ...overrides,
  };
}

/** A body of hand-made rows in every table, blobs of arbitrary bytes. */
export function handBody(id: string, steps: number, seed = 1): AntigravityBody {
  const rand = prng(seed);
  const body = emptyBody(id);
  body.trajectory_meta.push({
    trajectory_id: `traj-${seed}`,
    cascade_id: id,
    trajectory_type: 4,
    source: 17,
  });
  for (let i = 0; i < steps; i++) body.steps.push(rawStep(i * 2 + 1, rand)); // gaps in idx
  body.gen_metadata.push({ idx: 3, data: randomBytesFrom(rand, 30), size: 30 });
  body.executor_metadata.push({ idx: 0, data: randomBytesFrom(rand, 12) });
  body.parent_references.push({ idx: 0, data: null });
  body.battle_mode_infos.push({ idx: 7, data: new Uint8Array(0) });
  body.trajectory_metadata_blob.push({ id: "main", data: randomBytesFrom(rand, 50) });
  return body;
}

export { comparable } from "./comparable.js";

/** The schema as spec/antigravity-wire.md states it, typed out here independently of the store. */
export const SPEC_SCHEMA = `
CREATE TABLE trajectory_meta(trajectory_id text PRIMARY KEY, cascade_id text, trajectory_type integer, source integer);
CREATE TABLE steps(idx integer PRIMARY KEY, step_type integer NOT NULL DEFAULT 0, status integer NOT NULL DEFAULT 0,
  has_subtrajectory numeric NOT NULL DEFAULT false, metadata blob, error_details blob, permissions blob,
  task_details blob, render_info blob, step_payload blob, step_format integer NOT NULL DEFAULT 0);
CREATE INDEX idx_steps_status ON steps(status);
CREATE INDEX idx_steps_step_type ON steps(step_type);
CREATE TABLE gen_metadata(idx integer PRIMARY KEY, data blob, size integer NOT NULL DEFAULT 0);
CREATE TABLE executor_metadata(idx integer PRIMARY KEY, data blob);
CREATE TABLE parent_references(idx integer PRIMARY KEY, data blob);
CREATE TABLE trajectory_metadata_blob(id text DEFAULT "main" PRIMARY KEY, data blob);
CREATE TABLE battle_mode_infos(idx integer PRIMARY KEY, data blob);
PRAGMA user_version = 1;
`;

const STEP_COLUMNS = [
  "idx",
  "step_type",
  "status",
  "has_subtrajectory",
  "metadata",
  "error_details",
  "permissions",
  "task_details",
  "render_info",
  "step_payload",
  "step_format",
] as const;

export function insertStep(db: Database.Database, s: StepRow): void {
  db.prepare(
    `INSERT INTO steps (${STEP_COLUMNS.join(",")}) VALUES (${STEP_COLUMNS.map(() => "?").join(",")})`,
  ).run(STEP_COLUMNS.map((c) => (c === "has_subtrajectory" ? Number(s[c]) : s[c])));
}

/**
 * Write `body` as agy does: WAL mode, one transaction per step. With
 * `leaveWal` (or a `walShare` of the steps, the latest), the process
 * "exits" without a checkpoint, so those steps live only in `-wal` (the
 * `-shm` stays too); otherwise the database is at rest. Returns its path.
 */
export function writeAgyDatabase(
  root: string,
  body: AntigravityBody,
  options: { leaveWal?: boolean; walShare?: number; userVersion?: number } = {},
): string {
  const path = join(root, "conversations", `${body.id}.db`);
  mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma("journal_mode = WAL");
  db.exec(SPEC_SCHEMA);
  if (options.userVersion !== undefined) db.pragma(`user_version = ${options.userVersion}`);
  const rows = <T extends object>(table: string, list: T[]) => {
    for (const row of list) {
      const cols = Object.keys(row);
      db.prepare(
        `INSERT INTO ${table} (${cols.join(",")}) VALUES (${cols.map(() => "?").join(",")})`,
      ).run(Object.values(row));
    }
  };
  rows("trajectory_meta", body.trajectory_meta);
  rows("trajectory_metadata_blob", body.trajectory_metadata_blob);
  rows("gen_metadata", body.gen_metadata);
  rows("executor_metadata", body.executor_metadata);
  rows("parent_references", body.parent_references);
  rows("battle_mode_infos", body.battle_mode_infos);
  const share = options.walShare ?? (options.leaveWal ? 1 : 0);
  const split = Math.floor(body.steps.length * (1 - share));
  db.pragma("wal_autocheckpoint = 0");
  body.steps.forEach((step, i) => {
    if (i === split) db.pragma("wal_checkpoint(TRUNCATE)");
    insertStep(db, step);
  });
  if (share > 0) {
    // Copy the files while the connection is open (closing would fold the
    // -wal in): what an agy that exits without a checkpoint leaves.
    const held = `${path}.held`;
    for (const suffix of ["", "-wal", "-shm"]) copyFileSync(path + suffix, held + suffix);
    db.close();
    for (const suffix of ["", "-wal", "-shm"]) {
      copyFileSync(held + suffix, path + suffix);
      rmSync(held + suffix);
    }
  } else {
    db.close();
  }
  writeBrain(root, body);
  return path;
}

export function writeBrain(root: string, body: AntigravityBody): void {
  const logs = join(root, "brain", body.id, ".system_generated", "logs");
  mkdirSync(logs, { recursive: true });
  if (body.transcript !== undefined) writeFileSync(join(logs, "transcript.jsonl"), body.transcript);
  if (body.transcript_full !== undefined)
    writeFileSync(join(logs, "transcript_full.jsonl"), body.transcript_full);
}

const BUNDLES = join(ROOT, "node_modules", ".cache", "txcript-store-tests");
const bundled = new Map<string, string>();

/**
 * The child script bundled once into plain JavaScript (packages left
 * external), so that each child starts in a fraction of the time tsx takes:
 * the crash test starts fifty of them. The bundle lives under node_modules
 * so that Node resolves the packages from it.
 */
function bundle(script: string): string {
  let out = bundled.get(script);
  if (out === undefined) {
    out = join(BUNDLES, `${process.pid}-${script.replace(/\.ts$/, ".mjs")}`);
    buildSync({
      entryPoints: [join(CHILDREN, script)],
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

/**
 * Run a child script as another user (`nobody`, for root), who may not be
 * able to reach the checkout at all (a 0700 clone): the script is bundled
 * into a world-readable temporary directory beside the one native package
 * it needs (better-sqlite3 and its loader), and runs there. Returns the
 * reason instead when no such directory can be reached by that user.
 */
export function runChildAs(
  script: string,
  args: string[],
  uid: number,
  gid: number,
): { status: number | null; stdout: string; stderr: string } | { unreachable: string } {
  const stage = mkdtempSync(join(tmpdir(), "txcript-as-user-"));
  try {
    for (let dir = stage; dirname(dir) !== dir; dir = dirname(dir)) {
      if (dir !== stage && (statSync(dir).mode & 0o001) === 0)
        return { unreachable: `${dir} is not searchable by other users` };
    }
    buildSync({
      entryPoints: [join(CHILDREN, script)],
      outfile: join(stage, "child.mjs"),
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      external: ["better-sqlite3"],
      // ES builds first: some packages (jsonc-parser) ship a UMD main esbuild cannot follow.
      mainFields: ["module", "main"],
      // Bundled CommonJS code calls require(); an ES module has none of its own.
      banner: {
        js: "import { createRequire as __txcriptRequire } from 'node:module'; const require = __txcriptRequire(import.meta.url);",
      },
      logLevel: "silent",
    });
    const modules = join(stage, "node_modules");
    for (const pkg of ["better-sqlite3", "bindings", "file-uri-to-path"]) {
      cpSync(join(ROOT, "node_modules", pkg), join(modules, pkg), {
        recursive: true,
        // The native addon's sources and build intermediates are not needed to load it.
        filter: (src) => !/better-sqlite3\/(deps|src)(\/|$)|\/obj(\.target)?(\/|$)/.test(src),
      });
    }
    chmodRecursive(stage);
    const r = spawnSync(process.execPath, [join(stage, "child.mjs"), ...args], {
      encoding: "utf8",
      cwd: stage,
      uid,
      gid,
    });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/** a+rX on everything below `dir`. */
function chmodRecursive(dir: string): void {
  chmodSync(dir, 0o755);
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) chmodRecursive(path);
    else if (e.isFile()) chmodSync(path, statSync(path).mode | 0o444);
  }
}

/** Run a child script and collect its output. */
export function runChild(
  script: string,
  args: string[],
  options: { uid?: number; gid?: number } = {},
): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [bundle(script), ...args], {
    encoding: "utf8",
    cwd: ROOT,
    ...(options.uid !== undefined ? { uid: options.uid, gid: options.gid ?? options.uid } : {}),
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Start a child script without waiting. */
export function startChild(script: string, args: string[]) {
  return spawn(process.execPath, [bundle(script), ...args], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
}

export const CRASH_ID = "c4a5b6d7-0000-4000-8000-00000000c4a5";

/** Two versions of one conversation (old and new), sizeable enough to kill mid-save. */
export function crashBodies(): [AntigravityBody, AntigravityBody] {
  const version = (seed: number): AntigravityBody => {
    const body = handBody(CRASH_ID, 300 + seed * 50, seed);
    body.transcript = `version ${seed}\n`.repeat(2000);
    body.transcript_full = `full version ${seed}\n`.repeat(4000);
    return body;
  };
  return [version(1), version(2)];
}

const LONE_PB = "6f1d2c3b-0000-4000-8000-00000000aaaa";

/** Bad files of 13 kinds, by name, with what discovery's reason for each must say. */
export function addBadFiles(root: string, good: string): Record<string, RegExp> {
  const dir = join(root, "conversations");
  const at = (name: string) => join(dir, name);
  writeFileSync(at("empty.db"), "");
  writeFileSync(at("text.db"), "this is not a database at all, just some text that is long enough");
  writeFileSync(at("tiny.db"), "SQLite format 3\0abc");
  // Truncated: the first page of a real conversation only.
  copyFileSync(good, at("truncated.db"));
  truncateSync(at("truncated.db"), 4096);
  // Foreign SQLite: someone else's tables.
  const foreign = new Database(at("foreign.db"));
  foreign.exec(
    "CREATE TABLE notes(id integer PRIMARY KEY, body text); INSERT INTO notes VALUES (1, 'hi')",
  );
  foreign.close();
  // A steps table of another shape.
  const shaped = new Database(at("other-steps.db"));
  shaped.exec("CREATE TABLE steps(id integer PRIMARY KEY, body text)");
  shaped.close();
  // A newer agy format.
  writeAgyDatabase(root, { ...handBody("newer", 3), id: "newer" }, { userVersion: 2 });
  // Malformed: a valid header over a destroyed schema page.
  const malformed = new Database(at("malformed.db"));
  malformed.exec(SPEC_SCHEMA);
  malformed.close();
  const bytes = readFileSync(at("malformed.db"));
  bytes.fill(0xa5, 100, 4096);
  writeFileSync(at("malformed.db"), bytes);
  // A known column holding the wrong kind of value.
  const wrong = new Database(at("wrong-type.db"));
  wrong.exec(SPEC_SCHEMA);
  wrong.prepare("INSERT INTO trajectory_meta VALUES ('t', 'wrong-type', 4, 17)").run();
  wrong
    .prepare("INSERT INTO steps (idx, step_type, step_payload) VALUES (0, 14, 'text, not a blob')")
    .run();
  wrong.close();
  // Not files.
  mkdirSync(at("directory.db"));
  symlinkSync(join(root, "nowhere.db"), at("dangling.db"));
  // A lone .pb, and a name that cannot be an id.
  writeFileSync(at(`${LONE_PB}.pb`), Buffer.from([0x12, 0x9f, 0x33, 0x00]));
  writeFileSync(at("bad\u0001name.db"), "x");
  return {
    "empty.db": /^empty file$/,
    "text.db": /^not a SQLite database$/,
    "tiny.db": /^truncated: 19 bytes/,
    "truncated.db": /^truncated: 4096 bytes of the \d+ its header declares$/,
    "foreign.db": /not an agy conversation database \(no steps table\)/,
    "other-steps.db": /not an agy conversation database \(no such column: idx\)/,
    "newer.db": /user_version 2 is a newer agy format than this txcript reads \(1\)/,
    "malformed.db": /malformed database/,
    "wrong-type.db": /steps row 1: step_payload holds text, expected a blob/,
    "directory.db": /not a regular file/,
    "dangling.db": /^unreadable \(no such file or directory\)$/,
    [`${LONE_PB}.pb`]: /lone \.pb file: an encrypted conversation from agy before 1\.0\.4/,
    "bad\u0001name.db": /unusable conversation id: the name contains a control character/,
  };
}
