/**
 * Goose harness benchmark, on a generated `sessions.db` with schema v9
 * (200 sessions of 40 turns, built from the documented format): discovery,
 * and load + toCommon of one large session, each against a raw SELECT of
 * the same rows measured in the same run. Prints medians and ratios;
 * asserts nothing.
 */

import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { gooseCodec } from "../src/harness/goose/codec.js";
import { GooseStore } from "../src/harness/goose/store.js";
import { createGooseDatabase } from "../test/support/goose.js";
import { codingSession, mb, report, selectSessions, storeRows } from "./util.js";

const SESSIONS = 200;
const TURNS = 40;

const root = mkdtempSync(join(tmpdir(), "txcript-bench-goose-"));
try {
  const fixtures = Array.from({ length: SESSIONS }, (_, n) => {
    const common = codingSession(n, n === 0 ? TURNS * 10 : TURNS, n === 0 ? 4000 : 400, {
      model: "claude-sonnet-4-5",
      cwd: "/srv/app",
    });
    const body = gooseCodec.fromCommon(common).body;
    return { id: `20260801_${n}`, model: "claude-sonnet-4-5", messages: body.messages };
  });
  const path = createGooseDatabase(root, fixtures);
  const store = new GooseStore({ root, env: {} });

  const big = "20260801_0";
  const rows = await storeRows(
    {
      discover: () => store.discover(),
      baseDiscover: () => selectSessions(path),
      load: () => gooseCodec.toCommon(store.load(big)),
      baseLoad: () => {
        const db = new Database(path, { readonly: true });
        for (const r of db
          .prepare("SELECT content_json FROM messages WHERE session_id = ?")
          .all(big) as { content_json: string }[])
          JSON.parse(r.content_json);
        db.close();
      },
    },
    TURNS * 10,
    "baseline_select_all_ms",
    "baseline_select_parse_ms",
  );

  report([
    { store: `${SESSIONS} sessions`, size: mb(statSync(path).size) },
    ...rows,
    { peak_rss: mb(process.resourceUsage().maxRSS * 1024) },
  ]);
} finally {
  rmSync(root, { recursive: true, force: true });
}
