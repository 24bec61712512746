/**
 * Running the real Factory Droid (`@factory/cli-linux-x64`) against the mock
 * server: a BYOK custom model at the mock, Factory's API and telemetry at a
 * stub on 127.0.0.1 that answers 404. Used by droid.test.ts and
 * writer-native.test.ts.
 */

import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { MockServer, Turn } from "../server/index.js";
import { baseEnv, REPO, run, type Sandbox, sandbox } from "./cli.js";
import { FINAL_1, FINAL_2, NOTES, PROMPT_1, PROMPT_2 } from "./sources.js";

const PKG = join(REPO, "test", "real", "node_modules", "@factory", "cli-linux-x64");
export const DROID = join(PKG, "bin", "droid");
export const DROID_VERSION = (
  JSON.parse(readFileSync(join(PKG, "package.json"), "utf8")) as {
    version: string;
  }
).version;
const MODEL = "custom:mock-model";
export const ARGS = ["exec", "--auto", "high", "--model", MODEL];

const execute = (command: string) => ({
  name: "Execute",
  input: {
    summary: "Run a shell command here",
    command,
    riskLevelReason: "It only reads files.",
    riskLevel: "low",
  },
});

/** The two-turn script of support/sources.ts in Droid's own tools. */
export function droidScript(project: string): Turn[] {
  const hello = join(project, "hello.txt");
  return [
    {
      prompt: PROMPT_1,
      steps: [
        {
          text: "I'll look around first.",
          calls: [{ name: "LS", input: { directory_path: project } }],
        },
        { calls: [{ name: "Read", input: { file_path: join(project, "notes.txt") } }] },
        { calls: [{ name: "Create", input: { file_path: hello, content: "hello\n" } }] },
        {
          calls: [
            { name: "Edit", input: { file_path: hello, old_str: "hello", new_str: "hello world" } },
          ],
        },
        { calls: [execute("cat missing.txt")] },
        { text: FINAL_1 },
      ],
    },
    { prompt: PROMPT_2, steps: [{ calls: [execute("wc -l hello.txt")] }, { text: FINAL_2 }] },
  ];
}

/** A stand-in for Factory's API on 127.0.0.1: every request recorded, every answer 404. */
export async function startFactoryStub(): Promise<{
  url: string;
  paths: string[];
  close(): Promise<void>;
}> {
  const paths: string[] = [];
  const server = createServer((req, res) => {
    paths.push(`${req.method} ${req.url}`);
    req.resume();
    req.on("end", () => {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: "not here" }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    paths,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Droid's settings (a BYOK model at the mock) in `home`, and its environment. */
export function droidEnv(home: string, mockUrl: string, apiUrl: string): Record<string, string> {
  mkdirSync(join(home, ".factory"), { recursive: true });
  const settings = {
    customModels: [
      {
        model: "mock-model",
        displayName: "Mock",
        baseUrl: mockUrl,
        apiKey: "sk-ant-mock",
        provider: "anthropic",
        maxOutputTokens: 4096,
      },
    ],
  };
  writeFileSync(join(home, ".factory", "settings.json"), JSON.stringify(settings, null, 2));
  return {
    ...baseEnv(home, mockUrl),
    FACTORY_API_BASE_URL: apiUrl,
    FACTORY_TELEMETRY_INGEST_BASE_URL: apiUrl,
    FACTORY_DROID_AUTO_UPDATE_ENABLED: "false",
    DROID_DISABLE_SOUNDS: "1",
  };
}

/**
 * Have the real Droid write its two-turn session (`droid exec`, then `exec
 * -s <id>`), with its Factory stub; the stub is closed before this returns.
 * Throws with its output when a run fails.
 */
export async function makeDroidSource(server: MockServer): Promise<{ box: Sandbox }> {
  const box = sandbox("src-droid");
  writeFileSync(join(box.project, "notes.txt"), NOTES);
  const api = await startFactoryStub();
  try {
    const env = droidEnv(box.home, server.url, api.url);
    server.setScript(droidScript(box.project));
    const first = await run(DROID, [...ARGS, PROMPT_1], { cwd: box.project, env });
    if (first.status !== 0)
      throw new Error(`droid run 1 exited ${first.status}\n${first.stderr.slice(-4000)}`);
    // The session's file is the only one under sessions/<project folder>/ named <id>.jsonl.
    const dir = join(box.home, ".factory", "sessions", box.project.replace(/\//g, "-"));
    const id =
      readdirSync(dir)
        .find((f) => f.endsWith(".jsonl"))
        ?.replace(/\.jsonl$/, "") ?? "";
    const second = await run(DROID, [...ARGS, "-s", id, PROMPT_2], { cwd: box.project, env });
    if (second.status !== 0)
      throw new Error(`droid run 2 exited ${second.status}\n${second.stderr.slice(-4000)}`);
  } finally {
    await api.close();
  }
  return { box };
}
