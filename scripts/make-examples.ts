/**
 * Regenerates the bundled example home (examples/home/) that `npm run demo`
 * reads: agy conversations written by the real store from the test fixture
 * builder (replicas of the two real agy 1.2.0 sample sessions and a 1.0.x
 * layout conversation with thinking, tool calls, a failed command and an
 * image). Run with `npx tsx scripts/make-examples.ts`; the output is
 * committed, so the demo needs no generation step.
 */

import { rmSync } from "node:fs";
import { join } from "node:path";
import { antigravityMeta } from "../src/harness/antigravity/codec.js";
import { AntigravityStore } from "../src/harness/antigravity/store.js";
import {
  legacyLayoutSession,
  resumedSession120,
  toolsSession120,
} from "../test/support/agy-fixtures.js";
import { ROOT } from "../test/support/cli.js";

const home = join(ROOT, "examples", "home");
rmSync(home, { recursive: true, force: true });
const store = new AntigravityStore({ root: join(home, ".gemini", "antigravity-cli"), env: {} });
for (const body of [toolsSession120(), resumedSession120(), legacyLayoutSession()]) {
  const saved = store.save({ meta: antigravityMeta(body), body });
  process.stdout.write(`${saved.path}\n`);
}
