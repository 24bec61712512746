/**
 * The Gemini CLI harness through the built binary, as a user runs it: list
 * and view the real 0.61.0 sessions without changing them, convert to and
 * from the session text form, continue a document into Gemini CLI (the file
 * where `gemini --resume` looks, the project registered, the resume command),
 * delete, and one-line errors for input that is not a session.
 */

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, txcript } from "../support/cli.js";
import { hashTree, tempDir } from "../support/tmp.js";
import { emptyHome, FILES, FIXTURE, fixtureHome, IDS, PROJ } from "./support.js";

const SIMPLE = join(ROOT, "test/fixtures/common/full.simple.json");

describe("txcript with Gemini CLI", () => {
  it("lists and views the real sessions of a Gemini home without changing it", () => {
    const root = fixtureHome();
    const before = hashTree(root);
    const env = { TXCRIPT_GEMINI_CLI_ROOT: root };
    const list = txcript(["list", "--from", "gemini_cli", "--json"], { env });
    expect(list.status).toBe(0);
    const rows = JSON.parse(list.stdout).sessions.map(
      (s: { id: string; title: string; cwd: string; message_count: number }) => [
        s.id,
        s.title,
        s.cwd,
        s.message_count,
      ],
    );
    expect(rows).toEqual([
      [IDS.multi, "THINK about the answer", `${PROJ}/multi_turn`, 6],
      [IDS.tools, "SHELL:echo hi from shell", `${PROJ}/tools`, 16],
      [IDS.failing, "SHELL:ls /nonexistent-dir-for-fixture", `${PROJ}/failing`, 4],
      [IDS.hello, "say hello", `${PROJ}/my_app`, 2],
    ]);
    const view = txcript(["view", IDS.failing.slice(0, 8)], { env });
    expect(view.status).toBe(0);
    expect(view.stdout).toContain("ls /nonexistent-dir-for-fixture");
    expect(view.stdout).toContain("Exit Code: 2");
    expect(hashTree(root)).toEqual(before);
  });

  it("converts a session file to Common JSON, and a Simple document to a session file and back", () => {
    const common = txcript([
      "convert",
      join(FIXTURE, FILES.hello),
      "--from",
      "gemini_cli",
      "--to",
      "common",
    ]);
    expect(common.status).toBe(0);
    const doc = JSON.parse(common.stdout);
    expect(doc.meta).toMatchObject({ id: IDS.hello, cwd: `${PROJ}/my_app`, title: "say hello" });
    expect(doc.messages).toHaveLength(2);
    const native = txcript(["convert", SIMPLE, "--from", "simple", "--to", "gemini_cli"]);
    expect(native.status).toBe(0);
    const first = JSON.parse(native.stdout.split("\n")[0]!);
    expect(Object.keys(first)).toEqual([
      "sessionId",
      "projectHash",
      "startTime",
      "lastUpdated",
      "kind",
      "summary",
    ]);
    const again = txcript(["convert", "-", "--from", "gemini_cli", "--to", "gemini_cli"], {
      input: native.stdout,
    });
    expect(again.status).toBe(0);
    expect(again.stdout).toBe(native.stdout);
  });

  it("continues a document into Gemini CLI: the project's chats folder, projects.json, the resume command; then deletes it", () => {
    const root = emptyHome();
    writeFileSync(
      join(root, "projects.json"),
      JSON.stringify({ projects: { "/elsewhere": "elsewhere" } }, null, 2),
    );
    const env = { TXCRIPT_GEMINI_CLI_ROOT: root };
    const r = txcript(["continue", SIMPLE, "--with", "gemini_cli", "--no-resume"], { env });
    expect(r.status).toBe(0);
    const doc = JSON.parse(readFileSync(SIMPLE, "utf8"));
    const registry = JSON.parse(readFileSync(join(root, "projects.json"), "utf8")).projects;
    expect(registry["/elsewhere"]).toBe("elsewhere");
    const slug = registry[doc.cwd];
    expect(slug).toMatch(/^[a-z0-9-]+$/);
    const list = JSON.parse(
      txcript(["list", "--from", "gemini_cli", "--json"], { env }).stdout,
    ).sessions;
    expect(list).toHaveLength(1);
    const { id, path } = list[0];
    expect(path).toMatch(
      new RegExp(
        `/tmp/${slug}/chats/session-\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-${id.slice(0, 8)}\\.jsonl$`,
      ),
    );
    expect(r.stdout).toContain(`gemini --resume ${id}`);
    const del = txcript(["delete", id, "--from", "gemini_cli", "--yes"], { env });
    expect(del.status).toBe(0);
    expect(
      JSON.parse(txcript(["list", "--from", "gemini_cli", "--json"], { env }).stdout).sessions,
    ).toEqual([]);
  });

  it("names the file and the problem, in one line, for input that is not a session", () => {
    const bad = join(tempDir(), "codex.jsonl");
    writeFileSync(bad, '{"timestamp":"x","type":"session_meta","payload":{"id":"a"}}\n');
    const r = txcript(["convert", bad, "--from", "gemini_cli", "--to", "common"]);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      // A file of another harness is named for what it is, with the --from that fits.
      `txcript: ${bad}: this is a Codex session, not a Gemini CLI session; use --from codex (or leave --from out)\n`,
    );
  });
});
