/**
 * Cursor through the built binary, as a user runs it: list, view and query
 * a `~/.cursor` built from the documented format (untouched afterwards),
 * and `continue --with cursor` refused in one line saying why.
 */

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { txcript } from "../support/cli.js";
import {
  CHAT_ID,
  createCursorChat,
  createCursorTranscript,
  TRANSCRIPT_ID,
} from "../support/cursor.js";
import { hashTree, tempDir } from "../support/tmp.js";

const GRAPH_ID = "4b1f0c3e-8a2d-4e6f-9b7c-2d5e8f1a3c62";

describe("txcript with Cursor", () => {
  it("lists, views and queries Cursor sessions of both layouts, leaving the files untouched", () => {
    const root = tempDir("cursor-cli-");
    createCursorChat(root, { id: CHAT_ID, prompts: ["Why does npm test fail?"] });
    createCursorTranscript(root, TRANSCRIPT_ID);
    // A store holding only the protobuf graph: its prompt_history.json is what there is to show.
    createCursorChat(root, {
      id: GRAPH_ID,
      blobs: [Buffer.from([0x0a, 0x01, 0x78])],
      prompts: ["Add a dark mode toggle"],
    });
    const before = hashTree(root);
    const env = { TXCRIPT_CURSOR_ROOT: root, TXCRIPT_CACHE: join(tempDir("cursor-cache-"), "c") };
    const list = txcript(["list", "--json", "--from", "cursor"], { env });
    expect(list.stderr).toBe("");
    expect(list.status).toBe(0);
    const doc = JSON.parse(list.stdout) as { sessions: { id: string; title?: string }[] };
    expect(doc.sessions.map((s) => s.id).sort()).toEqual([CHAT_ID, GRAPH_ID, TRANSCRIPT_ID].sort());
    expect(doc.sessions.find((s) => s.id === CHAT_ID)?.title).toBe("Fix the cart total");
    const view = txcript(["view", CHAT_ID, "--no-pager"], { env });
    expect(view.status).toBe(0);
    expect(view.stdout).toContain("npm test");
    expect(view.stdout).toContain("Fixed: the tax constant was wrong.");
    expect(view.stdout).not.toContain("<user_info>");
    const viewT = txcript(["view", TRANSCRIPT_ID, "--no-pager"], { env });
    expect(viewT.status).toBe(0);
    expect(viewT.stdout).toContain("Why does npm test fail on the cart total?");
    const graph = txcript(["view", GRAPH_ID, "--no-pager"], { env });
    expect(graph.status).toBe(0);
    expect(graph.stdout).toContain("Add a dark mode toggle");
    expect(txcript(["query", "dark mode toggle", "--json"], { env }).stdout).toContain(GRAPH_ID);
    const query = txcript(["query", "tax constant", "--json"], { env });
    expect(query.status).toBe(0);
    expect(query.stdout).toContain(CHAT_ID);
    expect(query.stdout).toContain(TRANSCRIPT_ID);
    expect(hashTree(root)).toEqual(before);
  });

  it("refuses continue --with cursor in one line naming why", () => {
    const dir = tempDir("cursor-cli-");
    const doc = join(dir, "doc.json");
    writeFileSync(doc, JSON.stringify({ messages: [{ role: "user", content: "hi" }] }));
    const root = tempDir("cursor-root-");
    const r = txcript(["continue", doc, "--with", "cursor", "--no-resume"], {
      env: { TXCRIPT_CURSOR_ROOT: root },
    });
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("does not write them");
    expect(hashTree(root)).toEqual({});
  });
});
