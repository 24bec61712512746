/**
 * Ids that become path components, and containment inside a store root,
 * on real temporary directories and symlinks.
 */

import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { UnsafePathError } from "../../src/errors.js";
import {
  checkPathComponent,
  isInside,
  pathComponentProblem,
  realPathInside,
} from "../../src/paths.js";
import { tempDir } from "../support/tmp.js";

describe("pathComponentProblem", () => {
  it.each([
    ["", "is empty"],
    [".", 'is "."'],
    ["..", 'is ".."'],
    ["a/b", "contains a path separator"],
    ["../etc", "contains a path separator"],
    ["/etc/passwd", "contains a path separator"],
    ["a\\b", "contains a path separator"],
    ["..\\..\\win.ini", "contains a path separator"],
    ["a\u0000b", "contains a control character"],
    ["line\nbreak", "contains a control character"],
    ["tab\there", "contains a control character"],
    ["esc\u001b[0m", "contains a control character"],
    ["del\u007f", "contains a control character"],
    ["c1\u0085", "contains a control character"],
    ["C:", "is an absolute path"],
    ["C:evil", "is an absolute path"],
    ["z:", "is an absolute path"],
    ["x".repeat(256), "is longer than 255 characters"],
  ])("refuses %j: %s", (id, problem) => {
    expect(pathComponentProblem(id)).toBe(problem);
    expect(() => checkPathComponent(id, "claude_code")).toThrow(UnsafePathError);
  });

  it.each([
    "0b9f6c1e-2a7d-4e3b-9f10-5c2d8e7a6b41",
    "rollout-2026-08-10T12-00-00-abc",
    "...",
    "..a",
    "a..",
    ".hidden",
    "name with spaces",
    "données-日本",
    "x".repeat(255),
  ])("accepts %j", (id) => {
    expect(pathComponentProblem(id)).toBeUndefined();
    expect(checkPathComponent(id)).toBe(id);
  });

  it("names the id, the problem and the harness in the error", () => {
    try {
      checkPathComponent("../x", "codex");
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(UnsafePathError);
      expect((e as UnsafePathError).message).toBe('unsafe id "../x": contains a path separator');
      expect((e as UnsafePathError).harness).toBe("codex");
    }
  });

  it("anything accepted is a single component that stays inside a root", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 40 }), (id) => {
        if (pathComponentProblem(id) !== undefined) return;
        const root = "/store/root";
        const joined = join(root, id);
        expect(isInside(root, joined)).toBe(true);
        expect(joined).not.toBe(root);
        expect(joined.slice(root.length + 1)).toBe(id);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("containment", () => {
  it("isInside compares resolved paths component by component", () => {
    expect(isInside("/a/b", "/a/b")).toBe(true);
    expect(isInside("/a/b", "/a/b/c/d")).toBe(true);
    expect(isInside("/a/b", "/a/b/..c")).toBe(true);
    expect(isInside("/a/b", "/a/bc")).toBe(false);
    expect(isInside("/a/b", "/a")).toBe(false);
    expect(isInside("/a/b", "/x/a/b")).toBe(false);
  });

  it("realPathInside follows symlinks and refuses what escapes the root", () => {
    const base = tempDir();
    const root = join(base, "root");
    const outside = join(base, "outside");
    mkdirSync(join(root, "sessions"), { recursive: true });
    mkdirSync(outside);
    writeFileSync(join(root, "sessions", "a.jsonl"), "");
    writeFileSync(join(outside, "secret"), "");
    symlinkSync(join(outside, "secret"), join(root, "sessions", "escape.jsonl"));
    symlinkSync(join(root, "sessions", "a.jsonl"), join(root, "alias.jsonl"));

    expect(realPathInside(root, join(root, "sessions", "a.jsonl"))).toBe(
      join(root, "sessions", "a.jsonl"),
    );
    expect(realPathInside(root, join(root, "alias.jsonl"))).toBe(join(root, "sessions", "a.jsonl"));
    expect(() => realPathInside(root, join(root, "sessions", "escape.jsonl"))).toThrow(
      UnsafePathError,
    );
    expect(() =>
      realPathInside(root, join(root, "sessions", "..", "..", "outside", "secret")),
    ).toThrow(/outside/);
  });

  it("a root reached through a symlink still contains its files", () => {
    const base = tempDir();
    mkdirSync(join(base, "real"));
    writeFileSync(join(base, "real", "f"), "");
    symlinkSync(join(base, "real"), join(base, "link"));
    expect(realPathInside(join(base, "link"), join(base, "link", "f"))).toBe(
      join(base, "real", "f"),
    );
  });
});
