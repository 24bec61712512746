/**
 * Qwen Code harness benchmark, on a generated `~/.qwen/projects` (200
 * sessions of 40 turns, written by the harness's own fromCommon and store):
 * discovery, and load + toCommon of one large session, each against reading
 * and parsing the same files' lines measured in the same run. Prints
 * medians and ratios; asserts nothing.
 */

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { qwenCodec } from "../src/harness/qwen-code/codec.js";
import { QwenCodeStore } from "../src/harness/qwen-code/store.js";
import { codingSession, report, timeMedian } from "./util.js";

const SESSIONS = 200;
const TURNS = 40;

const root = mkdtempSync(join(tmpdir(), "txcript-bench-qwen-"));
try {
  const store = new QwenCodeStore({ root, env: {} });
  const paths: string[] = [];
  for (let n = 0; n < SESSIONS; n++) {
    const common = codingSession(n, n === 0 ? TURNS * 10 : TURNS, n === 0 ? 4000 : 400, {
      model: "qwen3-coder-plus",
      cwd: `/srv/app${n % 10}`,
    });
    const id = `b0000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
    paths.push(store.save(qwenCodec.fromCommon({ ...common, meta: { ...common.meta, id } })).path);
  }
  const parseAll = (path: string) =>
    readFileSync(path, "utf8")
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l));

  const discover = await timeMedian(async () => {
    await store.discover();
  }, 5);
  const baseDiscover = await timeMedian(() => {
    for (const path of paths) parseAll(path);
  }, 5);
  const big = "b0000000-0000-4000-8000-000000000000";
  const load = await timeMedian(() => {
    qwenCodec.toCommon(store.load(big));
  }, 5);
  const baseLoad = await timeMedian(() => {
    parseAll(paths[0] ?? "");
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
