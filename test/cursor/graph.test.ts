/**
 * The agent CLI chat store's protobuf turn graph (docs/formats/cursor.md
 * "The turn graph"), from stores built with the field numbers of Cursor's
 * own protobuf descriptors: a graph-only store read turn by turn (prompts,
 * replies, thinking, a shell call as Bash, other tools Raw, a shell turn
 * and a missing blob kept out), JSON blobs still winning when present, the
 * text form, hostile graphs (garbage, truncated, wrong-sized ids, random
 * bytes) read without a crash, and the CLI through the built binary.
 */

import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { turnGraph } from "../../src/harness/cursor/graph.js";
import { CursorStore } from "../../src/harness/cursor/index.js";
import { harness } from "../../src/harness/index.js";
import { encode } from "../../src/protobuf.js";
import { txcript } from "../support/cli.js";
import { agentRecord, CWD, createCursorChat, graphBlobs } from "../support/cursor.js";
import { hashTree, tempDir } from "../support/tmp.js";

const cursor = harness("cursor");
const ID = "4b1f0c3e-8a2d-4e6f-9b7c-2d5e8f1a3c70";

function graphStore(extra: { blobs?: Buffer[]; prompts?: unknown[] } = {}) {
  const root = tempDir("cursor-graph-");
  const g = graphBlobs();
  createCursorChat(root, {
    id: ID,
    blobs: [...g.blobs, ...(extra.blobs ?? [])],
    agent: agentRecord(ID, { latestRootBlobId: g.root }),
    ...(extra.prompts === undefined ? {} : { prompts: extra.prompts }),
  });
  return { root, store: new CursorStore({ root }) };
}

describe("Cursor chat store turn graph", () => {
  it("reads a graph-only store turn by turn, at the session's time", async () => {
    const { store } = graphStore({ prompts: ["Why does npm test fail?", "Fix it"] });
    const t = store.load(ID);
    const c = cursor.codec.toCommon(t);
    const at = c.meta.timestamp;
    expect(c.body).toEqual([
      { role: "user", content: [{ type: "text", text: "Why does npm test fail?" }], timestamp: at },
      {
        role: "assistant",
        content: [
          { type: "thinking", text: "Run the tests." },
          { type: "text", text: "Running them." },
          {
            type: "tool_use",
            id: "tc-1",
            tool: { name: "Bash", command: "npm test", workdir: CWD },
          },
        ],
        timestamp: at,
      },
      {
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: "tc-1",
            content: "1 failing\nnpm ERR!",
            is_error: true,
          },
        ],
        timestamp: at,
      },
      {
        role: "assistant",
        content: [
          {
            type: "tool_use",
            id: "cursor-step:1.4",
            tool: { name: "Raw", tool_name: "read", input: { field: 8 } },
          },
        ],
        timestamp: at,
      },
      { role: "user", content: [{ type: "text", text: "Fix it" }], timestamp: at },
      {
        role: "assistant",
        content: [{ type: "text", text: "Fixed: the tax constant was wrong." }],
        timestamp: at,
      },
    ]);
    // The Body keeps the markers: the missing step and the shell turn.
    const turns = t.body.layout === "chat" ? t.body.turns : undefined;
    expect(turns).toHaveLength(3);
    expect(turns?.[1]).toEqual({ shell: true });
    expect(JSON.stringify(turns?.[0])).toContain('"missing"');
    expect(turns?.[0]?.request_id).toBe("req-1");
    const listed = (await store.discover()).sessions.find((s) => s.id === ID);
    expect(listed?.message_count).toBe(4); // an estimate: a prompt and a reply per turn
    // The text form carries the decoded graph and reads back to the same messages.
    const text = cursor.text.render(t);
    const back = cursor.text.parse(text);
    expect(cursor.codec.toCommon(back).body).toEqual(c.body);
    expect(cursor.text.render(back)).toBe(text);
  });

  it("reads the JSON message blobs when there are any, not the graph", () => {
    const { store } = graphStore({
      blobs: [Buffer.from(JSON.stringify({ role: "user", content: "from a JSON blob" }))],
    });
    const c = cursor.codec.toCommon(store.load(ID));
    expect(c.body.map((m) => m.content)).toEqual([[{ type: "text", text: "from a JSON blob" }]]);
  });

  it("reads a root that is absent, garbage, truncated or names wrong-sized ids as no graph", () => {
    const blob = new Map<string, Uint8Array>();
    const put = (b: Uint8Array) => {
      const id = createHash("sha256").update(b).digest("hex");
      blob.set(id, b);
      return id;
    };
    const get = (id: string) => blob.get(id);
    expect(turnGraph("f".repeat(64), get)).toBeUndefined();
    expect(turnGraph(put(Buffer.from([0xff, 0xff, 0xff])), get)).toBeUndefined();
    const turnId = createHash("sha256").update("x").digest();
    const full = encode((w) => w.bytes(8, turnId).bytes(8, Buffer.from("short")));
    expect(turnGraph(put(full.subarray(0, full.length - 3)), get)).toEqual([
      { missing: turnId.toString("hex") },
    ]);
    expect(turnGraph(put(full), get)).toEqual([
      { missing: turnId.toString("hex") },
      { missing: Buffer.from("short").toString("hex") },
    ]);
  });

  it("reads a huge graph of missing turns as markers, without a message", () => {
    const ids = Array.from({ length: 100_000 }, (_, i) =>
      createHash("sha256").update(String(i)).digest(),
    );
    const root = encode((w) => {
      for (const id of ids) w.bytes(8, id);
    });
    const rootId = createHash("sha256").update(root).digest("hex");
    const turns = turnGraph(rootId, (id) => (id === rootId ? root : undefined));
    expect(turns).toHaveLength(100_000);
    expect(turns?.every((t) => typeof t.missing === "string")).toBe(true);
  });

  it("never throws on random blobs, and every turn is an object", () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 80 }), { maxLength: 8 }), (raw) => {
        const blob = new Map<string, Uint8Array>();
        const ids: Buffer[] = [];
        for (const b of raw) {
          const id = createHash("sha256").update(b).digest();
          blob.set(id.toString("hex"), b);
          ids.push(id);
        }
        // A root that names every blob as a turn, each read as a turn, a step or garbage.
        const root = encode((w) => {
          for (const id of ids) w.bytes(8, id);
        });
        const rootId = createHash("sha256").update(root).digest("hex");
        blob.set(rootId, root);
        const turns = turnGraph(rootId, (id) => blob.get(id)) ?? [];
        expect(turns.length).toBe(ids.length);
        for (const t of turns) expect(typeof t).toBe("object");
      }),
    );
  });

  it("views a graph-only chat through the built binary, leaving the store untouched", () => {
    const { root } = graphStore();
    const before = hashTree(root);
    const env = { TXCRIPT_CURSOR_ROOT: root, TXCRIPT_CACHE: `${tempDir("cursor-cache-")}/c` };
    const view = txcript(["view", ID, "--no-pager"], { env });
    expect(view.stderr).toBe("");
    expect(view.status).toBe(0);
    expect(view.stdout).toContain("Why does npm test fail?");
    expect(view.stdout).toContain("npm test");
    expect(view.stdout).toContain("1 failing");
    expect(view.stdout).toContain("Fixed: the tax constant was wrong.");
    expect(hashTree(root)).toEqual(before);
  });
});
