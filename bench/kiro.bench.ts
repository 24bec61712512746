/**
 * Kiro CLI harness benchmark, on a generated `~/.kiro/sessions/cli` (200
 * sessions of 40 turns, built from the documented format): discovery, and
 * load + toCommon of one large session, each against reading and parsing
 * the same files' lines measured in the same run. Prints medians and
 * ratios; asserts nothing.
 */

import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { kiroCodec } from "../src/harness/kiro/codec.js";
import { KiroStore } from "../src/harness/kiro/store.js";
import { createKiroSessions } from "../test/support/kiro.js";
import { codingSession, parseJsonLines, report, storeRows } from "./util.js";

const SESSIONS = 200;
const TURNS = 40;

const root = mkdtempSync(join(tmpdir(), "txcript-bench-kiro-"));
try {
  const fixtures = Array.from({ length: SESSIONS }, (_, n) => {
    const common = codingSession(n, n === 0 ? TURNS * 10 : TURNS, n === 0 ? 4000 : 400, {
      model: "claude-sonnet-4.5",
      cwd: "/srv/app",
    });
    const id = `b0000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
    const body = kiroCodec.fromCommon({ ...common, meta: { ...common.meta, id } }).body;
    if (body.layout !== undefined) throw new Error("fromCommon writes the session layout");
    return { id, session: body.session, entries: body.entries };
  });
  const dir = createKiroSessions(root, fixtures);
  const store = new KiroStore({ root, env: {} });
  const big = fixtures[0]?.id ?? "";
  const rows = await storeRows(
    {
      discover: () => store.discover(),
      baseDiscover: () => {
        for (const name of readdirSync(dir))
          if (name.endsWith(".json")) JSON.parse(readFileSync(join(dir, name), "utf8"));
          else parseJsonLines(join(dir, name));
      },
      load: () => kiroCodec.toCommon(store.load(big)),
      baseLoad: () => parseJsonLines(join(dir, `${big}.jsonl`)),
    },
    TURNS * 10,
  );
  report([{ store: `${SESSIONS} sessions` }, ...rows]);
} finally {
  rmSync(root, { recursive: true, force: true });
}
