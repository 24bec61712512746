/**
 * Redaction through the built binary over a corpus of secret kinds (random
 * values in real formats, test/support/secrets.ts) planted in a stored
 * Claude Code session: in prompts, thinking, tool inputs (values and JSON
 * keys), tool output and double-escaped JSON, after a `secretlint-disable`
 * comment in a file the agent read. Every door with --redact (view in each
 * format, export in each format, export --all, and the MCP server's
 * tools and resources, forced by `txcript mcp --redact` or asked by a call)
 * must keep no 8-character piece of any secret; without --redact the same
 * pieces are there. Also the dry run, a user's own patterns, and the home
 * path in the "File:" line. TXCRIPT_REDACT_TABLE=1 prints the kind x door
 * table.
 */

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Block, Message } from "../../src/common.js";
import { renderFromCommon } from "../../src/convert.js";
import type { Common, Transcript } from "../../src/transcript.js";
import { call, connect, textOf } from "../mcp/support.js";
import { txcript } from "../support/cli.js";
import { fragments, type SecretSample, secretCorpus } from "../support/secrets.js";
import { tempDir } from "../support/tmp.js";

const ID = "5b0c6f5e-4d3a-4c2b-9a18-0f6e2d7c1b9a";
let home: string;
let corpus: SecretSample[];

function run(args: string[], env: Record<string, string> = {}) {
  return txcript(args, { env: { HOME: home, USER: "nobody-here", ...env } });
}

function session(samples: readonly SecretSample[]): Transcript<Common> {
  const at = "2026-09-01T10:00:00.000Z";
  const body: Message[] = [
    {
      role: "assistant",
      content: [
        {
          type: "tool_use",
          id: "read0",
          tool: { name: "Read", file_path: `${home}/proj/.secretlintrc.js` },
        },
      ],
      timestamp: at,
    },
    {
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "read0",
          content:
            "// secretlint-disable\n/* secretlint-disable */\n# secretlint-disable-next-line",
        },
      ],
      timestamp: at,
    },
  ];
  samples.forEach((s, i) => {
    const t = s.text;
    const content: Block[] = [
      { type: "thinking", text: `the user pasted ${t} here` },
      { type: "tool_use", id: `b${i}`, tool: { name: "Bash", command: `echo '${t}' > .env` } },
      {
        type: "tool_use",
        id: `r${i}`,
        tool: {
          name: "Raw",
          tool_name: "mcp__vault__put",
          input: { entries: { [t]: "stored" }, note: t },
        },
      },
    ];
    body.push(
      { role: "user", content: [{ type: "text", text: `use this: ${t}` }], timestamp: at },
      { role: "assistant", content, timestamp: at },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: `b${i}`, content: `wrote ${t}\n` },
          {
            type: "tool_result",
            tool_use_id: `r${i}`,
            content: JSON.stringify({ response: JSON.stringify({ echoed: t }) }),
          },
        ],
        timestamp: at,
      },
    );
  });
  return { meta: { id: ID, timestamp: at, cwd: `${home}/proj`, title: "keys" }, body };
}

/** Which kinds leave a piece behind in `output`. */
function leaks(output: string): string[] {
  return corpus
    .filter((s) => fragments(s.secret).some((f) => output.includes(f)))
    .map((s) => s.kind);
}

const DOORS: [name: string, args: string[], file?: string][] = [
  ["view text", ["view", ID, "--no-pager"]],
  ["view json", ["view", ID, "--format", "json"]],
  ["view markdown", ["view", ID, "--format", "markdown", "--no-pager"]],
  ["view html", ["view", ID, "--format", "html"]],
  ["export simple", ["export", ID]],
  ["export markdown", ["export", ID, "--format", "markdown"]],
  ["export html", ["export", ID, "--format", "html"]],
  ["export --all simple", ["export", "--all", "--format", "simple"], "json"],
  ["export --all markdown", ["export", "--all", "--format", "markdown"], "md"],
  ["export --all html", ["export", "--all", "--format", "html"], "html"],
];

/**
 * What an MCP client gets, every page of it: structured content and text.
 * `server` is the extra server flags, `asked` what each call adds.
 */
type McpDoor = (client: Client, asked: Record<string, unknown>) => Promise<string>;

async function pages(
  client: Client,
  tool: string,
  args: Record<string, unknown>,
  asked: Record<string, unknown>,
): Promise<string> {
  let out = "";
  let cursor: string | undefined;
  for (let n = 0; n < 200; n++) {
    const r = await call(client, tool, cursor === undefined ? { ...args, ...asked } : { cursor });
    expect(r.isError, textOf(r)).toBeFalsy();
    out += JSON.stringify(r.structuredContent) + textOf(r);
    const next = (r.structuredContent as { next_cursor?: string | null } | undefined)?.next_cursor;
    if (!next) return out;
    cursor = next;
  }
  throw new Error(`${tool} did not end`);
}

const SEARCHES = ["pasted", "use this", "wrote", "echoed", "stored", "note", "env"];

const MCP_DOORS: [name: string, door: McpDoor][] = [
  ["mcp read text", (c, a) => pages(c, "read_session", { session: ID, max_chars: 4000 }, a)],
  [
    "mcp read markdown",
    (c, a) => pages(c, "read_session", { session: ID, format: "markdown", max_chars: 4000 }, a),
  ],
  [
    "mcp read json",
    (c, a) => pages(c, "read_session", { session: ID, format: "json", max_chars: 4000 }, a),
  ],
  ["mcp export", (c, a) => pages(c, "export_session", { session: ID, max_chars: 4000 }, a)],
  [
    "mcp search",
    async (c, a) => {
      let out = "";
      for (const query of SEARCHES)
        out += await pages(c, "search_sessions", { query, limit: 200 }, a);
      return out;
    },
  ],
  ["mcp list", (c, a) => pages(c, "list_sessions", {}, a)],
];

/** The resource (a call cannot ask for redaction there: only a --redact server redacts it). */
async function resource(client: Client): Promise<string> {
  const listed = await client.listResources();
  const read = await client.readResource({ uri: `txcript://claude_code/${ID}` });
  return JSON.stringify(listed) + JSON.stringify(read);
}

function output(args: string[], file: string | undefined, extra: string[]): string {
  if (file === undefined) {
    const r = run([...args, ...extra]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/error|at .*\.js/i);
    return r.stdout;
  }
  const dir = join(tempDir(), "out");
  const r = run([...args, "--out", dir, ...extra]);
  expect(r.status, r.stderr).toBe(0);
  return readFileSync(join(dir, `claude_code-${ID}.${file}`), "utf8");
}

beforeAll(() => {
  // Kept for the whole file (tempDir's go after each test).
  home = mkdtempSync(join(tmpdir(), "txcript-redact-"));
  corpus = secretCorpus();
  const dir = join(home, ".claude", "projects", "-proj");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${ID}.jsonl`), renderFromCommon(session(corpus), "claude_code"));
});

afterAll(() => {
  rmSync(home, { recursive: true, force: true });
});

describe("redaction corpus through every door", () => {
  it("holds at least 30 kinds", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(30);
  });

  it("control: without --redact every kind is there in every door", () => {
    for (const [name, args, file] of DOORS) {
      expect(leaks(output(args, file, [])).length, name).toBe(corpus.length);
    }
  });

  const table: Record<string, Record<string, boolean>> = {};
  for (const [name, args, file] of DOORS) {
    it(`${name} --redact keeps no piece of any secret, despite secretlint-disable comments`, () => {
      const text = output(args, file, ["--redact"]);
      const leaked = leaks(text);
      for (const s of corpus) {
        table[s.kind] ??= {};
        const row = table[s.kind];
        if (row) row[name] = !leaked.includes(s.kind);
      }
      expect(leaked).toEqual([]);
      expect(text).toContain("[redacted ");
      expect(text).not.toContain(home);
    });
  }

  const record = (name: string, leaked: readonly string[]) => {
    for (const s of corpus) {
      table[s.kind] ??= {};
      const row = table[s.kind];
      if (row) row[name] = !leaked.includes(s.kind);
    }
  };

  it("control: an MCP server without --redact serves every kind", async () => {
    const mcp = await connect(home, [], { env: { USER: "nobody-here" } });
    try {
      for (const [name, door] of MCP_DOORS.filter(([n]) => n.startsWith("mcp read"))) {
        expect(leaks(await door(mcp.client, {})).length, name).toBe(corpus.length);
      }
      expect(leaks(await resource(mcp.client)).length).toBe(corpus.length);
    } finally {
      await mcp.close();
    }
  });

  it("txcript mcp --redact: no tool or resource answer keeps a piece of any secret, whatever the call asks", async () => {
    const mcp = await connect(home, ["--redact"], { env: { USER: "nobody-here" } });
    try {
      for (const [name, door] of MCP_DOORS) {
        // A call saying redact: false does not switch a --redact server off.
        const text = await door(mcp.client, { redact: false });
        const leaked = leaks(text);
        record(`${name} (--redact)`, leaked);
        expect(leaked, name).toEqual([]);
        expect(text, name).not.toContain(home);
      }
      const text = await resource(mcp.client);
      record("mcp resource (--redact)", leaks(text));
      expect(leaks(text)).toEqual([]);
      expect(text).toContain("[redacted ");
      expect(text).not.toContain(home);
    } finally {
      await mcp.close();
    }
  });

  it("a call's redact: true redacts its answer (and the pages its cursor opens) on a plain server", async () => {
    const mcp = await connect(home, [], { env: { USER: "nobody-here" } });
    try {
      for (const [name, door] of MCP_DOORS) {
        const text = await door(mcp.client, { redact: true });
        const leaked = leaks(text);
        record(`${name} (call)`, leaked);
        expect(leaked, name).toEqual([]);
        expect(text, name).not.toContain(home);
      }
    } finally {
      await mcp.close();
    }
  });

  it("a redacted search still finds the session and marks the term in its snippet", async () => {
    const mcp = await connect(home, ["--redact"], { env: { USER: "nobody-here" } });
    try {
      const r = await call(mcp.client, "search_sessions", { query: "pasted", limit: 5 });
      const hits = (
        r.structuredContent as { hits: { snippet: string; highlights: [number, number][] }[] }
      ).hits;
      expect(hits.length).toBeGreaterThan(0);
      for (const h of hits) {
        expect(h.snippet).toContain("[redacted ");
        const [first] = h.highlights;
        expect(first && h.snippet.slice(first[0], first[1]).toLowerCase()).toBe("pasted");
      }
    } finally {
      await mcp.close();
    }
  });

  it("prints the table when asked", () => {
    if (!process.env.TXCRIPT_REDACT_TABLE) return;
    const names = [...new Set(Object.values(table).flatMap((row) => Object.keys(row)))];
    const lines = [
      `| kind | ${names.join(" | ")} |`,
      `|---|${names.map(() => "---").join("|")}|`,
      ...corpus.map(
        (s) =>
          `| ${s.kind} | ${names.map((n) => (table[s.kind]?.[n] ? "ok" : "LEAK")).join(" | ")} |`,
      ),
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
  });
});

describe("redaction options", () => {
  it("--redact-dry-run lists kind, message and field per finding, never a value, and writes nothing", () => {
    const out = join(tempDir(), "never.md");
    const r = run(["export", ID, "--format", "markdown", "--out", out, "--redact-dry-run"]);
    expect(r.status).toBe(0);
    expect(leaks(r.stdout)).toEqual([]);
    expect(r.stdout).toMatch(/^github\t#\d+\ttext$/m);
    expect(r.stdout).toMatch(/^aws-key-id\t#\d+\ttool input command$/m);
    expect(r.stdout).toMatch(/^\S+\t#\d+\ttool input entries key$/m);
    expect(r.stderr).toMatch(/^redacted \d+ \(/m);
    expect(() => readFileSync(out)).toThrow();
  });

  it("a user's patterns (--redact-patterns or TXCRIPT_REDACT_PATTERNS) are redacted as their kind", () => {
    const file = join(tempDir(), "patterns.txt");
    writeFileSync(file, "# ours\ncluster: pasted\n");
    const flag = run(["view", ID, "--format", "markdown", "--redact", "--redact-patterns", file]);
    expect(flag.status).toBe(0);
    expect(flag.stdout).not.toContain("pasted");
    expect(flag.stdout).toContain("[redacted cluster]");
    const env = run(["view", ID, "--redact"], { TXCRIPT_REDACT_PATTERNS: file });
    expect(env.stdout).not.toContain("pasted");
    const plain = run(["view", ID], { TXCRIPT_REDACT_PATTERNS: file });
    expect(plain.stdout).toContain("pasted");
  });

  it("MCP: the user's patterns apply to every redaction, forced or asked; a bad file stops the server in one line", async () => {
    const file = join(tempDir(), "patterns.txt");
    writeFileSync(file, "cluster: pasted\n");
    const forced = await connect(home, ["--redact", "--redact-patterns", file], {
      env: { USER: "nobody-here" },
    });
    try {
      const text = await pages(
        forced.client,
        "read_session",
        { session: ID, max_chars: 100000 },
        {},
      );
      expect(text).not.toContain("pasted");
      expect(text).toContain("[redacted cluster]");
    } finally {
      await forced.close();
    }
    const asked = await connect(home, [], {
      env: { USER: "nobody-here", TXCRIPT_REDACT_PATTERNS: file },
    });
    try {
      const plain = await pages(
        asked.client,
        "read_session",
        { session: ID, max_chars: 100000 },
        {},
      );
      expect(plain).toContain("pasted");
      const text = await pages(asked.client, "export_session", { session: ID }, { redact: true });
      expect(text).not.toContain("pasted");
    } finally {
      await asked.close();
    }
    const bad = join(tempDir(), "bad.txt");
    writeFileSync(bad, "(unclosed\n");
    const r = run(["mcp", "--redact-patterns", bad]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain(`${bad}: line 1`);
  });

  it("a bad pattern file, or --redact-patterns without --redact, is one line and exit 2", () => {
    const file = join(tempDir(), "bad.txt");
    writeFileSync(file, "ok: fine\n(unclosed\n");
    const bad = run(["view", ID, "--redact", "--redact-patterns", file]);
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim().split("\n")).toHaveLength(1);
    expect(bad.stderr).toContain(`${file}: line 2`);
    const alone = run(["export", ID, "--redact-patterns", file]);
    expect(alone.status).toBe(2);
    expect(alone.stderr).toContain("--redact-patterns needs --redact");
  });

  it("view --redact --show-paths shows no home path in the File: line, and reports on stderr", () => {
    const r = run(["view", ID, "--redact", "--show-paths", "--no-pager"]);
    expect(r.status).toBe(0);
    expect(r.stdout).not.toContain(home);
    expect(r.stdout).toMatch(/~\/\.claude\/projects/);
    expect(r.stderr).toMatch(/^redacted \d+ /m);
    const json = run(["view", ID, "--format", "json", "--redact"]);
    expect(json.stderr).toMatch(/^redacted \d+ /m);
  });
});
