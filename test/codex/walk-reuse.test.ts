/**
 * Reads (load, fingerprint) reuse a walk of the rollouts made a moment
 * before, so loading many sessions in a row walks the store once, not once
 * a session; what changed on disk within that moment is still seen: a
 * rollout moved or removed walks again, a new one is found, and a save or
 * delete always walks. Real temporary Codex homes.
 */

import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { NotFoundError } from "../../src/errors.js";
import { CodexStore } from "../../src/harness/codex/store.js";
import { ROOT } from "../support/cli.js";
import { tempDir } from "../support/tmp.js";

const SESSION = readFileSync(join(ROOT, "test/fixtures/codex/session.jsonl"), "utf8");
const ID = "019a1b2c-3d4e-7f00-8a9b-0c1d2e3f4a5b";
const OTHER = "019a1b2c-3d4e-7f00-8a9b-0c1d2e3f4aff";

function put(home: string, rel: string, content: string): string {
  const path = join(home, rel);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  return path;
}

const dated = (id: string) => `sessions/2026/08/10/rollout-2026-08-10T12-00-00-${id}.jsonl`;

describe("Codex reads reuse a recent walk of the rollouts", () => {
  it("a rollout moved right after a load is loaded from where it is now", () => {
    const home = tempDir("codex-walk-");
    const first = put(home, dated(ID), SESSION);
    const store = new CodexStore({ root: home, env: {} });
    const before = store.load(ID);
    expect(store.fingerprint(ID)?.files[0]?.path).toBe(first);
    const moved = join(home, "archived_sessions", `rollout-2026-08-10T12-00-00-${ID}.jsonl`);
    mkdirSync(dirname(moved), { recursive: true });
    renameSync(first, moved);
    expect(store.load(ID)).toEqual(before);
    expect(store.fingerprint(ID)?.files[0]?.path).toBe(moved);
  });

  it("a session written right after a load is found; one removed is not", () => {
    const home = tempDir("codex-walk-");
    const path = put(home, dated(ID), SESSION);
    const store = new CodexStore({ root: home, env: {} });
    store.load(ID);
    put(home, dated(OTHER), SESSION.replaceAll(ID, OTHER));
    expect(store.load(OTHER).meta.id).toBe(OTHER);
    rmSync(path);
    expect(() => store.load(ID)).toThrow(NotFoundError);
    expect(store.fingerprint(ID)).toBeUndefined();
  });

  it("another store instance over the same home sees the same files", () => {
    const home = tempDir("codex-walk-");
    put(home, dated(ID), SESSION);
    new CodexStore({ root: home, env: {} }).load(ID);
    const other = tempDir("codex-walk-");
    // A different home is never answered from this one's walk.
    expect(() => new CodexStore({ root: other, env: {} }).load(ID)).toThrow(NotFoundError);
  });
});
