/**
 * export_session of a session whose Simple document is longer than the
 * longest string V8 holds (2^29 - 24 characters; issue 31 item 9): the
 * document is paged by pieces, never built whole. The session is 544
 * messages sharing one 1 MiB text, served by a backend from memory, so the
 * model costs a megabyte while the document is 571 MB. On main the call
 * failed with "Invalid string length" (renderSimple built the document).
 */

import { describe, expect, it } from "vitest";
import { exportSession } from "../../src/mcp/tools-read.js";
import type { SessionsBackend } from "../../src/sessions/backend.js";
import { Sessions } from "../../src/sessions/sessions.js";
import type { Common, Transcript } from "../../src/transcript.js";

const ID = "f0f0f0f0-0000-4000-8000-00000000f0f0";
const TS = "2026-11-30T09:15:00.000Z";
const MESSAGES = 544;

function hugeSession(): Transcript<Common> {
  const text = "x".repeat(1 << 20);
  const body: Common = Array.from({ length: MESSAGES }, (_, i) => ({
    role: i % 2 ? "assistant" : "user",
    timestamp: TS,
    content: [{ type: "text", text }],
  }));
  return { meta: { id: ID, timestamp: TS, cwd: "/bench" }, body };
}

function context(transcript: Transcript<Common>) {
  const backend: SessionsBackend = {
    label: "memory",
    list: async () => [],
    query: async () => ({ hits: [], total: 0 }),
    usageBuckets: async () => [],
    ids: async () => [],
    resolve: async () => ({ harness: "claude_code", id: ID }),
    load: async (located) => ({ located, transcript }),
    close: () => undefined,
  };
  return {
    sessions: new Sessions({ env: {}, cache: null, backend }),
    env: {},
    cwd: "/",
    allowWrite: false,
    log: () => undefined,
    memo: {},
    pending: new Set<Promise<unknown>>(),
    redaction: { force: false, options: {} },
  };
}

describe("export_session of a document longer than the longest string", () => {
  it("pages it: the first page, a page from the middle by cursor, the right total", async () => {
    const transcript = hugeSession();
    const ctx = context(transcript);
    const first = await exportSession(ctx, { session: ID, max_chars: 100_000 });
    const total = first.structured.total_chars;
    expect(total).toBeGreaterThan(2 ** 29);
    expect(first.structured.text).toHaveLength(100_000);
    expect(first.structured.text.startsWith("{\n")).toBe(true);
    expect(first.structured.text).toContain('"messages": [');
    const cursor = first.structured.next_cursor;
    expect(cursor).not.toBeNull();
    const second = await exportSession(ctx, { cursor: cursor ?? "", max_chars: 100_000 });
    expect(second.structured.offset).toBe(100_000);
    expect(second.structured.text).toMatch(/^x+$/);
  }, 120_000);
});
