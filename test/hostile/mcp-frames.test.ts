/**
 * Frames a client should never send, sent to the built server over a raw
 * pipe: one request over the frame limit, `"params": null`, text that is
 * not JSON or not JSON-RPC, a resource URI with a stray `%`. Each gets a
 * JSON-RPC error (with its id when it had one), stderr gets one line per
 * bad frame, and the server answers the next request.
 */

import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { MAX_FRAME } from "../../src/mcp/transport.js";
import { BIN, TEST_CACHE } from "../support/cli.js";
import { tempDir } from "../support/tmp.js";

interface Answer {
  id: unknown;
  result?: unknown;
  error?: { code: number; message: string };
}

async function exchange(frames: (string | Buffer)[], waitFor: number) {
  const home = tempDir("txcript-frames-home-");
  const child = spawn(process.execPath, [BIN, "mcp"], {
    env: { PATH: process.env.PATH ?? "", HOME: home, NO_COLOR: "1", TXCRIPT_CACHE: TEST_CACHE },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stderr.on("data", (d: Buffer) => {
    err += d.toString();
  });
  const answers: Answer[] = [];
  const done = new Promise<void>((resolve) => {
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      const lines = out.split("\n");
      out = lines.pop() ?? "";
      for (const l of lines) answers.push(JSON.parse(l));
      if (answers.length >= waitFor) resolve();
    });
    child.on("close", () => resolve());
  });
  for (const f of frames) child.stdin.write(f);
  await done;
  child.stdin.end();
  const code = await new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.on("close", resolve);
  });
  return { answers, stderr: err, code };
}

const ping = (id: number) => `${JSON.stringify({ jsonrpc: "2.0", id, method: "ping" })}\n`;

describe("the MCP transport", () => {
  it("refuses one request over the frame limit and serves the next", async () => {
    const head = Buffer.from(
      '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"continue_session","arguments":{"document":"',
    );
    const filler = Buffer.alloc(MAX_FRAME, 0x61);
    const tail = Buffer.from('"}}}\n');
    const { answers, stderr, code } = await exchange([head, filler, tail, ping(8)], 2);
    expect(code).toBe(0);
    expect(answers[0]?.id).toBe(7);
    expect(answers[0]?.error?.message).toMatch(/too large/);
    expect(answers[1]).toMatchObject({ id: 8, result: {} });
    expect(stderr.trim().split("\n")).toHaveLength(1);
  });

  it("answers params: null, non-JSON and non-JSON-RPC frames with errors, one note line each", async () => {
    const frames = [
      `${JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/list", params: null })}\n`,
      "{not json\n",
      `${JSON.stringify({ jsonrpc: "2.0", id: 4, method: 5 })}\n`,
      ping(5),
    ];
    const { answers, stderr } = await exchange(frames, 4);
    expect(answers.map((a) => a.id)).toEqual([3, null, 4, 5]);
    expect(answers[0]?.error?.code).toBe(-32600);
    expect(answers[1]?.error?.code).toBe(-32700);
    expect(answers[2]?.error?.code).toBe(-32600);
    expect(answers[3]?.result).toEqual({});
    const notes = stderr.trim().split("\n");
    expect(notes).toHaveLength(3);
    for (const n of notes) expect(n).toMatch(/^txcript mcp: ignored a bad frame: /);
  });

  it("a resource URI with a stray % is a named error, not an internal one", async () => {
    const frames = [
      `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } })}\n`,
      `${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`,
      `${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "resources/read", params: { uri: "txcript://codex/%" } })}\n`,
    ];
    const { answers } = await exchange(frames, 2);
    const read = answers.find((a) => a.id === 2);
    expect(read?.error?.message).toMatch(/malformed session id "%"/);
    expect(read?.error?.message).not.toMatch(/internal error/);
  });

  it("advertises a continue_session document limit the frame limit can carry", async () => {
    const { continueInput } = await import("../../src/mcp/schemas.js");
    const big = "\u0001".repeat(Math.floor((MAX_FRAME - 1024 * 1024) / 6) + 1);
    expect(continueInput.document.safeParse(big).success).toBe(false);
    expect(JSON.stringify(big.slice(1)).length).toBeLessThan(MAX_FRAME);
  });
});
