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
import { benchRow, codingSession, report, timeMedian } from "./util.js";

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
    if (body.layout === "conversation") throw new Error("fromCommon writes the session layout");
    return { id, session: body.session, entries: body.entries };
  });
  const dir = createKiroSessions(root, fixtures);
  const store = new KiroStore({ root, env: {} });
  const parseAll = (name: string) =>
    readFileSync(join(dir, name), "utf8")
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l));

  const discover = await timeMedian(async () => {
    await store.discover();
  }, 5);
  const baseDiscover = await timeMedian(() => {
    for (const name of readdirSync(dir))
      if (name.endsWith(".json")) JSON.parse(readFileSync(join(dir, name), "utf8"));
      else parseAll(name);
  }, 5);
  const big = fixtures[0]?.id ?? "";
  const load = await timeMedian(() => {
    kiroCodec.toCommon(store.load(big));
  }, 5);
  const baseLoad = await timeMedian(() => {
    parseAll(`${big}.jsonl`);
  }, 5);

  report([
    { store: `${SESSIONS} sessions` },
    benchRow("discover", discover, "baseline_read_parse_ms", baseDiscover),
    benchRow(`load+toCommon ${TURNS * 10} turns`, load, "baseline_read_parse_ms", baseLoad),
  ]);
} finally {
  rmSync(root, { recursive: true, force: true });
}
