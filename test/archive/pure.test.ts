/**
 * The archive's pure parts: the URL never shown with its password, and
 * the words, vectors and snippets cut as the local index's tokenizer cuts
 * them (fast-check properties, and hostile input).
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { driverUrl } from "../../src/archive/connect.js";
import { archiveAddress, checkArchiveUrl, hideSecrets, redactUrl } from "../../src/archive/url.js";
import { snippet, wordList, words } from "../../src/archive/words.js";

describe("the archive URL", () => {
  it("is a URL or the name of a variable holding one, and says when its password is in the arguments", () => {
    const url = "postgres://alice:pw-123@db.example.org/team";
    expect(archiveAddress(url, {})).toEqual({ url, passwordInArguments: true });
    expect(archiveAddress("postgres://alice@db.example.org/team", {})).toEqual({
      url: "postgres://alice@db.example.org/team",
      passwordInArguments: false,
    });
    expect(archiveAddress("TXCRIPT_ARCHIVE", { TXCRIPT_ARCHIVE: url })).toEqual({
      url,
      passwordInArguments: false,
    });
    expect(() => archiveAddress("TEAM_ARCHIVE", {})).toThrow(
      /environment variable TEAM_ARCHIVE is not set/,
    );
    // A variable holding something else is refused as a URL would be, its value hidden.
    expect(() => archiveAddress("X", { X: "http://u:pw-123@h/x" })).toThrow(/postgres:\/\//);
    try {
      archiveAddress("X", { X: "http://u:pw-123@h/x" });
    } catch (error) {
      expect(String(error)).not.toContain("pw-123");
    }
  });

  it("never shows a password, however it is spelled", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 4, maxLength: 30 }).filter((p) => /[A-Za-z0-9]{4}/.test(p)),
        (password) => {
          const url = `postgres://alice:${encodeURIComponent(password)}@db.example.org:5432/team?sslmode=require`;
          const shown = redactUrl(url);
          expect(shown).not.toContain(encodeURIComponent(password));
          expect(shown).toContain("alice:***@db.example.org");
          expect(shown).toContain("sslmode=require");
          const message = hideSecrets(`failed for ${url}: password ${password} rejected`, url);
          expect(message).not.toContain(password);
        },
      ),
    );
  });

  it("hides password parameters, and unparsable text whole", () => {
    expect(redactUrl("postgres://h/db?password=hunter22&sslmode=verify-full")).not.toContain(
      "hunter22",
    );
    expect(redactUrl("postgres://a:b@[not a url")).toBe("<the archive URL>");
  });

  it("keeps libpq's meaning of sslmode for the driver, and leaves other URLs alone", () => {
    const url = new URL(driverUrl("postgres://a:b@h:5432/db?sslmode=require"));
    expect(url.searchParams.get("sslmode")).toBe("require");
    expect(url.searchParams.get("uselibpqcompat")).toBe("true");
    expect(url.password).toBe("b");
    for (const same of [
      "postgres://h/db",
      "postgres://h/db?sslmode=verify-full",
      "postgres://h/db?sslmode=disable",
      "postgres://h/db?sslmode=require&uselibpqcompat=false",
    ])
      expect(driverUrl(same)).toBe(same);
  });

  it("refuses what is not a postgres URL in one line, password hidden", () => {
    expect(() => checkArchiveUrl("mysql://u:pw123456@h/db")).toThrow(/postgres:\/\//);
    expect(() => checkArchiveUrl("mysql://u:pw123456@h/db")).not.toThrow(/pw123456/);
    expect(() => checkArchiveUrl("not a url")).toThrow(/postgres:\/\/user@host/);
    expect(checkArchiveUrl("postgresql://h/db")).toBe("postgresql://h/db");
  });
});

describe("words", () => {
  it("cut code as unicode61 does", () => {
    expect(words("see src/index/session_index.ts, fooBar() at café")).toBe(
      "see src index session index ts foobar at cafe",
    );
    expect(wordList("")).toEqual([]);
    expect(wordList("—!?")).toEqual([]);
  });

  it("mark, in any text, only matching words, inside the snippet", () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 400 }),
        fc.stringMatching(/^[a-z]{1,6}$/),
        fc.boolean(),
        (body, word, prefix) => {
          const s = snippet(body, [{ word, prefix }]);
          for (const [from, to] of s.highlights) {
            expect(from).toBeGreaterThanOrEqual(0);
            expect(to).toBeLessThanOrEqual(s.text.length);
            expect(to).toBeGreaterThan(from);
            const marked = wordList(s.text.slice(from, to)).join("");
            expect(prefix ? marked.startsWith(word) : marked === word).toBe(true);
          }
        },
      ),
    );
  });

  it("find the word in a huge body and show a short passage around it", () => {
    const body = `${"filler ".repeat(100_000)}needle ${"tail ".repeat(100_000)}`;
    const s = snippet(body, [{ word: "needle", prefix: false }]);
    expect(s.text.length).toBeLessThan(400);
    expect(s.highlights).toHaveLength(1);
    const [h] = s.highlights;
    expect(h && s.text.slice(h[0], h[1])).toBe("needle");
  });
});

describe("the benchmarks' process runner", () => {
  it("never puts a URL's password into the error of a failed run", async () => {
    const { runProcess } = await import("../../bench/util.js");
    const url = "postgres://bench:S3cret-Bench-pw@127.0.0.1:1/a1";
    // The child echoes its arguments and its environment's URL to stderr, then fails.
    const echo = "console.error(process.argv[1], process.env.TXCRIPT_ARCHIVE); process.exit(3)";
    let message = "";
    try {
      runProcess([process.execPath, "-e", echo, url], {
        TXCRIPT_ARCHIVE: "postgresql://other:An0ther-pw@db.example.org/x",
      });
    } catch (error) {
      message = error instanceof Error ? error.message : String(error);
    }
    expect(message).toContain("postgres://bench:***@127.0.0.1:1/a1");
    expect(message).toContain("postgresql://other:***@db.example.org/x");
    expect(message).not.toContain("S3cret-Bench-pw");
    expect(message).not.toContain("An0ther-pw");
  });
});
