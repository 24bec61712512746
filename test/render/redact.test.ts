/**
 * Redaction over planted secrets (in prose, thinking, tool arguments,
 * results and metadata), the home path and the user name: nothing planted
 * survives in any format, counts add up, the input is not changed, and
 * innocent text is left alone.
 */

import { describe, expect, it } from "vitest";
import { renderSimple } from "../../src/harness/simple.js";
import { renderHtml } from "../../src/render/html.js";
import { renderMarkdown } from "../../src/render/markdown.js";
import { redact } from "../../src/render/redact.js";
import { parsePatterns } from "../../src/render/secrets.js";
import type { Common, Transcript } from "../../src/transcript.js";

// Built from parts so no scanner flags this file itself.
const SECRETS = {
  github: `ghp_${"A1b2C3d4E5".repeat(3)}abcdef`,
  slack: ["xoxb", "123456789012", "123456789012", "AbCdEfGhIjKlMnOpQrStUvWx"].join("-"),
  npm: `npm_${"Zy9Xw8Vu7T".repeat(3)}abcdef`,
  anthropic: `sk-ant-api03-${"q".repeat(93)}AA`,
  basicauth: "https://deploy:hunter2hunter2@example.com/repo.git",
};

function planted(): Transcript<Common> {
  const at = "2026-09-01T10:00:00Z";
  return {
    meta: { id: "r1", timestamp: at, cwd: "/home/alice/proj", title: `deploy with ${SECRETS.npm}` },
    body: [
      {
        role: "user",
        content: [
          {
            type: "text",
            text: `my token is ${SECRETS.github}; I am alice, see /home/alice/.npmrc (alicea is someone else)`,
          },
        ],
        timestamp: at,
      },
      {
        role: "assistant",
        content: [
          { type: "thinking", text: `the slack token ${SECRETS.slack} must not leak` },
          {
            type: "tool_use",
            id: "c1",
            tool: {
              name: "Bash",
              command: `curl -H 'x-api-key: ${SECRETS.anthropic}' ${SECRETS.basicauth}`,
              workdir: "/home/alice/proj",
            },
          },
        ],
        timestamp: at,
      },
      {
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: "c1",
            content: { env: [`NPM=${SECRETS.npm}`, "HOME=/home/alice"] },
          },
        ],
        timestamp: at,
      },
    ],
  };
}

describe("redact", () => {
  it("replaces every planted secret, the home path and the user name, and counts them", async () => {
    const input = planted();
    const before = JSON.stringify(input);
    const r = await redact(input, { home: "/home/alice", user: "alice" });
    expect(JSON.stringify(input)).toBe(before);
    const out = JSON.stringify(r.transcript);
    for (const s of Object.values(SECRETS)) expect(out).not.toContain(s);
    expect(out).not.toContain("/home/alice");
    expect(out).not.toMatch(/\balice\b/);
    expect(out).toContain("alicea");
    expect(out).toContain("~/.npmrc");
    expect(r.byKind.github).toBe(1);
    expect(r.byKind.slack).toBe(1);
    expect(r.byKind.npm).toBe(2);
    expect(r.byKind.anthropic).toBe(1);
    expect(r.byKind.basicauth).toBe(1);
    expect(r.byKind.home).toBe(4);
    expect(r.byKind.user).toBe(1);
    expect(r.count).toBe(Object.values(r.byKind).reduce((a, b) => a + b, 0));
    for (const page of [
      renderMarkdown({ transcript: r.transcript, showPaths: true }),
      renderHtml({ transcript: r.transcript, showPaths: true }),
      renderSimple(r.transcript),
    ]) {
      for (const s of Object.values(SECRETS)) expect(page).not.toContain(s);
      expect(page).not.toContain("/home/alice");
    }
  });

  it("leaves a clean session as it was, and generic account names alone", async () => {
    const t: Transcript<Common> = {
      meta: { id: "c", timestamp: "2026-09-01T10:00:00Z" },
      body: [
        {
          role: "user",
          content: [{ type: "text", text: "the root cause is a race" }],
          timestamp: "2026-09-01T10:00:00Z",
        },
      ],
    };
    const r = await redact(t, { home: "/root", user: "root" });
    expect(r.count).toBe(0);
    expect(r.transcript).toEqual(t);
  });

  const one = (text: string, extra: Partial<Transcript<Common>["body"][number]> = {}) => ({
    meta: { id: "o", timestamp: "2026-09-01T10:00:00Z" },
    body: [
      {
        role: "user" as const,
        content: [
          { type: "tool_result" as const, tool_use_id: "r", content: "// secretlint-disable" },
          { type: "text" as const, text },
        ],
        timestamp: "2026-09-01T10:00:00Z",
        ...extra,
      },
    ],
  });
  const textOf = (t: Transcript<Common>) => {
    const b = t.body[0]?.content[1];
    return b?.type === "text" ? b.text : "";
  };

  it("removes an AWS secret whole, even with a secretlint-disable comment elsewhere in the session", async () => {
    const secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzq1Y2b3C4d".split("").reverse().join("");
    for (const line of [
      `aws_secret_access_key = ${secret}`,
      `export AWS_SECRET_ACCESS_KEY=${secret}`,
    ]) {
      const r = await redact(one(line));
      const out = textOf(r.transcript);
      // secretlint may take the name with it; what matters is that nothing of the value stays.
      expect(out).toMatch(/\[redacted [\w-]+\]$/);
      for (let k = 0; k + 6 <= secret.length; k++)
        expect(out).not.toContain(secret.slice(k, k + 6));
    }
    const r = await redact(one(SECRETS.github));
    expect(textOf(r.transcript)).toBe("[redacted github]");
  });

  it("renames a secret used as a JSON key in place, and redacts a secret-named field's value", async () => {
    const t: Transcript<Common> = {
      meta: { id: "k", timestamp: "2026-09-01T10:00:00Z" },
      body: [
        {
          role: "assistant",
          content: [
            {
              type: "tool_use",
              id: "t",
              tool: {
                name: "Raw",
                tool_name: "put",
                input: { first: 1, [SECRETS.npm]: "v", password: "hunter22", last: 2 },
              },
            },
          ],
          timestamp: "2026-09-01T10:00:00Z",
        },
      ],
    };
    const r = await redact(t);
    const b = r.transcript.body[0]?.content[0];
    expect(b?.type === "tool_use" && b.tool.name === "Raw" ? b.tool.input : null).toEqual({
      first: 1,
      "[redacted npm]": "v",
      password: "[redacted secret-field]",
      last: 2,
    });
    expect(r.findings).toEqual(
      [
        { kind: "npm", message: 1, field: "tool input key" },
        { kind: "secret-field", message: 1, field: "tool input password" },
      ].sort((a, b) => (a.field < b.field ? 1 : -1)),
    );
    expect(JSON.stringify(r.findings)).not.toContain("hunter22");
  });

  it("finds a private key inside double-escaped JSON, and e-mail addresses", async () => {
    const pem = `-----BEGIN PRIVATE KEY-----\n${"Q".repeat(64)}\n-----END PRIVATE KEY-----`;
    const text = `${JSON.stringify(JSON.stringify({ key: pem }))} mail dev.ops@example.org`;
    const r = await redact(one(text));
    const out = textOf(r.transcript);
    expect(out).not.toContain("QQQQQQQQ");
    expect(out).not.toContain("dev.ops@");
    expect(r.byKind).toEqual({ "private-key": 1, email: 1 });
  });

  it("applies a user's patterns, and refuses one that does not compile or matches nothing", async () => {
    const patterns = parsePatterns("# mine\nticket: TICKET-\\d{4}\n", "p.txt");
    const r = await redact(one("see TICKET-1234"), { patterns });
    expect(textOf(r.transcript)).toBe("see [redacted ticket]");
    expect(() => parsePatterns("(open", "p.txt")).toThrow(
      /p\.txt: line 1: not a regular expression/,
    );
    expect(() => parsePatterns("x*", "p.txt")).toThrow(/matches empty text/);
  });
});
