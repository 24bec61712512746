/**
 * Helpers for the Gemini CLI tests: the real 0.61.0 fixture tree copied into
 * a temporary `.gemini`, and a small builder for hand-written session files.
 */

import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { GeminiCliStore } from "../../src/harness/gemini-cli/index.js";
import { ROOT } from "../support/cli.js";
import { tempDir } from "../support/tmp.js";

/** The `.gemini` tree the real CLI wrote (see test/fixtures/gemini-cli/README.md). */
export const FIXTURE = join(ROOT, "test/fixtures/gemini-cli/dot-gemini");

export const IDS = {
  hello: "889a529d-a133-4444-a01e-1c25d0d1d7f6",
  failing: "5e09ee6a-1b70-4ad5-bf6c-34cc2cdfcd00",
  tools: "4b00b656-5e22-4356-861e-856f8c072259",
  multi: "fd33c91c-f30d-48e1-9c41-d6079fc368b6",
} as const;

export const FILES = {
  hello: "tmp/my-app/chats/session-2026-12-03T06-27-889a529d.jsonl",
  failing: "tmp/failing/chats/session-2026-12-03T06-27-5e09ee6a.jsonl",
  tools: "tmp/tools/chats/session-2026-12-03T06-28-4b00b656.jsonl",
  multi: "tmp/multi-turn/chats/session-2026-12-03T06-29-fd33c91c.jsonl",
} as const;

export const PROJ = "/tmp/gemini-fixture/home/proj";

/** A copy of the fixture `.gemini` in a fresh temporary directory. */
export function fixtureHome(): string {
  const dir = join(tempDir("gemini-cli-"), ".gemini");
  cpSync(FIXTURE, dir, { recursive: true });
  return dir;
}

/** An empty `.gemini` in a fresh temporary directory. */
export function emptyHome(): string {
  const dir = join(tempDir("gemini-cli-"), ".gemini");
  mkdirSync(dir, { recursive: true });
  return dir;
}

export function store(root: string): GeminiCliStore {
  return new GeminiCliStore({ root, env: {} });
}

export function put(root: string, rel: string, text: string): string {
  const path = join(root, rel);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

export const jsonl = (...records: unknown[]): string =>
  records.map((r) => (typeof r === "string" ? r : JSON.stringify(r))).join("\n") + "\n";

export const metaLine = (sessionId: string, extra: Record<string, unknown> = {}) => ({
  sessionId,
  projectHash: "0".repeat(64),
  startTime: "2026-08-10T12:00:00.000Z",
  lastUpdated: "2026-08-10T12:00:00.000Z",
  kind: "main",
  ...extra,
});

export const user = (id: string, text: string, at = "2026-08-10T12:00:01.000Z") => ({
  id,
  timestamp: at,
  type: "user",
  content: [{ text }],
});

export const gemini = (id: string, content: unknown, extra: Record<string, unknown> = {}) => ({
  id,
  timestamp: "2026-08-10T12:00:02.000Z",
  type: "gemini",
  content,
  model: "gemini-2.5-pro",
  ...extra,
});
