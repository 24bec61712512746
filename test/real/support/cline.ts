/**
 * Running the real Cline (`cline` on npm) against the mock server: its
 * settings for an OpenAI-compatible provider at the mock, and a resume
 * through its ACP mode (`cline --id` opens only the terminal UI). Used by
 * cline.test.ts and resume-out.test.ts.
 */

import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { MockServer, Turn } from "../server/index.js";
import { baseEnv, packageVersion, REPO, run, type Sandbox, sandbox } from "./cli.js";
import { FINAL_1, FINAL_2, NOTES, PROMPT_1, PROMPT_2 } from "./sources.js";

export const CLINE_BIN = join(REPO, "test", "real", "node_modules", ".bin", "cline");
export const CLINE_VERSION = packageVersion(join(REPO, "test", "real", "node_modules", "cline"));
/** The model the mock provider is named with. */
export const CLINE_MODEL = "gpt-4o";

/** Cline's settings for the mock, and an environment that reaches nothing else. */
export function clineEnv(home: string, url: string): Record<string, string> {
  const settings = join(home, ".cline", "data", "settings");
  mkdirSync(settings, { recursive: true });
  const provider = {
    version: 1,
    lastUsedProvider: "openai-compatible",
    modes: {},
    providers: {
      "openai-compatible": {
        settings: {
          provider: "openai-compatible",
          apiKey: "sk-mock",
          model: CLINE_MODEL,
          baseUrl: `${url}/v1`,
        },
        updatedAt: "2026-01-01T00:00:00.000Z",
        tokenSource: "manual",
      },
    },
  };
  writeFileSync(join(settings, "providers.json"), JSON.stringify(provider, null, 2));
  writeFileSync(
    join(settings, "global-settings.json"),
    JSON.stringify({ telemetryOptOut: true, autoUpdateEnabled: false }),
  );
  return {
    ...baseEnv(home, url),
    IS_TEST: "true",
    CLINE_SESSION_BACKEND_MODE: "local",
    CLINE_NO_AUTO_UPDATE: "1",
  };
}

/** ACP mode asks for a sign-in unless a key is set; the provider and model then come from here too. */
function acpEnv(env: Record<string, string>): Record<string, string> {
  return {
    ...env,
    CLINE_API_KEY: "sk-mock",
    CLINE_PROVIDER: "openai-compatible",
    CLINE_MODEL: CLINE_MODEL,
  };
}

/**
 * Resume session `id` with one more prompt over Cline's ACP mode (JSON-RPC
 * over stdio): initialize, `session/load`, `session/prompt`; tool permission
 * requests are granted. Resolves with the prompt's stop reason.
 */
export async function acpResume(
  env: Record<string, string>,
  cwd: string,
  id: string,
  prompt: string,
): Promise<{ stopReason: string | undefined; stderr: string }> {
  const child: ChildProcess = spawn(CLINE_BIN, ["--acp", "--auto-approve", "true"], {
    cwd,
    env: acpEnv(env),
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (d) => {
    stderr += d;
  });
  let buf = "";
  let next = 0;
  const waiting = new Map<number, (m: Record<string, unknown>) => void>();
  const send = (m: Record<string, unknown>) => child.stdin?.write(`${JSON.stringify(m)}\n`);
  child.stdout?.on("data", (d) => {
    buf += d;
    for (let i = buf.indexOf("\n"); i >= 0; i = buf.indexOf("\n")) {
      const line = buf.slice(0, i).trim();
      buf = buf.slice(i + 1);
      if (!line.startsWith("{")) continue;
      const m = JSON.parse(line) as Record<string, unknown>;
      if (typeof m.id === "number" && m.method === undefined) {
        waiting.get(m.id)?.(m);
        waiting.delete(m.id);
      } else if (m.method === "session/request_permission" && m.id !== undefined) {
        const params = m.params as { options: { optionId: string; kind: string }[] };
        const allow = params.options.find((o) => o.kind.startsWith("allow")) ?? params.options[0];
        send({
          jsonrpc: "2.0",
          id: m.id,
          result: { outcome: { outcome: "selected", optionId: allow?.optionId } },
        });
      } else if (m.id !== undefined && m.method !== undefined) {
        send({ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "not supported" } });
      }
    }
  });
  const call = (method: string, params: unknown) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const n = ++next;
      const timer = setTimeout(
        () => reject(new Error(`ACP ${method} timed out\n${stderr.slice(-3000)}`)),
        120_000,
      );
      waiting.set(n, (m) => {
        clearTimeout(timer);
        if (m.error !== undefined)
          reject(new Error(`ACP ${method}: ${JSON.stringify(m.error)}\n${stderr.slice(-3000)}`));
        else resolve(m);
      });
      send({ jsonrpc: "2.0", id: n, method, params });
    });
  try {
    await call("initialize", { protocolVersion: 1, clientCapabilities: {} });
    await call("session/load", { sessionId: id, cwd, mcpServers: [] });
    const r = await call("session/prompt", {
      sessionId: id,
      prompt: [{ type: "text", text: prompt }],
    });
    const result = r.result as { stopReason?: string } | undefined;
    return { stopReason: result?.stopReason, stderr };
  } finally {
    child.stdin?.end();
    const closed = new Promise((resolve) => child.on("close", resolve));
    setTimeout(() => child.kill("SIGKILL"), 10_000).unref();
    await closed;
  }
}

/** The two-turn script of support/sources.ts in Cline's own tools. */
export function clineScript(project: string): Turn[] {
  const hello = join(project, "hello.txt");
  return [
    {
      prompt: PROMPT_1,
      steps: [
        {
          thinking: "Look around first.",
          text: "I'll look around first.",
          calls: [{ name: "run_commands", input: { commands: ["ls"] } }],
        },
        {
          calls: [{ name: "read_files", input: { files: [{ path: join(project, "notes.txt") }] } }],
        },
        {
          calls: [
            {
              name: "apply_patch",
              input: { input: `*** Begin Patch\n*** Add File: ${hello}\n+hello\n*** End Patch` },
            },
          ],
        },
        {
          calls: [
            {
              name: "apply_patch",
              input: {
                input: `*** Begin Patch\n*** Update File: ${hello}\n@@\n-hello\n+hello world\n*** End Patch`,
              },
            },
          ],
        },
        { calls: [{ name: "run_commands", input: { commands: ["cat missing.txt"] } }] },
        { text: FINAL_1 },
      ],
    },
    {
      prompt: PROMPT_2,
      steps: [
        { calls: [{ name: "run_commands", input: { commands: ["wc -l hello.txt"] } }] },
        { text: FINAL_2 },
      ],
    },
  ];
}

/**
 * Have the real Cline write its two-turn session: `cline --json` starts it,
 * the second prompt resumes it over ACP. Throws with its output when a run fails.
 */
export async function makeClineSource(server: MockServer): Promise<{ box: Sandbox; id: string }> {
  const box = sandbox("src-cline");
  writeFileSync(join(box.project, "notes.txt"), NOTES);
  const env = clineEnv(box.home, server.url);
  server.setScript(clineScript(box.project));
  const first = await run(CLINE_BIN, ["--json", PROMPT_1], {
    cwd: box.project,
    env,
    timeoutMs: 300_000,
  });
  if (first.status !== 0)
    throw new Error(`cline run 1 exited ${first.status}\n${first.stderr.slice(-4000)}`);
  // The session's folder under sessions/ is named by its id.
  const id = readdirSync(join(box.home, ".cline", "data", "sessions"))[0] ?? "";
  const second = await acpResume(env, box.project, id, PROMPT_2);
  if (second.stopReason !== "end_turn")
    throw new Error(
      `cline resume stopped with ${second.stopReason}\n${second.stderr.slice(-4000)}`,
    );
  return { box, id };
}
