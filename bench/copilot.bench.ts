/**
 * Copilot CLI harness benchmark, on a generated session-state folder (40
 * sessions of 40 turns, one of 400, written by txcript's own Copilot
 * writer): discovery, and load + toCommon of the large session, each
 * against reading and parsing the same events files line by line, measured
 * in the same run. Prints medians and ratios; asserts nothing.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { copilotCodec } from "../src/harness/copilot/codec.js";
import { CopilotStore } from "../src/harness/copilot/store.js";
import { benchSessionFiles } from "./util.js";

const root = mkdtempSync(join(tmpdir(), "txcript-bench-copilot-"));
const id = (n: number) => `c0000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
try {
  const store = new CopilotStore({ root, env: {} });
  await benchSessionFiles(
    {
      sessions: Number(process.env.BENCH_SESSIONS ?? 40),
      options: () => ({ model: "claude-sonnet-4.5", cwd: "/srv/app" }),
      write: (n, common) =>
        store.save(copilotCodec.fromCommon({ ...common, meta: { ...common.meta, id: id(n) } }))
          .path,
      discover: () => store.discover(),
      loadCommon: (n) => copilotCodec.toCommon(store.load(id(n))),
    },
    40,
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}
