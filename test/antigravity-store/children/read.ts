/**
 * Discover and load one conversation, printing what was seen as JSON: run
 * as another user (or in a read-only directory) by readonly.test.ts.
 * Usage: read.ts <root> <id>
 */

import { AntigravityStore } from "../../../src/harness/antigravity/store.js";
import { comparable } from "../comparable.js";

const [root, id] = process.argv.slice(2) as [string, string];
const store = new AntigravityStore({ root });
const discovery = await store.discover();
const loaded = store.load(id);
process.stdout.write(
  JSON.stringify({
    sessions: discovery.sessions.map((s) => s.id),
    skipped: discovery.skipped,
    body: comparable(loaded.body),
  }),
);
