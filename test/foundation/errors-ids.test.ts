/**
 * The error hierarchy (harness, detail, file, path, cause) and the
 * deterministic UUIDv5 ids fromCommon relies on.
 */

import { readFileSync } from "node:fs";
import { v5 as uuidv5 } from "uuid";
import { describe, expect, it } from "vitest";
import {
  AmbiguousIdError,
  ConflictError,
  describeCause,
  errnoCode,
  InvalidRequestError,
  NotFoundError,
  ParseError,
  StoreError,
  TxcriptError,
  UnsafePathError,
  UnsupportedError,
} from "../../src/errors.js";
import { stableUuid, TXCRIPT_NAMESPACE } from "../../src/ids.js";

describe("errors", () => {
  it("compose one message from file, location and detail, and keep each part", () => {
    const cause = new SyntaxError("Unexpected token");
    const e = new ParseError("simple", "invalid JSON (comma expected)", {
      file: "a.json",
      at: "line 3, column 19",
      cause,
    });
    expect(e.message).toBe("a.json: line 3, column 19: invalid JSON (comma expected)");
    expect(e).toMatchObject({
      name: "ParseError",
      harness: "simple",
      detail: "invalid JSON (comma expected)",
      file: "a.json",
      at: "line 3, column 19",
      cause,
    });
    expect(new ParseError("common", "bad", { at: "" }).message).toBe("bad");
    expect(new ParseError(undefined, "bad", { file: "f" }).message).toBe("f: bad");
  });

  it("every class is a TxcriptError and an Error, named after itself", () => {
    for (const Class of [
      ParseError,
      NotFoundError,
      UnsafePathError,
      ConflictError,
      UnsupportedError,
      StoreError,
      InvalidRequestError,
    ]) {
      const e = new Class("codex", "detail");
      expect(e).toBeInstanceOf(TxcriptError);
      expect(e).toBeInstanceOf(Error);
      expect(e.name).toBe(Class.name);
    }
    const ambiguous = new AmbiguousIdError("antigravity", "2 sessions match", ["ab1", "ab2"]);
    expect(ambiguous.candidates).toEqual(["ab1", "ab2"]);
    expect(ambiguous).toBeInstanceOf(TxcriptError);
  });

  it("describeCause gives a short line for anything thrown", () => {
    const enoent = Object.assign(new Error("no such file or directory, open 'x'"), {
      code: "ENOENT",
    });
    expect(describeCause(enoent)).toBe("ENOENT: no such file or directory, open 'x'");
    const coded = Object.assign(new Error("EACCES: permission denied"), { code: "EACCES" });
    expect(describeCause(coded)).toBe("EACCES: permission denied");
    expect(describeCause("plain")).toBe("plain");
    expect(describeCause(42)).toBe("42");
  });
});

describe("stableUuid", () => {
  const V5 = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

  it("is a version 5 UUID, the same for the same parts every time", () => {
    const id = stableUuid("claude_code", "session", 3);
    expect(id).toMatch(V5);
    expect(stableUuid("claude_code", "session", 3)).toBe(id);
    expect(TXCRIPT_NAMESPACE).toMatch(V5);
  });

  it("takes any string, lone surrogates included, and keeps the ids of well-formed text", () => {
    expect(stableUuid("a\ud800")).toMatch(V5);
    // The UUIDv5 of the JSON array of the parts, in UTF-8, in txcript's namespace.
    expect(stableUuid("simple", "héllo 日本")).toBe(
      uuidv5(JSON.stringify(["simple", "héllo 日本"]), TXCRIPT_NAMESPACE),
    );
  });

  it("joins parts unambiguously", () => {
    const ids = [
      stableUuid("a,b"),
      stableUuid("a", "b"),
      stableUuid("ab"),
      stableUuid("a", "b", ""),
      stableUuid(1),
      stableUuid("1"),
      stableUuid(),
    ];
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe("errnoCode", () => {
  it("reads a system error's code and nothing else", () => {
    let thrown: unknown;
    try {
      readFileSync("/nonexistent/txcript/file");
    } catch (error) {
      thrown = error;
    }
    expect(errnoCode(thrown)).toBe("ENOENT");
    expect(errnoCode(new Error("plain"))).toBeUndefined();
    expect(errnoCode({ code: 5 })).toBeUndefined();
    expect(errnoCode(null)).toBeUndefined();
    expect(errnoCode("ENOENT")).toBeUndefined();
  });
});
