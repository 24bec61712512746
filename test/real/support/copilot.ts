/**
 * Running the real GitHub Copilot CLI (`@github/copilot`) offline against
 * the mock server: `COPILOT_OFFLINE=true` and a BYOK Anthropic provider at
 * the mock. Used by copilot.test.ts, copilot-resume.test.ts and
 * writer-native.test.ts.
 */

import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { MockServer, Turn } from "../server/index.js";
import { baseEnv, packageVersion, REPO, run, type Sandbox, sandbox } from "./cli.js";
import { FINAL_1, FINAL_2, FIRST_TEXT, NOTES, PROMPT_1, PROMPT_2, THINKING } from "./sources.js";

export const COPILOT_BIN = join(REPO, "test", "real", "node_modules", ".bin", "copilot");
export const COPILOT_VERSION = packageVersion(
  join(REPO, "test", "real", "node_modules", "@github", "copilot"),
);

/** Offline, with the mock as its Anthropic provider; no auto-update. */
export function copilotEnv(home: string, url: string): Record<string, string> {
  return {
    ...baseEnv(home, url),
    COPILOT_OFFLINE: "true",
    COPILOT_PROVIDER_BASE_URL: url,
    COPILOT_PROVIDER_TYPE: "anthropic",
    COPILOT_PROVIDER_API_KEY: "sk-ant-mock",
    COPILOT_MODEL: "claude-sonnet-4.5",
    COPILOT_AUTO_UPDATE: "false",
  };
}

/** The two-turn script of support/sources.ts in Copilot CLI's own tools. */
function copilotScript(project: string): Turn[] {
  const hello = join(project, "hello.txt");
  return [
    {
      prompt: PROMPT_1,
      steps: [
        {
          thinking: THINKING,
          text: FIRST_TEXT,
          calls: [{ name: "bash", input: { command: "ls", description: "List files" } }],
        },
        { calls: [{ name: "view", input: { path: join(project, "notes.txt") } }] },
        { calls: [{ name: "create", input: { path: hello, file_text: "hello\n" } }] },
        {
          calls: [
            { name: "edit", input: { path: hello, old_str: "hello", new_str: "hello world" } },
          ],
        },
        {
          calls: [{ name: "bash", input: { command: "cat missing.txt", description: "Show it" } }],
        },
        { text: FINAL_1 },
      ],
    },
    {
      prompt: PROMPT_2,
      steps: [
        {
          calls: [
            { name: "bash", input: { command: "wc -l hello.txt", description: "Count lines" } },
          ],
        },
        { text: FINAL_2 },
      ],
    },
  ];
}

/**
 * Have the real Copilot CLI write its two-turn session: `-p` starts it, the
 * second prompt resumes it with `--resume=<id> -p`. Throws with its output when a run fails.
 */
export async function makeCopilotSource(server: MockServer): Promise<{ box: Sandbox; id: string }> {
  const box = sandbox("src-copilot");
  writeFileSync(join(box.project, "notes.txt"), NOTES);
  const env = copilotEnv(box.home, server.url);
  server.setScript(copilotScript(box.project));
  const id = randomUUID();
  for (const [i, prompt] of [PROMPT_1, PROMPT_2].entries()) {
    // `--session-id` names a new session; `--resume <id>` continues it.
    const args = [
      i === 0 ? `--session-id=${id}` : `--resume=${id}`,
      "-p",
      prompt,
      "--allow-all-tools",
    ];
    const r = await run(COPILOT_BIN, args, { cwd: box.project, env, timeoutMs: 180_000 });
    if (r.status !== 0)
      throw new Error(`copilot run ${i + 1} exited ${r.status}\n${r.stderr.slice(-4000)}`);
  }
  return { box, id };
}
