/**
 * Amp harness benchmark, on a generated threads folder (40 threads of 40
 * turns, one of 400, built from the documented format): discovery, and
 * load + toCommon of the large thread, each against reading and parsing
 * the same files measured in the same run. Prints medians and ratios;
 * asserts nothing.
 */

import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ampCodec } from "../src/harness/amp/codec.js";
import { AmpStore } from "../src/harness/amp/store.js";
import { createAmpThreads } from "../test/support/amp.js";
import { benchRow, codingSession, report, timeMedian } from "./util.js";

const THREADS = Number(process.env.BENCH_SESSIONS ?? 40);
const TURNS = 40;

const root = mkdtempSync(join(tmpdir(), "txcript-bench-amp-"));
try {
  const threads = Array.from({ length: THREADS }, (_, n) => {
    const common = codingSession(n, n === 0 ? TURNS * 10 : TURNS, n === 0 ? 4000 : 400, {
      model: "claude-opus-4-5",
      cwd: "/srv/app",
    });
    const id = `a0000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
    return ampCodec.fromCommon({ ...common, meta: { ...common.meta, id } }).body.thread;
  });
  const dir = createAmpThreads(root, threads);
  const store = new AmpStore({ root, env: {} });
  const discover = await timeMedian(async () => {
    await store.discover();
  }, 5);
  const baseDiscover = await timeMedian(() => {
    for (const name of readdirSync(dir)) JSON.parse(readFileSync(join(dir, name), "utf8"));
  }, 5);
  const big = String(threads[0]?.id);
  const load = await timeMedian(() => {
    ampCodec.toCommon(store.load(big));
  }, 5);
  const baseLoad = await timeMedian(() => {
    JSON.parse(readFileSync(join(dir, `${big}.json`), "utf8"));
  }, 5);
  report([
    { store: `${THREADS} threads` },
    benchRow("discover", discover, "baseline_read_parse_ms", baseDiscover),
    benchRow(`load+toCommon ${TURNS * 10} turns`, load, "baseline_read_parse_ms", baseLoad),
  ]);
} finally {
  rmSync(root, { recursive: true, force: true });
}
