/**
 * Titles everywhere (issue 30, item 6): a session its harness left untitled
 * is named by its first prompt, and every door names it the same way:
 * `list` (text and JSON), `view` (text, JSON, Markdown, HTML), `export`
 * (Simple, Markdown, HTML), the `export --all` index pages, and the MCP
 * server (list_sessions, search_sessions, read_session, resources). One
 * untitled session per stored harness, written by its own store, and a
 * Simple document, all through the built binary.
 */

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderFromCommon } from "../../src/convert.js";
import { harness, openStore, storedHarnesses } from "../../src/harness/index.js";
import type { Common, HarnessId, Transcript } from "../../src/transcript.js";
import { call, connect, textOf } from "../mcp/support.js";
import { txcript } from "../support/cli.js";
import { createGooseDatabase } from "../support/goose.js";
import { createOpenCodeDatabase } from "../support/opencode.js";
import { tempDir } from "../support/tmp.js";

const PROMPT = "Fix the flaky   login test\nin auth.ts, it fails on CI about once a day";
let home: string;
const ids = new Map<HarnessId, string>();

function untitled(n: number): Transcript<Common> {
  const day = String(n).padStart(2, "0");
  const at = `2026-09-${day}T10:00:00.000Z`;
  const id = `6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c${String(n).padStart(2, "0")}`;
  return {
    meta: { id, timestamp: at, cwd: "/work/proj" },
    body: [
      { role: "user", content: [{ type: "text", text: PROMPT }], timestamp: at },
      {
        role: "assistant",
        content: [{ type: "text", text: "Looking at the retry logic now." }],
        timestamp: `2026-09-${day}T10:00:05.000Z`,
      },
    ],
  };
}

function run(args: string[]) {
  const r = txcript(args, { env: { HOME: home } });
  expect(r.status, `${args.join(" ")}: ${r.stderr}`).toBe(0);
  return r.stdout;
}

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), "txcript-titles-"));
  // OpenCode makes its schema itself when first run.
  createOpenCodeDatabase(join(home, ".local", "share", "opencode"));
  // Goose is read, not written: its database as Goose leaves an unnamed session.
  const visible = { userVisible: true, agentVisible: true };
  createGooseDatabase(join(home, ".local", "share", "goose"), [
    {
      id: "20260908_1",
      messages: [
        {
          role: "user",
          created: 1788861600,
          metadata: visible,
          content: [{ type: "text", text: PROMPT }],
        },
        {
          role: "assistant",
          created: 1788861605,
          metadata: visible,
          content: [{ type: "text", text: "Looking at the retry logic now." }],
        },
      ],
    },
  ]);
  ids.set("goose", "20260908_1");
  storedHarnesses().forEach((h, i) => {
    // Read-only harnesses other than Goose (written above as Goose writes it) have no writer here.
    if (h.id === "goose" || h.resume === undefined) return;
    const store = openStore(harness(h.id), { env: { HOME: home } });
    if (!store) return;
    const saved = store.save(untitled(i + 1), { overwrite: true });
    ids.set(h.id, saved.id);
  });
});

afterAll(() => {
  rmSync(home, { recursive: true, force: true });
});

/** The title `list --json` gives each session: what every other door must say. */
function listed(): Map<string, string | null> {
  const doc: { sessions: { harness: string; id: string; title: string | null }[] } = JSON.parse(
    run(["list", "--json"]),
  );
  return new Map(doc.sessions.map((r) => [`${r.harness}/${r.id}`, r.title]));
}

/** Every stored harness this test writes a session for (Kiro, read-only, has tests of its own). */
function covered() {
  return storedHarnesses().filter((h) => h.id === "goose" || h.resume !== undefined);
}

const single = (s: string) => s.replace(/\s+/g, " ").trim();

describe("an untitled session is named by its first prompt, the same in every door", () => {
  it("wrote one untitled session per stored harness", () => {
    expect([...ids.keys()].sort()).toEqual(
      covered()
        .map((h) => h.id)
        .sort(),
    );
  });

  for (const h of covered()) {
    it(`${h.id}: list, view, export and the index pages`, () => {
      const id = ids.get(h.id) ?? "";
      const title = listed().get(`${h.id}/${id}`);
      expect(title, "list --json").toBeTruthy();
      expect(single(title ?? "")).toMatch(/^Fix the flaky login test/);
      const shown = single(title ?? "");
      expect(run(["list", "--from", h.id])).toContain(shown.slice(0, 20));
      // view: text head line, Common JSON meta, Markdown heading, HTML <title>.
      const text = run(["view", id, "--from", h.id, "--no-pager"]);
      expect(text.split("\n")[0]).toBe(title);
      const json = JSON.parse(run(["view", id, "--from", h.id, "--format", "json"]));
      expect(json.meta?.title ?? json.title).toBe(title);
      const md = run(["view", id, "--from", h.id, "--format", "markdown", "--no-pager"]);
      expect(md).not.toContain("Untitled session");
      expect(md.split("\n")[0]).toBe(`# ${title}`);
      const html = run(["view", id, "--from", h.id, "--format", "html"]);
      expect(html).not.toContain("Untitled session");
      expect(html).toContain(`<title>${title}`);
      // export: Simple's title, Markdown and HTML as view prints them.
      expect(JSON.parse(run(["export", id, "--from", h.id])).title).toBe(title);
      expect(run(["export", id, "--from", h.id, "--format", "markdown"]).split("\n")[0]).toBe(
        `# ${title}`,
      );
      expect(run(["export", id, "--from", h.id, "--format", "html"])).toContain(`<title>${title}`);
    });
  }

  it("export --all: index.md and index.html list every session by that title", () => {
    const titles = listed();
    for (const format of ["markdown", "html"] as const) {
      const dir = join(tempDir(), format);
      run(["export", "--all", "--format", format, "--out", dir]);
      const index = readFileSync(join(dir, format === "html" ? "index.html" : "index.md"), "utf8");
      expect(index).not.toContain("Untitled session");
      for (const t of titles.values()) expect(index).toContain(single(t ?? "").slice(0, 24));
    }
  });

  it("a Simple document without a title is named by its first prompt too", () => {
    const file = join(tempDir(), "doc.json");
    writeFileSync(file, renderFromCommon(untitled(9), "simple"));
    const md = run(["view", file, "--format", "markdown", "--no-pager"]);
    expect(md.split("\n")[0]).toMatch(/^# Fix the flaky login test/);
    expect(JSON.parse(run(["export", file])).title).toMatch(/^Fix the flaky login test/);
  });

  it("MCP: list_sessions, search_sessions, read_session and resources say the same title", async () => {
    const titles = listed();
    const mcp = await connect(home);
    try {
      const list = await call(mcp.client, "list_sessions", {});
      const records = (
        list.structuredContent as {
          sessions: { harness: string; id: string; title: string | null }[];
        }
      ).sessions;
      for (const r of records)
        expect(r.title, `${r.harness} list`).toBe(titles.get(`${r.harness}/${r.id}`));
      expect(textOf(list)).not.toContain("(untitled)");
      const search = await call(mcp.client, "search_sessions", { query: "flaky", limit: 50 });
      const hits = (
        search.structuredContent as {
          hits: { harness: string; id: string; title: string | null }[];
        }
      ).hits;
      expect(new Set(hits.map((x) => x.harness)).size).toBe(ids.size);
      for (const x of hits)
        expect(x.title, `${x.harness} search`).toBe(titles.get(`${x.harness}/${x.id}`));
      const resources = await mcp.client.listResources();
      for (const [h, id] of ids) {
        const title = titles.get(`${h}/${id}`);
        const read = await call(mcp.client, "read_session", { session: id, harness: h });
        expect((read.structuredContent as { title: string | null }).title, `${h} read`).toBe(title);
        expect(textOf(read).split("\n")[0], `${h} read text`).toBe(title);
        expect(
          resources.resources.find((r) => r.uri === `txcript://${h}/${encodeURIComponent(id)}`)
            ?.title,
        ).toBe(title);
        const res = await mcp.client.readResource({
          uri: `txcript://${h}/${encodeURIComponent(id)}`,
        });
        const first = res.contents[0];
        expect(first && "text" in first ? first.text.split("\n")[0] : "", `${h} resource`).toBe(
          `# ${title}`,
        );
      }
    } finally {
      await mcp.close();
    }
  });
});
