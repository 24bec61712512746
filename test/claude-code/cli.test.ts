/**
 * Claude Code through the built binary: convert to and from its text form,
 * list a temporary home, continue a document into it, and the errors a user
 * sees for a bad file. Run `npm run build` first.
 */

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { txcript } from "../support/cli.js";
import { tempDir } from "../support/tmp.js";
import { basicSession, CWD, SID } from "./lines.js";
import { resumeViolations } from "./resume-rules.js";

describe("txcript with Claude Code", () => {
  it("converts a Claude Code session to Common JSON", () => {
    const dir = tempDir();
    const file = join(dir, `${SID}.jsonl`);
    writeFileSync(file, basicSession());
    const r = txcript(["convert", file, "--from", "claude_code", "--to", "common"]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const doc = JSON.parse(r.stdout) as { meta: Record<string, unknown>; messages: unknown[] };
    expect(doc.meta).toMatchObject({ id: SID, cwd: CWD, title: "Run the tests" });
    expect(doc.messages).toHaveLength(4);
    expect(doc.messages[1]).toMatchObject({
      role: "assistant",
      usage: { input_tokens: 1200, output_tokens: 41 },
      content: [{ type: "thinking" }, { type: "text" }, { type: "tool_use", id: "toolu_01" }],
    });
  });

  it("converts a Simple document to a Claude Code session that meets the resume rules", () => {
    const doc = {
      id: "9b2f0c1e-2a7d-4e3b-9f10-5c2d8e7a6b41",
      cwd: "/home/al/app",
      title: "Quick fix",
      messages: [
        { role: "user", content: "list the files" },
        {
          role: "assistant",
          content: [{ type: "tool_use", id: "call_1", name: "Bash", input: { command: "ls" } }],
        },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "call_1", content: "a b" }] },
        { role: "assistant", content: "Two files: a and b." },
      ],
    };
    const r = txcript(["convert", "-", "--from", "simple", "--to", "claude_code"], {
      input: JSON.stringify(doc),
    });
    expect(r.status).toBe(0);
    expect(resumeViolations(r.stdout, doc.id)).toEqual([]);
    // And back: the text survives the trip.
    const back = txcript(["convert", "-", "--from", "claude_code", "--to", "simple"], {
      input: r.stdout,
    });
    const simple = JSON.parse(back.stdout) as { messages: { content: unknown }[] };
    expect(simple.messages.at(-1)?.content).toEqual([
      { type: "text", text: "Two files: a and b." },
    ]);
  });

  it("reports a file that is not a Claude Code session in one line, exit status 1", () => {
    const dir = tempDir();
    const file = join(dir, "notes.jsonl");
    writeFileSync(file, "hello\nworld\n");
    const r = txcript(["convert", file, "--from", "claude_code", "--to", "common"]);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      `txcript: ${file}: not a Claude Code session: no line is a record (line 1 is not a JSON object)\n`,
    );
  });

  it("lists sessions of a temporary home and continues a document into it", () => {
    const home = tempDir();
    const folder = join(home, ".claude", "projects", "-home-al-my-app");
    const env = { HOME: home };
    const doc = join(home, "doc.json");
    writeFileSync(
      doc,
      JSON.stringify({
        cwd: CWD,
        messages: [
          { role: "user", content: "hi" },
          { role: "assistant", content: "hello" },
        ],
      }),
    );
    const cont = txcript(["continue", doc, "--with", "claude_code", "--no-resume"], { env });
    expect(cont.status).toBe(0);
    const id = cont.stdout.split("\n")[0]!;
    // CWD does not exist here: the printed command creates it before resuming.
    expect(cont.stdout).toContain(`resume: mkdir -p ${CWD} && cd ${CWD} && claude --resume ${id}`);
    const written = readFileSync(join(folder, `${id}.jsonl`), "utf8");
    expect(resumeViolations(written, id)).toEqual([]);

    const list = txcript(["list", "--from", "claude_code", "--json"], { env });
    expect(list.status).toBe(0);
    const listing = JSON.parse(list.stdout) as { sessions: Record<string, unknown>[] };
    expect(listing.sessions).toEqual([
      expect.objectContaining({
        id,
        harness: "claude_code",
        cwd: CWD,
        message_count: 2,
        path: join(folder, `${id}.jsonl`),
      }),
    ]);
  });
});
