/**
 * Cline harness benchmark, on a generated sessions folder (40
 * sessions of 40 turns, one of 400, written by txcript's own Cline
 * writer): discovery, and load + toCommon of the large session, each
 * against reading and parsing the same messages files, measured
 * in the same run. Prints medians and ratios; asserts nothing.
 */

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { clineCodec } from "../src/harness/cline/codec.js";
import { ClineStore } from "../src/harness/cline/store.js";
import { codingSession, report, timeMedian } from "./util.js";

const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 40);
const TURNS = 40;

function parseLines(path: string): void {
  JSON.parse(readFileSync(path, "utf8"));
}

const root = mkdtempSync(join(tmpdir(), "txcript-bench-cline-"));
try {
  const store = new ClineStore({ root, env: {} });
  const paths = Array.from({ length: SESSIONS }, (_, n) => {
    const common = codingSession(n, n === 0 ? TURNS * 10 : TURNS, n === 0 ? 4000 : 400, {
      model: "gpt-4o",
      cwd: "/srv/app",
    });
    const id = `d0000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
    return store.save(clineCodec.fromCommon({ ...common, meta: { ...common.meta, id } }));
  });
  const discover = await timeMedian(async () => {
    await store.discover();
  }, 5);
  const baseDiscover = await timeMedian(() => {
    for (const p of paths) parseLines(p.path);
  }, 5);
  const big = paths[0];
  const load = await timeMedian(() => {
    clineCodec.toCommon(store.load(String(big?.id)));
  }, 5);
  const baseLoad = await timeMedian(() => {
    parseLines(String(big?.path));
  }, 5);
  report([
    { store: `${SESSIONS} sessions` },
    {
      op: "discover",
      median_ms: discover.toFixed(1),
      baseline_read_parse_ms: baseDiscover.toFixed(1),
      ratio: (discover / baseDiscover).toFixed(2),
    },
    {
      op: `load+toCommon ${TURNS * 10} turns`,
      median_ms: load.toFixed(1),
      baseline_read_parse_ms: baseLoad.toFixed(1),
      ratio: (load / baseLoad).toFixed(2),
    },
  ]);
} finally {
  rmSync(root, { recursive: true, force: true });
}
