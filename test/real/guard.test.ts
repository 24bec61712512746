/**
 * The suite's network guard, checked on its own: the mock listens on
 * 127.0.0.1 only, and a client run in a CLI's environment that tries to
 * leave the machine (over HTTPS or plain HTTP) reaches the mock instead and
 * is recorded in `unexpected`, as is a path the mock does not serve. Every
 * other test asserts `unexpected` is empty, so this is what makes that
 * assertion mean "nothing left 127.0.0.1".
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockServer, startMockServer } from "./server/index.js";
import { type CliId, cliEnv, run, type Sandbox, sandbox } from "./support/cli.js";

describe("the network guard", () => {
  let server: MockServer;
  let box: Sandbox;
  beforeAll(async () => {
    server = await startMockServer();
    box = sandbox("guard");
  });
  afterAll(async () => {
    await server?.close();
    box?.dispose();
  });

  it("listens on the loopback address only", () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
  });

  it.each<CliId>(["claude_code", "codex", "gemini_cli", "opencode", "kilo"])(
    "catches a request leaving the machine from %s's environment",
    async (cli) => {
      const env = cliEnv(cli, box.home, server.url);
      const before = server.unexpected.length;
      for (const url of ["https://example.com/escape", "http://example.com/escape"]) {
        // curl honours the proxy variables as the CLIs' HTTP clients do.
        const r = await run("curl", ["-sS", "--fail", "--max-time", "20", "-o", "/dev/null", url], {
          cwd: box.project,
          env,
          timeoutMs: 30_000,
        });
        expect(r.status, `${url}: ${r.stderr}`).not.toBe(0);
      }
      expect(server.unexpected.slice(before)).toEqual([
        "CONNECT example.com:443",
        "GET http://example.com/escape",
      ]);
    },
  );

  it("records a path it does not serve", async () => {
    const before = server.unexpected.length;
    const res = await fetch(`${server.url}/v1/nothing-here`, { method: "POST", body: "{}" });
    expect(res.status).toBe(404);
    expect(server.unexpected.slice(before)).toEqual(["POST /v1/nothing-here"]);
  });
});
