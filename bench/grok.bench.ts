/**
 * Grok CLI harness benchmark, on a generated sessions folder (40 sessions
 * of 40 turns, one of 400, written from Common by the codec in Grok's
 * layout): discovery, and load + toCommon of the large session, each
 * against reading and parsing the same files measured in the same run.
 * Prints medians and ratios; asserts nothing.
 */

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { grokCodec } from "../src/harness/grok/codec.js";
import { GrokStore } from "../src/harness/grok/store.js";
import { codingSession, parseJsonLines, report, storeRows } from "./util.js";

const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 40);
const TURNS = 40;

const root = mkdtempSync(join(tmpdir(), "txcript-bench-grok-"));
try {
  const group = join(root, "sessions", "%2Fsrv%2Fapp");
  const ids = Array.from({ length: SESSIONS }, (_, n) => {
    const common = codingSession(n, n === 0 ? TURNS * 10 : TURNS, n === 0 ? 4000 : 400, {
      model: "grok-code-fast-1",
      cwd: "/srv/app",
    });
    const id = `a0000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
    const { body } = grokCodec.fromCommon({ ...common, meta: { ...common.meta, id } });
    const dir = join(group, id);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "summary.json"), JSON.stringify(body.summary));
    writeFileSync(
      join(dir, "updates.jsonl"),
      body.updates.map((u) => `${JSON.stringify(u)}\n`).join(""),
    );
    return id;
  });
  const store = new GrokStore({ root, env: {} });
  const big = ids[0] ?? "";
  const rows = await storeRows(
    {
      discover: () => store.discover(),
      baseDiscover: () => {
        for (const id of ids) {
          JSON.parse(readFileSync(join(group, id, "summary.json"), "utf8"));
          parseJsonLines(join(group, id, "updates.jsonl"));
        }
      },
      load: () => grokCodec.toCommon(store.load(big)),
      baseLoad: () => parseJsonLines(join(group, big, "updates.jsonl")),
    },
    TURNS * 10,
  );
  report([{ store: `${SESSIONS} sessions` }, ...rows]);
} finally {
  rmSync(root, { recursive: true, force: true });
}
