/**
 * `txcript convert` through the built binary, as a user runs it: the full
 * example, stdin, stable round trips, and one-line errors with the right
 * exit status (1 for bad documents and files, 2 for usage errors).
 */

import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, type RunResult, txcript } from "../support/cli.js";
import { hashTree, tempDir } from "../support/tmp.js";

const FULL_SIMPLE = join(ROOT, "test/fixtures/common/full.simple.json");
const FULL_COMMON = readFileSync(join(ROOT, "test/fixtures/common/full.common.json"), "utf8");
/** What the CLI prints: the document and one final newline. */
const FULL_COMMON_PRINTED = `${FULL_COMMON.replace(/\n$/, "")}\n`;

function ok(result: RunResult): string {
  expect(result.stderr).toBe("");
  expect(result.status).toBe(0);
  return result.stdout;
}

/** A failure as the design demands: one line on stderr, nothing on stdout, no stack. */
function failsInOneLine(result: RunResult, status: 1 | 2): string {
  expect(result.status).toBe(status);
  expect(result.stdout).toBe("");
  expect(result.stderr).toMatch(/^txcript: [^\n]+\n$/);
  expect(result.stderr).not.toMatch(/\bat .*:\d+:\d+/);
  return result.stderr.trimEnd();
}

describe("converting", () => {
  it("the full example reproduces txcript's Common JSON exactly", () => {
    expect(ok(txcript(["convert", FULL_SIMPLE, "--from", "simple", "--to", "common"]))).toBe(
      FULL_COMMON_PRINTED,
    );
  });

  it("reads stdin when the file is -", () => {
    const input = readFileSync(FULL_SIMPLE, "utf8");
    expect(ok(txcript(["convert", "-", "--from", "simple", "--to", "common"], { input }))).toBe(
      FULL_COMMON_PRINTED,
    );
  });

  it("Simple -> Common -> Simple -> Common is stable", () => {
    const run = (input: string, from: string, to: string) =>
      ok(txcript(["convert", "-", "--from", from, "--to", to], { input }));
    for (const path of [FULL_SIMPLE, join(ROOT, "examples/simple/fix-flaky-test.json")]) {
      const common1 = run(readFileSync(path, "utf8"), "simple", "common");
      const simple1 = run(common1, "common", "simple");
      const common2 = run(simple1, "simple", "common");
      const simple2 = run(common2, "common", "simple");
      expect(common2).toBe(common1);
      expect(simple2).toBe(simple1);
      // The exported Simple document is itself a complete, readable document.
      expect(JSON.parse(simple1).messages.length).toBe(JSON.parse(common1).messages.length);
    }
  });

  it("Common -> Common is the identity on txcript's output", () => {
    expect(
      ok(txcript(["convert", "-", "--from", "common", "--to", "common"], { input: FULL_COMMON })),
    ).toBe(FULL_COMMON_PRINTED);
  });

  it("leaves the source file byte-identical", () => {
    const dir = tempDir();
    const path = join(dir, "session.json");
    writeFileSync(path, readFileSync(FULL_SIMPLE));
    const before = hashTree(dir);
    ok(txcript(["convert", path, "--from", "simple", "--to", "simple"]));
    ok(txcript(["convert", path, "--from", "simple", "--to", "common"]));
    expect(hashTree(dir)).toEqual(before);
  });

  it("accepts a UTF-8 byte order mark", () => {
    const input = `\ufeff${readFileSync(FULL_SIMPLE, "utf8")}`;
    expect(ok(txcript(["convert", "-", "--from", "simple", "--to", "common"], { input }))).toBe(
      FULL_COMMON_PRINTED,
    );
  });

  it("keeps NUL, lone surrogates and other hostile strings, escaped in the output", () => {
    const input =
      '{"id": "h", "messages": [{"role": "user", "content": "a\\u0000b \\ud800 \\u202e"}]}';
    const out = ok(txcript(["convert", "-", "--from", "simple", "--to", "common"], { input }));
    expect(out).toContain("a\\u0000b \\ud800 \u202e");
    expect(JSON.parse(out).messages[0].content[0].text).toBe("a\u0000b \ud800 \u202e");
  });

  it("reads invalid UTF-8 as U+FFFD rather than failing", () => {
    const dir = tempDir();
    const path = join(dir, "latin1.json");
    writeFileSync(
      path,
      Buffer.concat([
        Buffer.from('{"id": "x", "messages": [{"role": "user", "content": "caf'),
        Buffer.from([0xe9]),
        Buffer.from('"}]}'),
      ]),
    );
    const out = ok(txcript(["convert", path, "--from", "simple", "--to", "common"]));
    expect(JSON.parse(out).messages[0].content[0].text).toBe("caf\ufffd");
  });

  it("converts a 50,000-message document", () => {
    const messages = Array.from({ length: 50_000 }, (_, i) =>
      i % 2
        ? { role: "user", content: [{ type: "tool_result", content: `out ${i}` }] }
        : {
            role: "assistant",
            content: [{ type: "tool_use", name: "Bash", input: { command: `echo ${i}` } }],
          },
    );
    const input = JSON.stringify({ id: "big", messages });
    const out = JSON.parse(
      ok(txcript(["convert", "-", "--from", "simple", "--to", "common"], { input })),
    );
    expect(out.messages.length).toBe(50_000);
    expect(out.messages[49_999].content[0].tool_use_id).toBe(out.messages[49_998].content[0].id);
  });
});

describe("failing", () => {
  const bad = (input: string) =>
    txcript(["convert", "-", "--from", "simple", "--to", "common"], { input });

  it("invalid JSON in a file: the file, line and column", () => {
    const dir = tempDir();
    const path = join(dir, "broken.json");
    writeFileSync(
      path,
      '{"messages": [\n  {"role": "user", "content": "hi"}\n  {"role": "user"}\n]}',
    );
    expect(
      failsInOneLine(txcript(["convert", path, "--from", "simple", "--to", "common"]), 1),
    ).toBe(`txcript: ${path}: line 3, column 3: invalid JSON (comma expected)`);
  });

  it.each([
    [
      "a bad role",
      '{"messages": [{"role": "robot", "content": "x"}]}',
      'txcript: <stdin>: messages[0].role: expected a role ("user" or "assistant"), got "robot"',
    ],
    [
      "a result without content",
      '{"messages": [{"role": "assistant", "content": [{"type": "tool_use", "name": "A"}]}, {"role": "user", "content": [{"type": "tool_result"}]}]}',
      'txcript: <stdin>: messages[1].content[0]: tool_result needs "content"',
    ],
    ["empty input", "", "txcript: <stdin>: invalid JSON: the input is empty"],
    ["a JSON array", "[1, 2]", "txcript: <stdin>: expected an object, got an array"],
    [
      "10,000 levels of nesting",
      `{"messages": [{"role": "user", "content": [{"type": "text", "text": "x", "deep": ${"[".repeat(10_000)}${"]".repeat(10_000)}}]}]}`,
      "txcript: <stdin>: messages[0].content[0].deep[0]…: JSON nested deeper than 512 levels",
    ],
  ])("%s: exit 1 and one line", (_what, input, message) => {
    expect(failsInOneLine(bad(input), 1)).toBe(message);
  });

  it("a malformed Common document names its path", () => {
    const input = FULL_COMMON.replace('"name": "Bash"', '"name": "Shell"');
    const r = txcript(["convert", "-", "--from", "common", "--to", "simple"], { input });
    expect(failsInOneLine(r, 1)).toBe(
      'txcript: <stdin>: messages[3].content[2].tool.name: expected a tool name (Bash, Read, Write, Edit, MultiEdit, Command, Raw), got "Shell"',
    );
  });

  it("a file that does not exist, and a directory: exit 1", () => {
    const dir = tempDir();
    const missing = join(dir, "nope.json");
    expect(
      failsInOneLine(txcript(["convert", missing, "--from", "simple", "--to", "common"]), 1),
    ).toBe(`txcript: ${missing}: cannot read: no such file`);
    mkdirSync(join(dir, "sub"));
    expect(
      failsInOneLine(
        txcript(["convert", join(dir, "sub"), "--from", "simple", "--to", "common"]),
        1,
      ),
    ).toBe(`txcript: ${join(dir, "sub")}: cannot read: is a directory`);
  });

  it.each([
    ["an unknown --from", ["convert", FULL_SIMPLE, "--from", "bogus", "--to", "common"], /bogus/],
    ["an unknown --to", ["convert", FULL_SIMPLE, "--from", "simple", "--to", "pdf"], /pdf/],
    ["no --to", ["convert", FULL_SIMPLE, "--from", "simple"], /--to/],
    ["no file", ["convert", "--from", "simple", "--to", "common"], /argument|file/],
    [
      "two files",
      ["convert", FULL_SIMPLE, FULL_SIMPLE, "--from", "simple", "--to", "common"],
      /argument/,
    ],
    [
      "an unknown option",
      ["convert", FULL_SIMPLE, "--from", "simple", "--to", "common", "--fast"],
      /--fast/,
    ],
    ["an unknown command", ["transmogrify"], /transmogrify/],
  ])("usage error, %s: exit 2 and one line", (_what, args, mentions) => {
    expect(failsInOneLine(txcript(args), 2)).toMatch(mentions);
  });

  it("an unknown form lists the forms there are", () => {
    const line = failsInOneLine(
      txcript(["convert", FULL_SIMPLE, "--from", "bogus", "--to", "common"]),
      2,
    );
    expect(line).toContain("simple");
    expect(line).toContain("common");
  });

  it("TXCRIPT_DEBUG=1 adds the stack trace after the same first line", () => {
    const input = '{"messages": [{"role": "robot", "content": "x"}]}';
    const plain = bad(input);
    const debug = txcript(["convert", "-", "--from", "simple", "--to", "common"], {
      input,
      env: { TXCRIPT_DEBUG: "1" },
    });
    expect(debug.status).toBe(1);
    const lines = debug.stderr.trimEnd().split("\n");
    expect(lines[0]).toBe(plain.stderr.trimEnd());
    expect(lines.length).toBeGreaterThan(2);
    expect(debug.stderr).toMatch(/ParseError/);
    expect(debug.stderr).toMatch(/\n\s+at .+:\d+:\d+/);
  });
});
