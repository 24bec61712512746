/**
 * Stands in for a running OpenCode: inserts sessions, messages and parts
 * into the database in short write transactions (as OpenCode's event
 * projector does, WAL mode) for `ms` milliseconds, then prints
 * "wrote <sessions> <messages> <parts>". Prints "started" after its first commit.
 * Usage: writer.ts <db> <ms>
 */

import Database from "better-sqlite3";

const [path, ms] = process.argv.slice(2) as [string, string];
const db = new Database(path, { timeout: 5000 });
db.pragma("journal_mode = WAL");
const end = Date.now() + Number(ms);
let sessions = 0;
let messages = 0;
let parts = 0;
const project = db.prepare(
  "INSERT OR IGNORE INTO project (id, worktree, time_created, time_updated, sandboxes) VALUES ('writer', '/w', 0, 0, '[]')",
);
project.run();
const insertSession = db.prepare(
  "INSERT INTO session (id, project_id, slug, directory, title, version, time_created, time_updated) VALUES (?, 'writer', 's', '/w', 'live', '1.18.33', ?, ?)",
);
const insertMessage = db.prepare(
  "INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)",
);
const insertPart = db.prepare(
  "INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)",
);
const touch = db.prepare("UPDATE session SET time_updated = ? WHERE id = ?");
let first = true;
while (Date.now() < end) {
  const sid = `ses_live${String(sessions).padStart(8, "0")}`;
  db.exec("BEGIN IMMEDIATE");
  insertSession.run(sid, Date.now(), Date.now());
  db.exec("COMMIT");
  sessions++;
  for (let m = 0; m < 5; m++) {
    const mid = `msg_live${String(sessions).padStart(6, "0")}${m}`;
    db.exec("BEGIN IMMEDIATE");
    insertMessage.run(
      mid,
      sid,
      Date.now(),
      Date.now(),
      JSON.stringify({ role: "user", time: { created: Date.now() } }),
    );
    insertPart.run(
      `prt_${mid.slice(4)}`,
      mid,
      sid,
      Date.now(),
      Date.now(),
      JSON.stringify({ type: "text", text: `live ${m}` }),
    );
    touch.run(Date.now(), sid);
    db.exec("COMMIT");
    messages++;
    parts++;
    if (first) {
      process.stdout.write("started\n");
      first = false;
    }
  }
}
db.close();
process.stdout.write(`wrote ${sessions} ${messages} ${parts}\n`);
