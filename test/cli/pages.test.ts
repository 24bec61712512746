/**
 * view/export --format markdown|html, --redact and export --all through the
 * built binary, on a temporary home holding real agy databases.
 */

import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import type { AntigravityBody } from "../../src/harness/antigravity/body.js";
import { antigravityMeta } from "../../src/harness/antigravity/codec.js";
import { AntigravityStore } from "../../src/harness/antigravity/store.js";
import {
  legacyLayoutSession,
  resumedSession120,
  toolsSession120,
} from "../support/agy-fixtures.js";
import { txcript } from "../support/cli.js";
import { hashTree, tempDir } from "../support/tmp.js";

let home: string;
let agyRoot: string;

function save(body: AntigravityBody): void {
  new AntigravityStore({ root: agyRoot, env: {} }).save({ meta: antigravityMeta(body), body });
}

function run(args: string[], env: Record<string, string> = {}) {
  return txcript(args, { env: { HOME: home, USER: "nobody-here", ...env } });
}

beforeEach(() => {
  home = tempDir("txcript-home-");
  agyRoot = join(home, ".gemini", "antigravity-cli");
  save(toolsSession120());
  save(resumedSession120());
  save(legacyLayoutSession());
});

describe("pages from the CLI", () => {
  it("view --format html and markdown show commands, not argument JSON, and no absolute cwd", () => {
    const html = run(["view", "8c1f", "--format", "html"]);
    expect(html.status).toBe(0);
    expect(html.stdout).toMatch(/^<!doctype html>/);
    expect(html.stdout.replace(/<[^>]+>/g, "")).toContain("$ ls");
    expect(html.stdout).not.toContain("WaitMsBeforeAsync");
    expect(html.stdout).not.toContain("/tmp/agy-fixture/project");
    const md = run(["view", "8c1f", "--format", "markdown", "--no-pager"]);
    expect(md.status).toBe(0);
    expect(md.stdout).toContain("```console\n$ ls\n```");
    const shown = run(["view", "8c1f", "--format", "markdown", "--show-paths"]);
    expect(shown.stdout).toContain("/tmp/agy-fixture/project");
  });

  it("export --format html --out writes the page atomically and refuses to replace it without --force", () => {
    const out = join(tempDir(), "page.html");
    const before = hashTree(home);
    const r = run(["export", "8c1f", "--format", "html", "--out", out]);
    expect(r.status).toBe(0);
    expect(r.stderr).toContain(`wrote ${out}`);
    expect(readFileSync(out, "utf8")).toContain("<title>Do these in order");
    expect(hashTree(home)).toEqual(before);
    const again = run(["export", "8c1f", "--format", "html", "--out", out]);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(
      /^txcript: .*page\.html: already exists \(--force replaces it\)\n$/,
    );
    expect(run(["export", "8c1f", "--format", "markdown", "--out", out, "--force"]).status).toBe(0);
    expect(readFileSync(out, "utf8")).toMatch(/^# Do these in order/);
  });

  it("--redact reports how many it replaced on stderr", () => {
    const r = run(["export", "8c1f", "--format", "markdown", "--redact"], {
      HOME: home,
      USER: "agy",
    });
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/^redacted \d+/m);
    const plain = run(["export", "8c1f", "--redact"]);
    expect(plain.status).toBe(0);
    expect(plain.stderr).toMatch(/^redacted 0\n$/);
    expect(JSON.parse(plain.stdout).messages.length).toBeGreaterThan(0);
  });

  it("export --all --out DIR writes one page per session and an index, and refuses to overwrite", () => {
    const dir = join(tempDir(), "pages");
    const r = run(["export", "--all", "--format", "html", "--out", dir]);
    expect(r.status).toBe(0);
    const files = readdirSync(dir).sort();
    expect(files).toHaveLength(4);
    expect(files).toContain("index.html");
    const index = readFileSync(join(dir, "index.html"), "utf8");
    for (const f of files.filter((f) => f !== "index.html")) {
      expect(f).toMatch(/^antigravity-[0-9a-f-]+\.html$/);
      expect(index).toContain(`href="${f}"`);
    }
    const again = run(["export", "--all", "--format", "html", "--out", dir]);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/already exist; --force replaces them/);
    expect(run(["export", "--all", "--format", "html", "--out", dir, "--force"]).status).toBe(0);
  });

  it("export --all takes list's filters", () => {
    const dir = join(tempDir(), "md");
    const r = run(["export", "--all", "--format", "markdown", "--limit", "1", "--out", dir]);
    expect(r.status).toBe(0);
    const files = readdirSync(dir).sort();
    expect(files).toHaveLength(2);
    expect(files[0]).toMatch(/^antigravity-5d458282-[0-9a-f-]+\.md$/);
    expect(files[1]).toBe("index.md");
    const none = run(["export", "--all", "--cwd", "/nowhere", "--out", join(tempDir(), "none")]);
    expect(none.status).toBe(0);
    expect(none.stderr).toContain("wrote 0 sessions");
  });

  it("rejects --all without --out, and a session with --all, as usage errors", () => {
    expect(run(["export", "--all"]).status).toBe(2);
    expect(run(["export", "8c1f", "--all", "--out", tempDir()]).status).toBe(2);
    const file = join(tempDir(), "f");
    writeFileSync(file, "x");
    const r = run(["export", "--all", "--out", file]);
    expect(r.status).toBe(2);
    expect(existsSync(file)).toBe(true);
  });
});
