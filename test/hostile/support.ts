/**
 * Shared by the hostile-input tests: Common transcripts to continue into
 * every store, and child scripts bundled once into plain JavaScript (the
 * bundle lives under node_modules so Node resolves the packages from it).
 */

import { spawn } from "node:child_process";
import { join } from "node:path";
import { buildSync } from "esbuild";
import { parseToCommon } from "../../src/convert.js";
import { harness, openStore } from "../../src/harness/index.js";
import type { Common, HarnessId, Saved, StoreOptions, Transcript } from "../../src/transcript.js";
import { ROOT } from "../support/cli.js";

export const STORED = ["antigravity", "claude_code", "codex"] as const;
export type StoredId = (typeof STORED)[number];

export const SID = "5d45a1b2-0c3d-4e5f-8a9b-0c1d2e3f4a5b";

/** A small Simple document with id `id`; `tag` makes its content distinct. */
export function simpleDoc(id = SID, tag = "one", words = 1): string {
  return JSON.stringify({
    id,
    title: `Document ${tag}`,
    cwd: "/nonexistent/proj",
    timestamp: "2026-11-30T09:15:00Z",
    model: "claude-opus-5",
    messages: [
      { role: "user", content: `Question ${tag} ${"word ".repeat(words)}` },
      { role: "assistant", content: `Answer ${tag}` },
    ],
  });
}

export function commonDoc(id = SID, tag = "one"): Transcript<Common> {
  return parseToCommon(simpleDoc(id, tag), "simple", "doc.json");
}

const BUNDLES = join(ROOT, "node_modules", ".cache", "txcript-hostile-tests");
const bundled = new Map<string, string>();

function bundle(script: string): string {
  let out = bundled.get(script);
  if (out === undefined) {
    out = join(BUNDLES, `${process.pid}-${script.replace(/\.ts$/, ".mjs")}`);
    buildSync({
      entryPoints: [join(ROOT, "test", "hostile", "children", script)],
      outfile: out,
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      packages: "external",
      logLevel: "silent",
    });
    bundled.set(script, out);
  }
  return out;
}

export interface ChildResult {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Run a child script to its end, without blocking the others started alongside it. */
export function runChildAsync(script: string, args: string[]): Promise<ChildResult> {
  const child = spawn(process.execPath, [bundle(script), ...args], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  return new Promise((resolve) =>
    child.on("close", (status, signal) => resolve({ status, signal, stdout, stderr })),
  );
}

/** Save `t` under its own id, as the store writes it (`continueInto` gives a copy its own id). */
export function saveAs(t: Transcript<Common>, id: HarnessId, options: StoreOptions): Saved {
  const store = openStore(harness(id), options);
  if (!store) throw new Error(`${id} has no store`);
  return store.save(t);
}
