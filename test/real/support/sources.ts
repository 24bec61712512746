/**
 * Real sources: for each CLI, a two-turn session the real binary writes
 * itself in a temp HOME and project, driven by the mock server's script. The
 * first turn thinks, lists the project, reads a file, writes one, edits it
 * and runs a command that fails; the second turn (a resume by the CLI's own
 * means) runs one more command. The tools are each CLI's own, so the CLI
 * really executes them.
 */

import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { MockServer, Turn } from "../server/index.js";
import { CLIS, type CliId, cliEnv, PI_ARGS, type Ran, run, type Sandbox, sandbox } from "./cli.js";

export const PROMPT_1 = "Set up the notes project";
export const PROMPT_2 = "How many lines does hello.txt have?";
export const NOTES = "remember the milk\n";
export const THINKING = "The user wants a notes project; I should look around first.";
export const FIRST_TEXT = "I'll look around first.";
export const FINAL_1 = "Wrote hello.txt; missing.txt does not exist.";
export const FINAL_2 = "hello.txt has 1 line.";

export interface RealSource {
  cli: CliId;
  box: Sandbox;
  env: Record<string, string>;
  /** The session id, as the CLI reported it (undefined until txcript lists it, for some CLIs). */
  sessionId: string | undefined;
  runs: Ran[];
}

/** The script a CLI's session follows, in that CLI's own tools. */
export function sourceScript(cli: CliId, project: string): Turn[] {
  const notes = join(project, "notes.txt");
  const hello = join(project, "hello.txt");
  switch (cli) {
    case "claude_code":
      return [
        {
          prompt: PROMPT_1,
          steps: [
            {
              thinking: THINKING,
              text: FIRST_TEXT,
              calls: [{ name: "Bash", input: { command: "ls", description: "List files" } }],
            },
            { calls: [{ name: "Read", input: { file_path: notes } }] },
            { calls: [{ name: "Write", input: { file_path: hello, content: "hello\n" } }] },
            {
              calls: [
                {
                  name: "Edit",
                  input: { file_path: hello, old_string: "hello", new_string: "hello world" },
                },
              ],
            },
            {
              calls: [
                {
                  name: "Bash",
                  input: { command: "cat missing.txt", description: "Show missing.txt" },
                },
              ],
            },
            { text: FINAL_1 },
          ],
        },
        {
          prompt: PROMPT_2,
          steps: [
            {
              calls: [
                { name: "Bash", input: { command: "wc -l hello.txt", description: "Count lines" } },
              ],
            },
            { text: FINAL_2 },
          ],
        },
      ];
    case "codex":
      return [
        {
          prompt: PROMPT_1,
          steps: [
            {
              thinking: THINKING,
              text: FIRST_TEXT,
              calls: [{ name: "exec_command", input: { cmd: "ls" } }],
            },
            { calls: [{ name: "exec_command", input: { cmd: "cat notes.txt" } }] },
            {
              calls: [
                {
                  name: "apply_patch",
                  custom: true,
                  input: "*** Begin Patch\n*** Add File: hello.txt\n+hello\n*** End Patch\n",
                },
              ],
            },
            {
              calls: [
                {
                  name: "apply_patch",
                  custom: true,
                  input:
                    "*** Begin Patch\n*** Update File: hello.txt\n@@\n-hello\n+hello world\n*** End Patch\n",
                },
              ],
            },
            { calls: [{ name: "exec_command", input: { cmd: "cat missing.txt" } }] },
            { text: FINAL_1 },
          ],
        },
        {
          prompt: PROMPT_2,
          steps: [
            { calls: [{ name: "exec_command", input: { cmd: "wc -l hello.txt" } }] },
            { text: FINAL_2 },
          ],
        },
      ];
    case "gemini_cli":
      return [
        {
          prompt: PROMPT_1,
          steps: [
            {
              thinking: THINKING,
              text: FIRST_TEXT,
              calls: [
                { name: "run_shell_command", input: { command: "ls", description: "List files" } },
              ],
            },
            { calls: [{ name: "read_file", input: { file_path: notes } }] },
            { calls: [{ name: "write_file", input: { file_path: hello, content: "hello\n" } }] },
            {
              calls: [
                {
                  name: "replace",
                  input: {
                    file_path: hello,
                    old_string: "hello",
                    new_string: "hello world",
                    instruction: "edit",
                  },
                },
              ],
            },
            {
              calls: [
                {
                  name: "run_shell_command",
                  input: { command: "cat missing.txt", description: "fail" },
                },
              ],
            },
            { text: FINAL_1 },
          ],
        },
        {
          prompt: PROMPT_2,
          steps: [
            {
              calls: [
                {
                  name: "run_shell_command",
                  input: { command: "wc -l hello.txt", description: "Count" },
                },
              ],
            },
            { text: FINAL_2 },
          ],
        },
      ];
    // Kilo keeps OpenCode's tools (bash, read, write, edit) and their inputs.
    case "opencode":
    case "kilo":
      return [
        {
          prompt: PROMPT_1,
          steps: [
            {
              thinking: THINKING,
              text: FIRST_TEXT,
              calls: [{ name: "bash", input: { command: "ls", description: "List files" } }],
            },
            { calls: [{ name: "read", input: { filePath: notes } }] },
            { calls: [{ name: "write", input: { filePath: hello, content: "hello\n" } }] },
            {
              calls: [
                {
                  name: "edit",
                  input: { filePath: hello, oldString: "hello", newString: "hello world" },
                },
              ],
            },
            {
              calls: [
                {
                  name: "bash",
                  input: { command: "cat missing.txt", description: "Show missing.txt" },
                },
              ],
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
    case "qwen_code":
      return [
        {
          prompt: PROMPT_1,
          steps: [
            {
              thinking: THINKING,
              text: FIRST_TEXT,
              calls: [
                { name: "run_shell_command", input: { command: "ls", description: "List files" } },
              ],
            },
            { calls: [{ name: "read_file", input: { file_path: notes } }] },
            { calls: [{ name: "write_file", input: { file_path: hello, content: "hello\n" } }] },
            {
              calls: [
                {
                  name: "edit",
                  input: { file_path: hello, old_string: "hello", new_string: "hello world" },
                },
              ],
            },
            {
              calls: [
                {
                  name: "run_shell_command",
                  input: { command: "cat missing.txt", description: "Show missing.txt" },
                },
              ],
            },
            { text: FINAL_1 },
          ],
        },
        {
          prompt: PROMPT_2,
          steps: [
            {
              calls: [
                {
                  name: "run_shell_command",
                  input: { command: "wc -l hello.txt", description: "Count lines" },
                },
              ],
            },
            { text: FINAL_2 },
          ],
        },
      ];
    case "pi":
      return [
        {
          prompt: PROMPT_1,
          steps: [
            {
              thinking: THINKING,
              text: FIRST_TEXT,
              calls: [{ name: "bash", input: { command: "ls" } }],
            },
            { calls: [{ name: "read", input: { path: notes } }] },
            { calls: [{ name: "write", input: { path: hello, content: "hello\n" } }] },
            {
              calls: [
                {
                  name: "edit",
                  input: { path: hello, edits: [{ oldText: "hello", newText: "hello world" }] },
                },
              ],
            },
            { calls: [{ name: "bash", input: { command: "cat missing.txt" } }] },
            { text: FINAL_1 },
          ],
        },
        {
          prompt: PROMPT_2,
          steps: [
            { calls: [{ name: "bash", input: { command: "wc -l hello.txt" } }] },
            { text: FINAL_2 },
          ],
        },
      ];
    default:
      return cli satisfies never;
  }
}

/** argv for one prompt: the first starts the session, a later one resumes it by the CLI's own means. */
export function promptArgs(
  cli: CliId,
  prompt: string,
  sessionId: string | undefined,
  first: boolean,
): string[] {
  switch (cli) {
    case "claude_code":
      return [
        "-p",
        prompt,
        ...(first ? ["--session-id", sessionId!] : ["--resume", sessionId!]),
        "--dangerously-skip-permissions",
      ];
    case "codex":
      return [
        "exec",
        "--json",
        "--skip-git-repo-check",
        "--dangerously-bypass-approvals-and-sandbox",
        ...(first ? [prompt] : ["resume", sessionId!, prompt]),
      ];
    case "gemini_cli":
      return ["--yolo", ...(first ? [] : ["--resume", sessionId ?? "latest"]), "-p", prompt];
    case "opencode":
    case "kilo":
      // `opencode run` (and Kilo's, the same command) quotes a message argument that holds a space: one word per argument keeps it verbatim.
      return [
        "run",
        "--pure",
        ...(first ? [] : sessionId ? ["--session", sessionId] : ["--continue"]),
        ...prompt.split(" "),
      ];
    case "qwen_code":
      // Headless `-p`; a later prompt resumes by id (`--resume`), else the project's latest (`--continue`).
      return [
        "--yolo",
        ...(first ? [] : sessionId ? ["--resume", sessionId] : ["--continue"]),
        "-p",
        prompt,
      ];
    case "pi":
      // `--session` takes a file or an id (a copy's, in its home); a later prompt without one continues the latest.
      return [
        ...PI_ARGS,
        ...(first ? [] : sessionId ? ["--session", sessionId] : ["-c"]),
        "-p",
        prompt,
      ];
    default:
      return cli satisfies never;
  }
}

/** The thread id `codex exec --json` reports. */
function codexThread(stdout: string): string | undefined {
  for (const line of stdout.split("\n")) {
    try {
      const ev: unknown = JSON.parse(line);
      if (
        typeof ev === "object" &&
        ev !== null &&
        "thread_id" in ev &&
        typeof ev.thread_id === "string"
      )
        return ev.thread_id;
    } catch {
      // not an event line
    }
  }
  return undefined;
}

/** Have the real CLI write its two-turn session. Throws with its output when a run fails. */
export async function makeSource(cli: CliId, server: MockServer): Promise<RealSource> {
  const box = sandbox(`src-${cli}`);
  writeFileSync(join(box.project, "notes.txt"), NOTES);
  const env = cliEnv(cli, box.home, server.url);
  server.setScript(sourceScript(cli, box.project));
  let sessionId: string | undefined = cli === "claude_code" ? randomUUID() : undefined;
  const runs: Ran[] = [];
  for (const [i, prompt] of [PROMPT_1, PROMPT_2].entries()) {
    const r = await run(CLIS[cli].bin, promptArgs(cli, prompt, sessionId, i === 0), {
      cwd: box.project,
      env,
      timeoutMs: 150_000,
    });
    runs.push(r);
    if (r.status !== 0)
      throw new Error(`${cli} run ${i + 1} exited ${r.status}\n${r.stderr.slice(-4000)}`);
    if (cli === "codex" && i === 0) sessionId = codexThread(r.stdout);
  }
  return { cli, box, env, sessionId, runs };
}
