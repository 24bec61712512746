/**
 * A stand-in for a live agy: appends steps to a WAL conversation database,
 * one transaction per step, checkpointing often, until `count` steps exist.
 * Usage: writer.ts <db> <count> <done-marker>
 */

import { writeFileSync } from "node:fs";
import Database from "better-sqlite3";
import { insertStep, prng, rawStep } from "../support.js";

const [path, count, marker] = process.argv.slice(2) as [string, string, string];
const db = new Database(path, { timeout: 5000 });
db.pragma("journal_mode = WAL");
db.pragma("wal_autocheckpoint = 8"); // checkpoints land while readers read
const have = db.prepare("SELECT count(*) FROM steps").pluck().get() as number;
for (let i = have; i < Number(count); i++) {
  insertStep(db, rawStep(i, prng(i), { step_type: i % 3 === 0 ? 14 : 15, status: 3 }));
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2);
}
writeFileSync(marker, "done");
db.close();
