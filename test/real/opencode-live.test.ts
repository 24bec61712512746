/**
 * The real OpenCode writing its database while txcript reads and writes the
 * same one (issue 16): `opencode run` is held inside a shell call (it waits
 * for a file the test creates) while txcript lists OpenCode's sessions and
 * continues three agy conversations into the same database. Then OpenCode
 * finishes its turn; the database passes SQLite's integrity and foreign-key
 * checks, OpenCode's own session is whole, and each copy reads back with
 * its source's texts, calls and results in order. Deleting the copies
 * with txcript removes exactly their rows; the real OpenCode lists its own.
 */

import { cpSync, existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockServer, startMockServer } from "./server/index.js";
import {
  CLIS,
  cliEnv,
  cliVersion,
  knownHarnesses,
  REPO,
  run,
  type Sandbox,
  sandbox,
  txcript,
} from "./support/cli.js";
import { viewCommon } from "./support/session.js";
import { promptArgs } from "./support/sources.js";

const known = (await knownHarnesses()).includes("opencode");
const AGY_IDS = [
  "0f4c7a2e-91b3-4d5f-8e6a-3c2b1d0e9f87",
  "8c1f2e4a-53b7-4d0e-9a61-7f3c2b9d0e15",
  "5d458282-26eb-46a2-b098-bc7cc3987310",
];
const PROMPT = "Take your time with this one";
const DONE = "Finished the slow step.";

describe.skipIf(!known)(`opencode ${cliVersion("opencode")} running while txcript works`, () => {
  let server: MockServer;
  let box: Sandbox;

  beforeAll(async () => {
    server = await startMockServer();
    box = sandbox("opencode-live");
  });
  afterAll(async () => {
    await server?.close();
    box?.dispose();
  });

  it("leaves the database intact and every session whole", async () => {
    const env = cliEnv("opencode", box.home, server.url);
    const db = join(box.home, ".local", "share", "opencode", "opencode.db");
    // OpenCode makes its database on first use; txcript writes only into one it made.
    const init = await run(CLIS.opencode.bin, ["session", "list"], {
      cwd: box.project,
      env,
      timeoutMs: 120_000,
    });
    expect(init.status, init.stderr).toBe(0);
    expect(existsSync(db)).toBe(true);
    cpSync(join(REPO, "examples", "home", ".gemini"), join(box.home, ".gemini"), {
      recursive: true,
    });

    server.setScript([
      {
        prompt: PROMPT,
        steps: [
          {
            text: "Starting the slow step.",
            calls: [
              {
                name: "bash",
                input: {
                  command:
                    "for i in $(seq 600); do [ -e go ] && break; sleep 0.2; done; echo slept",
                  description: "Wait a while",
                },
              },
            ],
          },
          { text: DONE },
        ],
      },
    ]);
    const live = run(CLIS.opencode.bin, promptArgs("opencode", PROMPT, undefined, true), {
      cwd: box.project,
      env,
      timeoutMs: 150_000,
    });
    let exited = false;
    void live.then(() => {
      exited = true;
    });

    // Wait until OpenCode has its session and the slow call is running.
    const started = Date.now();
    const running = () => {
      const d = new Database(db, { readonly: true, fileMustExist: true });
      try {
        return d.prepare("SELECT count(*) AS n FROM part WHERE data LIKE '%seq 600%'").get() as {
          n: number;
        };
      } finally {
        d.close();
      }
    };
    while (running().n === 0) {
      expect(Date.now() - started, "OpenCode never started the slow call").toBeLessThan(120_000);
      await new Promise((r) => setTimeout(r, 200));
    }

    // While it runs: read, write three copies, read them back.
    const copies: { source: string; id: string }[] = [];
    for (const source of AGY_IDS) {
      const listed = await txcript(["list", "--json", "--from", "opencode"], box.home);
      expect(JSON.parse(listed.stdout).sessions.length).toBeGreaterThanOrEqual(1 + copies.length);
      const cont = await txcript(
        ["continue", source, "--from", "antigravity", "--with", "opencode", "--no-resume"],
        box.home,
      );
      copies.push({ source, id: cont.stdout.split("\n")[0]!.trim() });
    }
    const whileRunning = !exited;
    // Let OpenCode's call finish: it waits for this file.
    writeFileSync(join(box.project, "go"), "");

    const r = await live;
    expect(r.status, r.stderr.slice(-3000)).toBe(0);
    expect(server.unexpected).toEqual([]);
    // The copies were written while OpenCode was still at work (its call waited for "go").
    expect(whileRunning).toBe(true);

    const check = new Database(db, { readonly: true, fileMustExist: true });
    try {
      expect(check.pragma("integrity_check", { simple: true })).toBe("ok");
      expect(check.pragma("foreign_key_check")).toEqual([]);
    } finally {
      check.close();
    }

    // OpenCode's session: the prompt, the call with its real output, the final text.
    const sessions = JSON.parse(
      (await txcript(["list", "--json", "--from", "opencode"], box.home)).stdout,
    ).sessions as { id: string }[];
    expect(sessions).toHaveLength(1 + copies.length);
    const own = sessions.find((s) => !copies.some((c) => c.id === s.id))!;
    const doc = await viewCommon(box.home, own.id, "opencode");
    const blocks = doc.messages.flatMap((m) =>
      m.content.map((b): Record<string, unknown> => ({ ...b, role: m.role })),
    );
    expect(
      blocks.filter((b) => b.type === "text").map((b) => `${String(b.role)}: ${String(b.text)}`),
    ).toEqual([`user: ${PROMPT}`, "assistant: Starting the slow step.", `assistant: ${DONE}`]);
    const result = blocks.find((b) => b.type === "tool_result");
    expect(String(result?.content)).toContain("slept");

    // Each copy reads back with its source's texts, calls and results, in order.
    const trail = (d: { messages: { role: string; content: Record<string, unknown>[] }[] }) =>
      d.messages.flatMap((m) =>
        m.content.flatMap((b) =>
          b.type === "text" && b.text !== ""
            ? [`${m.role}: ${String(b.text)}`]
            : b.type === "tool_use"
              ? [`call ${String(b.id)}`]
              : b.type === "tool_result"
                ? [`result ${String(b.tool_use_id)}`]
                : [],
        ),
      );
    for (const c of copies) {
      const source = await viewCommon(box.home, c.source, "antigravity");
      const back = await viewCommon(box.home, c.id, "opencode");
      const want = trail(source);
      expect(want.length).toBeGreaterThan(2);
      // A call the source left unanswered reads back with OpenCode's "interrupted" result (o4).
      const got = trail(back).filter((l) => !l.startsWith("result ") || want.includes(l));
      expect(got, c.source).toEqual(want);
    }

    // Deleting the copies removes their rows and nothing of OpenCode's own.
    const rows = () => {
      const d = new Database(db, { readonly: true, fileMustExist: true });
      try {
        const count = (table: string, id: string) =>
          (
            d
              .prepare(
                `SELECT count(*) AS n FROM ${table} WHERE ${table === "session" ? "id" : "session_id"} = ?`,
              )
              .get(id) as { n: number }
          ).n;
        return Object.fromEntries(
          [own.id, ...copies.map((c) => c.id)].map((id) => [
            id,
            ["session", "message", "part"].map((t) => count(t, id)),
          ]),
        );
      } finally {
        d.close();
      }
    };
    const kept = rows();
    for (const c of copies) expect(kept[c.id]![1]).toBeGreaterThan(0);
    for (const c of copies)
      await txcript(["delete", c.id, "--from", "opencode", "--yes"], box.home);
    const after = rows();
    expect(after[own.id]).toEqual(kept[own.id]);
    for (const c of copies) expect(after[c.id]).toEqual([0, 0, 0]);
    const check2 = new Database(db, { readonly: true, fileMustExist: true });
    try {
      expect(check2.pragma("integrity_check", { simple: true })).toBe("ok");
    } finally {
      check2.close();
    }
    // …and the real OpenCode still lists its session, and only that one.
    const listed = await run(CLIS.opencode.bin, ["session", "list"], {
      cwd: box.project,
      env,
      timeoutMs: 120_000,
    });
    expect(listed.status, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(own.id);
    for (const c of copies) expect(listed.stdout).not.toContain(c.id);
  }, 240_000);
});
