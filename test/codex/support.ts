/**
 * Test helpers for the Codex harness: the resume rules a written rollout
 * must satisfy (checked line by line, independently of the reader), and a
 * realistic Common session to convert.
 */

import type { Json, Message, Meta } from "../../src/common.js";
import { normalizeTimestamp } from "../../src/time.js";
import type { Common, Transcript } from "../../src/transcript.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TYPES = new Set(["session_meta", "turn_context", "response_item", "event_msg", "compacted"]);

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Every resume rule a written rollout breaks; [] when `codex resume <id>` can replay it. */
export function resumeProblems(text: string, expectedId?: string): string[] {
  const problems: string[] = [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  const parsed: { type: string; payload: Obj }[] = [];
  lines.forEach((line, i) => {
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      problems.push(`line ${i + 1} is not JSON`);
      return;
    }
    if (!isObj(v) || typeof v.type !== "string" || !isObj(v.payload)) {
      problems.push(`line ${i + 1} is not an envelope`);
      return;
    }
    if (typeof v.timestamp !== "string" || normalizeTimestamp(v.timestamp) === undefined) {
      problems.push(`line ${i + 1} has no RFC 3339 timestamp string`);
    }
    if (!TYPES.has(v.type)) problems.push(`line ${i + 1} has unknown type ${v.type}`);
    parsed.push({ type: v.type, payload: v.payload });
  });
  const first = parsed[0];
  if (first?.type !== "session_meta") {
    problems.push("the first line is not session_meta");
  } else {
    const p = first.payload;
    if (typeof p.id !== "string" || !UUID.test(p.id))
      problems.push("session_meta.id is not a UUID");
    if (expectedId !== undefined && p.id !== expectedId) problems.push("session_meta.id differs");
    if (typeof p.model_provider !== "string" || p.model_provider === "") {
      problems.push("session_meta.model_provider is not a provider name");
    }
    if (!("base_instructions" in p)) problems.push("session_meta has no base_instructions key");
    if (p.source !== "cli") problems.push('session_meta.source is not "cli"');
    for (const key of ["timestamp", "cwd", "originator", "cli_version"]) {
      if (typeof p[key] !== "string") problems.push(`session_meta.${key} is not a string`);
    }
  }
  if (parsed.filter((l) => l.type === "session_meta").length !== 1) {
    problems.push("not exactly one session_meta");
  }

  // Turns bracket everything after the header.
  let turn: string | undefined;
  let sawTokenCount = false;
  let sawAssistant = false;
  let sawTurnContext = false;
  const turnsWithoutContext: string[] = [];
  const pendingCalls = new Map<string, string>(); // call_id -> expected output type
  const answered = new Set<string>();
  parsed.forEach(({ type, payload: p }, i) => {
    const where = `line ${i + 1}`;
    if (type === "session_meta") return;
    if (type === "event_msg" && p.type === "task_started") {
      if (turn !== undefined) problems.push(`${where}: task_started inside turn ${turn}`);
      turn = String(p.turn_id);
      sawTokenCount = false;
      sawAssistant = false;
      sawTurnContext = false;
      return;
    }
    if (turn === undefined) {
      problems.push(`${where}: ${type} outside a turn`);
      return;
    }
    if (type === "turn_context") {
      sawTurnContext = true;
      if (p.turn_id !== turn) problems.push(`${where}: turn_context for another turn`);
      if (typeof p.model !== "string" || p.model === "")
        problems.push(`${where}: turn_context without model`);
      for (const key of ["cwd", "approval_policy", "sandbox_policy", "summary"]) {
        if (!(key in p)) problems.push(`${where}: turn_context without ${key}`);
      }
    }
    if (type === "event_msg" && p.type === "token_count") sawTokenCount = true;
    if (type === "event_msg" && p.type === "task_complete") {
      if (p.turn_id !== turn) problems.push(`${where}: task_complete for another turn`);
      if (!sawTokenCount) problems.push(`${where}: turn ${turn} has no token_count`);
      if (sawAssistant && !sawTurnContext) turnsWithoutContext.push(turn);
      turn = undefined;
      return;
    }
    if (type !== "response_item") return;
    const next = parsed[i + 1];
    switch (p.type) {
      case "message": {
        const content = Array.isArray(p.content) ? (p.content as Obj[]) : [];
        if (p.role === "user") {
          const text = content
            .filter((c) => c.type === "input_text")
            .map((c) => c.text)
            .join("\n");
          if (
            next?.type !== "event_msg" ||
            next.payload.type !== "user_message" ||
            next.payload.message !== text
          ) {
            problems.push(`${where}: user message not mirrored by user_message`);
          }
        } else if (p.role === "assistant") {
          sawAssistant = true;
          content.forEach((c, k) => {
            const mirror = parsed[i + 1 + k];
            if (mirror?.payload.type !== "agent_message" || mirror.payload.message !== c.text) {
              problems.push(`${where}: assistant text ${k} not mirrored by agent_message`);
            }
          });
        } else problems.push(`${where}: message role ${String(p.role)}`);
        break;
      }
      case "reasoning":
        sawAssistant = true;
        if (p.encrypted_content !== null) problems.push(`${where}: encrypted reasoning written`);
        if (next?.payload.type !== "agent_reasoning")
          problems.push(`${where}: reasoning not mirrored`);
        break;
      case "function_call":
      case "custom_tool_call": {
        sawAssistant = true;
        const id = String(p.call_id);
        if (pendingCalls.has(id) || answered.has(id))
          problems.push(`${where}: call_id ${id} reused`);
        if (typeof p.name !== "string" || !/^[A-Za-z0-9_-]{1,64}$/.test(p.name)) {
          problems.push(`${where}: tool name ${String(p.name)} is not a valid OpenAI name`);
        }
        if (p.type === "function_call") {
          try {
            JSON.parse(String(p.arguments));
          } catch {
            problems.push(`${where}: arguments are not JSON`);
          }
        } else if (typeof p.input !== "string")
          problems.push(`${where}: custom input not a string`);
        pendingCalls.set(
          id,
          p.type === "function_call" ? "function_call_output" : "custom_tool_call_output",
        );
        break;
      }
      case "function_call_output":
      case "custom_tool_call_output": {
        const id = String(p.call_id);
        if (pendingCalls.get(id) !== p.type)
          problems.push(`${where}: ${String(p.type)} for no matching call ${id}`);
        pendingCalls.delete(id);
        answered.add(id);
        const out = p.output as Json;
        const itemsOk =
          Array.isArray(out) &&
          out.every((o) => isObj(o) && (o.type === "input_text" || o.type === "input_image"));
        if (typeof out !== "string" && !(p.type === "function_call_output" && itemsOk)) {
          problems.push(`${where}: output is neither text nor content items`);
        }
        break;
      }
      default:
        problems.push(`${where}: unexpected response_item ${String(p.type)}`);
    }
  });
  if (turn !== undefined) problems.push(`turn ${turn} never completes`);
  for (const id of pendingCalls.keys()) problems.push(`call ${id} has no output`);
  for (const t of turnsWithoutContext)
    problems.push(`turn ${t} has assistant items but no turn_context`);
  return problems;
}

const T0 = Date.parse("2026-08-10T12:00:00.000Z");
const at = (s: number) => normalizeTimestamp(new Date(T0 + s * 1000).toISOString()) as string;

/**
 * A realistic 50-message session: prompts, thinking, every shell and file
 * tool, successes and errors, an image, usage on every assistant message.
 */
export function realisticSession(): Transcript<Common> {
  const meta: Meta = {
    id: "5f0c9d3e-1111-4a2b-9c3d-222233334444",
    timestamp: "2026-08-10T12:00:00Z",
    cwd: "/home/al/my_app",
    git_branch: "main",
    title: "Fix the flaky login test",
    model: "gpt-5-codex",
  };
  const messages: Message[] = [
    {
      role: "user",
      timestamp: at(0),
      content: [
        { type: "text", text: "The login test is flaky; here is the CI screenshot." },
        {
          type: "image",
          source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgoAAAANSUhEUg==" },
        },
      ],
    },
  ];
  let s = 1;
  let n = 0;
  const tools: ((i: number) => {
    tool: Message["content"][number];
    result: Json;
    error?: boolean;
  })[] = [
    (i) => ({
      tool: {
        type: "tool_use",
        id: `call_${i}`,
        tool: {
          name: "Bash",
          command: `npm test -- login --run ${i}`,
          workdir: "/home/al/my_app",
          timeout_ms: 120000,
        },
      },
      result: i % 3 === 0 ? "1 failing\nAssertionError: timeout" : "3 passing",
      error: i % 3 === 0,
    }),
    (i) => ({
      tool: {
        type: "tool_use",
        id: `call_${i}`,
        tool: {
          name: "Read",
          file_path: `/home/al/my_app/test/login${i}.ts`,
          offset: 1,
          limit: 40,
        },
      },
      result: `test('login ${i}', async () => { await sleep(10) })`,
    }),
    (i) => ({
      tool: {
        type: "tool_use",
        id: `call_${i}`,
        tool: {
          name: "Edit",
          file_path: `/home/al/my_app/test/login${i}.ts`,
          old_string: "await sleep(10)",
          new_string: "await ready()",
        },
      },
      result: "The file was updated.",
    }),
    (i) => ({
      tool: {
        type: "tool_use",
        id: `call_${i}`,
        tool: {
          name: "Write",
          file_path: `/home/al/my_app/notes/${i}.md`,
          content: `# Note ${i}\n\nreadiness beats sleeping\n`,
        },
      },
      result: "File created",
    }),
    (i) => ({
      tool: {
        type: "tool_use",
        id: `call_${i}`,
        tool: {
          name: "Raw",
          tool_name: "mcp__github__search_issues",
          input: { q: `flaky login ${i}`, limit: 5 },
        },
      },
      result: [{ type: "text", text: `${i} issues found` }],
    }),
    (i) => ({
      tool: {
        type: "tool_use",
        id: `call_${i}`,
        tool: { name: "Bash", command: "git status --short" },
      },
      result: "fatal: not a git repository",
      error: true,
    }),
  ];
  while (messages.length < 49) {
    const make = tools[n % tools.length]!;
    const { tool, result, error } = make(n);
    messages.push({
      role: "assistant",
      timestamp: at(s++),
      model: n < 12 ? "gpt-5-codex" : "gpt-5.1-codex-max",
      usage: {
        input_tokens: 300 + n,
        output_tokens: 40 + n,
        cache_read_input_tokens: 4000 + 10 * n,
      },
      content: [
        { type: "thinking", text: `Step ${n}: check what the test does next.` },
        { type: "text", text: `Running step ${n}.` },
        tool,
      ],
    });
    const id = (tool as { id: string }).id;
    messages.push({
      role: "user",
      timestamp: at(s++),
      content: [
        error
          ? { type: "tool_result", tool_use_id: id, content: result, is_error: true }
          : { type: "tool_result", tool_use_id: id, content: result },
      ],
    });
    n++;
  }
  messages.push({
    role: "assistant",
    timestamp: at(s++),
    model: "gpt-5.1-codex-max",
    usage: { input_tokens: 500, output_tokens: 25, cache_read_input_tokens: 6000 },
    content: [{ type: "text", text: "Fixed: every login test now waits for readiness." }],
  });
  return { meta, body: messages };
}
