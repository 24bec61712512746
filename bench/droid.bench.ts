/**
 * Factory Droid harness benchmark, on a generated `~/.factory/sessions`
 * (200 sessions of 40 turns with their settings files, written by the
 * harness's own fromCommon and store): discovery, and load + toCommon of
 * one large session, each against reading and parsing the same files'
 * lines measured in the same run. Prints medians and ratios; asserts nothing.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { droidCodec } from "../src/harness/droid/codec.js";
import { DroidStore } from "../src/harness/droid/store.js";
import { benchSessionFiles } from "./util.js";

const root = mkdtempSync(join(tmpdir(), "txcript-bench-droid-"));
const id = (n: number) => `d0000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
try {
  const store = new DroidStore({ root, env: {} });
  await benchSessionFiles(
    {
      sessions: 200,
      options: (n) => ({ model: "custom:claude-sonnet-4-5", cwd: `/srv/app${n % 10}` }),
      write: (n, common) =>
        store.save(droidCodec.fromCommon({ ...common, meta: { ...common.meta, id: id(n) } })).path,
      discover: () => store.discover(),
      loadCommon: (n) => droidCodec.toCommon(store.load(id(n))),
    },
    40,
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}
