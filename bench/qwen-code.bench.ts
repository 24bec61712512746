/**
 * Qwen Code harness benchmark, on a generated `~/.qwen/projects` (200
 * sessions of 40 turns, written by the harness's own fromCommon and store):
 * discovery, and load + toCommon of one large session, each against reading
 * and parsing the same files' lines measured in the same run. Prints
 * medians and ratios; asserts nothing.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { qwenCodec } from "../src/harness/qwen-code/codec.js";
import { QwenCodeStore } from "../src/harness/qwen-code/store.js";
import { benchSessionFiles } from "./util.js";

const root = mkdtempSync(join(tmpdir(), "txcript-bench-qwen-"));
const id = (n: number) => `b0000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
try {
  const store = new QwenCodeStore({ root, env: {} });
  await benchSessionFiles(
    {
      sessions: 200,
      options: (n) => ({ model: "qwen3-coder-plus", cwd: `/srv/app${n % 10}` }),
      write: (n, common) =>
        store.save(qwenCodec.fromCommon({ ...common, meta: { ...common.meta, id: id(n) } })).path,
      discover: () => store.discover(),
      loadCommon: (n) => qwenCodec.toCommon(store.load(id(n))),
    },
    40,
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}
