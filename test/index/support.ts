/**
 * Small sessions for the index tests, written into real temporary stores
 * through each harness's own save (so every store's layout is the real one).
 */

import { join } from "node:path";
import type { Message } from "../../src/common.js";
import { harness, openStore, storedHarnesses } from "../../src/harness/index.js";
import { formatTimestamp } from "../../src/time.js";
import type { Common, HarnessId, Saved, Transcript } from "../../src/transcript.js";
import { tempDir } from "../support/tmp.js";

export interface Machine {
  home: string;
  cache: string;
  roots: Partial<Record<HarnessId, string>>;
  /** Environment for the CLI: every store root and the cache inside the temp dir. */
  env: Record<string, string>;
}

export function machine(): Machine {
  const home = tempDir("txcript-index-");
  const roots: Partial<Record<HarnessId, string>> = {};
  const env: Record<string, string> = { HOME: home, TXCRIPT_CACHE: join(home, "cache") };
  for (const h of storedHarnesses()) {
    roots[h.id] = join(home, "stores", h.id);
    env[`TXCRIPT_${h.id.toUpperCase()}_ROOT`] = roots[h.id]!;
  }
  return { home, cache: join(home, "cache"), roots, env };
}

export interface SessionSpec {
  id: string;
  title?: string;
  cwd?: string;
  /** Seconds after 2026-03-01T00:00:00Z of the first message. */
  start?: number;
  /** Alternating user / assistant texts. */
  texts: string[];
}

const BASE = Date.UTC(2026, 2, 1) / 1000;

export function transcript(spec: SessionSpec): Transcript<Common> {
  const start = BASE + (spec.start ?? 0);
  const body: Message[] = spec.texts.map((text, i) => {
    const m: Message = {
      role: i % 2 === 0 ? "user" : "assistant",
      content: [{ type: "text", text }],
      timestamp: formatTimestamp({ seconds: start + i * 10, nanos: 0 }),
    };
    if (m.role === "assistant") {
      m.model = "test-model-1";
      m.usage = { input_tokens: 100, output_tokens: 20, cache_read_input_tokens: 5 };
      m.stop_reason = "end_turn";
    }
    return m;
  });
  const meta: Transcript<Common>["meta"] = {
    id: spec.id,
    timestamp: formatTimestamp({ seconds: start, nanos: 0 }),
    cwd: spec.cwd ?? "/work/project",
  };
  if (spec.title !== undefined) meta.title = spec.title;
  return { meta, body };
}

/** Save a session into `harness`'s store under the machine's root. */
export function put(m: Machine, id: HarnessId, spec: SessionSpec): Saved {
  const store = openStore(harness(id), { root: m.roots[id]!, env: {} })!;
  return store.save(transcript(spec), { overwrite: true });
}
