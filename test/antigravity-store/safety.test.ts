/**
 * Path safety of save and delete on real directories: traversal, absolute
 * and control-character ids, symlinked conversations/, databases and brain
 * directories, hostile SQL in a document's extra tables. Nothing outside
 * the root is ever created, changed or removed.
 */

import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  ConflictError,
  InvalidRequestError,
  NotFoundError,
  UnsafePathError,
} from "../../src/errors.js";
import type { AntigravityBody } from "../../src/harness/antigravity/body.js";
import { AntigravityStore } from "../../src/harness/antigravity/store.js";
import { hashTree, tempDir } from "../support/tmp.js";
import { handBody, T0, writeAgyDatabase } from "./support.js";

const save = (store: AntigravityStore, body: AntigravityBody, overwrite = false) =>
  store.save({ meta: { id: body.id, timestamp: T0 }, body }, { overwrite });

/** A root beside an outside directory holding a file that must survive. */
function layout() {
  const top = tempDir();
  const root = join(top, "root");
  const outside = join(top, "outside");
  mkdirSync(outside);
  writeFileSync(join(outside, "precious.db"), "do not touch");
  return { top, root, outside };
}

describe.skipIf(process.platform === "win32")("path safety", () => {
  const unsafe = [
    "../escape",
    "..",
    ".",
    "a/b",
    "a\\b",
    "/etc/passwd",
    "C:\\Windows",
    "",
    "nul\u0000byte",
    "line\nbreak",
  ];

  it.each(unsafe)(
    "refuses the id %j in save, load, delete and fingerprint, creating nothing",
    (id) => {
      const { top, root } = layout();
      const before = hashTree(top);
      const store = new AntigravityStore({ root });
      const body = { ...handBody("x", 1), id };
      expect(() => save(store, body)).toThrow(UnsafePathError);
      expect(() => store.load(id)).toThrow(UnsafePathError);
      expect(() => store.delete(id)).toThrow(UnsafePathError);
      expect(store.fingerprint(id)).toBeUndefined();
      expect(hashTree(top)).toEqual(before);
    },
  );

  it("refuses a transcript whose id is not its body's", () => {
    const store = new AntigravityStore({ root: tempDir() });
    const body = handBody("body-id", 1);
    expect(() => store.save({ meta: { id: "other-id", timestamp: T0 }, body })).toThrow(
      InvalidRequestError,
    );
    expect(readdirSync(store.roots[0]!)).toEqual([]);
  });

  it("refuses to save or delete through a conversations/ that leads outside the root", () => {
    const { top, root, outside } = layout();
    mkdirSync(root);
    symlinkSync(outside, join(root, "conversations"));
    symlinkSync(join(outside, "precious.db"), join(outside, "victim.db")); // something delete could reach
    const before = hashTree(top);
    const store = new AntigravityStore({ root });
    expect(() => save(store, handBody("victim", 1))).toThrow(UnsafePathError);
    expect(() => store.delete("victim")).toThrow(UnsafePathError);
    expect(hashTree(top)).toEqual(before);
  });

  it("refuses to delete or overwrite a database that is a symlink to a file outside the root", () => {
    const { top, root, outside } = layout();
    mkdirSync(join(root, "conversations"), { recursive: true });
    symlinkSync(join(outside, "precious.db"), join(root, "conversations", "linked.db"));
    const before = hashTree(top);
    const store = new AntigravityStore({ root });
    expect(() => store.delete("linked")).toThrow(UnsafePathError);
    expect(() => save(store, handBody("linked", 1), true)).toThrow(UnsafePathError);
    expect(hashTree(top)).toEqual(before);
  });

  it("deleting a database symlinked to another conversation removes the link, not the other", () => {
    const root = tempDir();
    const store = new AntigravityStore({ root });
    save(store, handBody("real", 2));
    const link = join(root, "conversations", "alias.db");
    symlinkSync("real.db", link);
    expect(store.delete("alias")).toEqual([link]);
    expect(existsSync(link)).toBe(false);
    expect(store.load("real").body.steps).toHaveLength(2);
  });

  it("refuses to save through a brain/<id> that leads outside the root; deleting removes only the link", () => {
    const { root, outside } = layout();
    const other = join(outside, "brain-elsewhere");
    mkdirSync(join(other, ".system_generated", "logs"), { recursive: true });
    writeFileSync(join(other, "task.md"), "not ours");
    mkdirSync(join(root, "brain"), { recursive: true });
    const brain = join(root, "brain", "linked");
    symlinkSync(other, brain);
    const outsideBefore = hashTree(outside);
    const store = new AntigravityStore({ root });
    const body = handBody("linked", 1);
    expect(() => save(store, body)).toThrow(UnsafePathError);
    // Refused before anything is created: not even conversations/.
    expect(existsSync(join(root, "conversations"))).toBe(false);
    expect(hashTree(outside)).toEqual(outsideBefore);

    // A database that got there some other way: delete takes the link, not its target.
    save(new AntigravityStore({ root: join(root, "..", "elsewhere") }), body);
    mkdirSync(join(root, "conversations"));
    copyFileSync(
      join(root, "..", "elsewhere", "conversations", "linked.db"),
      join(root, "conversations", "linked.db"),
    );
    expect(store.delete("linked").sort()).toEqual(
      [brain, join(root, "conversations", "linked.db")].sort(),
    );
    expect(existsSync(brain)).toBe(false);
    expect(hashTree(outside)).toEqual(outsideBefore);
  });

  it("refuses a delete whose brain/ leads outside the root, before removing anything", () => {
    const { top, root, outside } = layout();
    const store = new AntigravityStore({ root });
    save(store, handBody("victim", 1));
    mkdirSync(join(outside, "victim"));
    writeFileSync(join(outside, "victim", "notes.md"), "keep");
    renameSync(join(root, "brain"), join(root, "brain-moved"));
    symlinkSync(outside, join(root, "brain"));
    const before = hashTree(top);
    expect(() => store.delete("victim")).toThrow(UnsafePathError);
    expect(hashTree(top)).toEqual(before);
  });

  it("deletes exactly the database, its -wal and -shm, and brain/<id>/", () => {
    const root = tempDir();
    const keep = handBody("keep", 2);
    const gone = handBody("gone", 3);
    gone.transcript = "log\n";
    writeAgyDatabase(root, keep, { leaveWal: true });
    const path = writeAgyDatabase(root, gone, { leaveWal: true });
    writeFileSync(path.replace(/\.db$/, ".pb"), "fork copy"); // not the database: kept
    const store = new AntigravityStore({ root });
    const removed = store.delete("gone");
    expect(removed.sort()).toEqual(
      [path, `${path}-wal`, `${path}-shm`, join(root, "brain", "gone")].sort(),
    );
    expect(readdirSync(join(root, "conversations")).sort()).toEqual(
      ["gone.pb", "keep.db", "keep.db-shm", "keep.db-wal"].sort(),
    );
    expect(readdirSync(join(root, "brain"))).toEqual(["keep"]);
    expect(() => store.delete("gone")).toThrow(NotFoundError);
    expect(store.load("keep").body.steps).toHaveLength(2);
  });

  it("refuses to overwrite unless asked, leaving the existing conversation untouched", () => {
    const root = tempDir();
    const store = new AntigravityStore({ root });
    save(store, handBody("same", 2, 1));
    const before = hashTree(root);
    expect(() => save(store, handBody("same", 5, 2))).toThrow(ConflictError);
    expect(hashTree(root)).toEqual(before);
    save(store, handBody("same", 5, 2), true);
    expect(store.load("same").body.steps).toHaveLength(5);
  });

  it.each([
    ["a second statement", 'CREATE TABLE t(x); ATTACH DATABASE "OUT" AS o'],
    ["an ATTACH", 'ATTACH DATABASE "OUT" AS o'],
    ["a table of another name", "CREATE TABLE someone_else(x)"],
    ["a table in another schema", "CREATE TABLE temp.t(x)"],
    ["not SQL at all", "CREATE TABLE t(x"],
  ])("refuses an extra table whose SQL is %s, writing nothing", (_what, sql) => {
    const { root, outside } = layout();
    const store = new AntigravityStore({ root });
    const body = handBody("hostile", 1);
    body.extra_tables.push({
      name: "t",
      sql: sql.replace("OUT", join(outside, "attached.db")),
      columns: ["x"],
      rows: [[1]],
    });
    const before = hashTree(outside);
    expect(() => save(store, body)).toThrow(InvalidRequestError);
    expect(existsSync(join(outside, "attached.db"))).toBe(false);
    expect(readdirSync(join(root, "conversations"))).toEqual([]);
    expect(hashTree(outside)).toEqual(before);
    expect(readdirSync(root)).toEqual(["conversations"]); // no brain/ for a failed save
  });

  it("refuses an extra table that would replace one of agy's", () => {
    const store = new AntigravityStore({ root: tempDir() });
    const body = handBody("shadow", 1);
    body.extra_tables.push({
      name: "steps",
      sql: "CREATE TABLE steps(x)",
      columns: ["x"],
      rows: [],
    });
    expect(() => save(store, body)).toThrow(/belongs to agy's schema/);
  });
});
