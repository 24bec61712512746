/**
 * Cline harness benchmark, on a generated sessions folder (40 sessions of
 * 40 turns, one of 400, written by txcript's own Cline writer): discovery,
 * and load + toCommon of the large session, each against reading and
 * parsing the same messages files (one JSON document each), measured in the
 * same run. Prints medians and ratios; asserts nothing.
 */

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { clineCodec } from "../src/harness/cline/codec.js";
import { ClineStore } from "../src/harness/cline/store.js";
import { benchSessionFiles } from "./util.js";

const root = mkdtempSync(join(tmpdir(), "txcript-bench-cline-"));
const id = (n: number) => `d0000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
try {
  const store = new ClineStore({ root, env: {} });
  await benchSessionFiles(
    {
      sessions: Number(process.env.BENCH_SESSIONS ?? 40),
      options: () => ({ model: "gpt-4o", cwd: "/srv/app" }),
      write: (n, common) =>
        store.save(clineCodec.fromCommon({ ...common, meta: { ...common.meta, id: id(n) } })).path,
      discover: () => store.discover(),
      loadCommon: (n) => clineCodec.toCommon(store.load(id(n))),
      parse: (path) => JSON.parse(readFileSync(path, "utf8")),
    },
    40,
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}
