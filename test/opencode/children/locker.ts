/**
 * Holds an exclusive lock on a database for a while, as a writer
 * mid-commit would: prints "locked", sleeps, releases.
 * Usage: locker.ts <db> <ms>
 */

import Database from "better-sqlite3";

const [path, ms] = process.argv.slice(2) as [string, string];
const db = new Database(path);
db.exec("BEGIN EXCLUSIVE");
process.stdout.write("locked\n");
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Number(ms));
db.exec("COMMIT");
db.close();
