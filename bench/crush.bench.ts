/**
 * Crush harness benchmark, on generated project databases built from the
 * documented format (4 projects of 50 sessions of 40 turns, one session
 * of 400): discovery over every project, and load + toCommon of the large
 * session, each against a raw SELECT of the same rows measured in the same
 * run. Prints medians and ratios; asserts nothing.
 */

import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { crushCodec } from "../src/harness/crush/codec.js";
import { CrushStore } from "../src/harness/crush/store.js";
import { type CrushSessionFixture, createCrushProject } from "../test/support/crush.js";
import { codingSession, mb, report, selectSessions, storeRows } from "./util.js";

const PROJECTS = 4;
const PER_PROJECT = 50;
const TURNS = 40;

function fixture(n: number): CrushSessionFixture {
  const common = codingSession(n, n === 0 ? TURNS * 10 : TURNS, n === 0 ? 4000 : 400, {
    model: "claude-sonnet-4-5",
    cwd: "/srv/app",
  });
  const body = crushCodec.fromCommon(common).body;
  return {
    id: `bench-${n}`,
    title: `session ${n}`,
    messages: body.messages.map((m, i) => ({
      id: `bench-${n}-${i}`,
      role: String(m.role),
      parts: String(m.parts),
      model: typeof m.model === "string" ? m.model : "",
      created_at: typeof m.created_at === "number" ? m.created_at : 0,
    })),
  };
}

const base = mkdtempSync(join(tmpdir(), "txcript-bench-crush-"));
try {
  const root = join(base, "global");
  const paths: string[] = [];
  for (let p = 0; p < PROJECTS; p++) {
    const sessions = Array.from({ length: PER_PROJECT }, (_, i) => fixture(p * PER_PROJECT + i));
    paths.push(createCrushProject(root, join(base, `project-${p}`), sessions));
  }
  const store = new CrushStore({ root, env: {} });

  const big = "bench-0";
  const rows = await storeRows(
    {
      discover: () => store.discover(),
      baseDiscover: () => {
        for (const path of paths) selectSessions(path);
      },
      load: () => crushCodec.toCommon(store.load(big)),
      baseLoad: () => {
        const db = new Database(paths[0] ?? "", { readonly: true });
        for (const r of db
          .prepare("SELECT parts FROM messages WHERE session_id = ? ORDER BY created_at")
          .all(big) as { parts: string }[])
          JSON.parse(r.parts);
        db.close();
      },
    },
    TURNS * 10,
    "baseline_select_all_ms",
    "baseline_select_parse_ms",
  );

  report([
    {
      store: `${PROJECTS} projects x ${PER_PROJECT} sessions`,
      size: mb(paths.reduce((n, p) => n + statSync(p).size, 0)),
    },
    ...rows,
    { peak_rss: mb(process.resourceUsage().maxRSS * 1024) },
  ]);
} finally {
  rmSync(base, { recursive: true, force: true });
}
