/**
 * A local stand-in for the model APIs the real CLIs call, on 127.0.0.1 only:
 * Anthropic Messages (SSE), OpenAI Responses (SSE), OpenAI-compatible chat
 * completions (streamed chunks) and Gemini generateContent /
 * streamGenerateContent (SSE). It records every request and answers from a
 * script; anything it does not expect (an unknown path, a proxy CONNECT, a
 * script run dry) lands in `unexpected`, which every test asserts is empty.
 */

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  type Item,
  type Parsed,
  parseAnthropic,
  parseChat,
  parseGemini,
  parseResponses,
} from "./history.js";

export type { Item, Parsed } from "./history.js";

/** One tool call the model makes. `custom`: a Responses freeform tool (Codex apply_patch), input is a string. */
export interface Call {
  name: string;
  input: unknown;
  custom?: boolean;
}
/** One model turn: optional thinking, optional text, then tool calls (none: the turn ends). */
export interface Step {
  thinking?: string;
  text?: string;
  calls?: Call[];
}
/** For each user prompt (matched by inclusion in the last user text), the model turns that answer it. */
export interface Turn {
  prompt: string;
  steps: Step[];
}

export type Api = "anthropic" | "responses" | "chat" | "gemini";

export interface Recorded {
  api: Api;
  method: string;
  url: string;
  body: Record<string, unknown>;
  parsed: Parsed;
  /** Whether the request was a main-agent turn the script answered. */
  scripted: boolean;
}

export interface MockServer {
  url: string;
  port: number;
  requests: Recorded[];
  unexpected: string[];
  /** Replace the script (between CLI runs). */
  setScript(turns: Turn[]): void;
  /** The scripted (main-agent) requests recorded so far. */
  scripted(): Recorded[];
  close(): Promise<void>;
}

const SIDE_TEXT = "Scripted session";
// Gemini asks its router and its next-speaker check for JSON; one object satisfies both.
const GEMINI_JSON = JSON.stringify({
  reasoning: "mock",
  model_choice: "flash",
  next_speaker: "user",
  complexity_reasoning: "mock",
  complexity_score: 1,
});

/** Where the conversation stands: the step the script owes, or undefined for a side request. */
function due(turns: Turn[], parsed: Parsed): { step: Step | undefined; scripted: boolean } {
  if (parsed.tools.length === 0) return { step: undefined, scripted: false };
  const { items } = parsed;
  for (let i = items.length - 1; i >= 0; i--) {
    const it = items[i]!;
    if (it.kind !== "user") continue;
    const turn = turns.find((t) => it.text.includes(t.prompt));
    if (!turn) continue;
    // Each run of tool results after the prompt answers one scripted step.
    let runs = 0;
    for (let j = i + 1; j < items.length; j++) {
      if (items[j]!.kind === "result" && items[j + 1]?.kind !== "result") runs++;
    }
    return { step: turn.steps[runs], scripted: true };
  }
  return { step: undefined, scripted: false };
}

let seq = 0;
const nextId = (prefix: string) => `${prefix}_${(++seq).toString(36).padStart(6, "0")}`;

function sse(res: ServerResponse, events: { event?: string; data: unknown }[]) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  for (const e of events) {
    if (e.event) res.write(`event: ${e.event}\n`);
    res.write(`data: ${typeof e.data === "string" ? e.data : JSON.stringify(e.data)}\n\n`);
  }
  res.end();
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

function anthropic(res: ServerResponse, step: Step, model: string) {
  const events: { event: string; data: unknown }[] = [];
  const push = (event: string, data: Record<string, unknown>) =>
    events.push({ event, data: { type: event, ...data } });
  push("message_start", {
    message: {
      id: nextId("msg"),
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 1 },
    },
  });
  let index = 0;
  if (step.thinking !== undefined) {
    push("content_block_start", {
      index,
      content_block: { type: "thinking", thinking: "", signature: "" },
    });
    push("content_block_delta", {
      index,
      delta: { type: "thinking_delta", thinking: step.thinking },
    });
    push("content_block_delta", {
      index,
      delta: { type: "signature_delta", signature: "mock-signature" },
    });
    push("content_block_stop", { index });
    index++;
  }
  if (step.text !== undefined) {
    push("content_block_start", { index, content_block: { type: "text", text: "" } });
    push("content_block_delta", { index, delta: { type: "text_delta", text: step.text } });
    push("content_block_stop", { index });
    index++;
  }
  for (const call of step.calls ?? []) {
    push("content_block_start", {
      index,
      content_block: { type: "tool_use", id: nextId("toolu"), name: call.name, input: {} },
    });
    push("content_block_delta", {
      index,
      delta: { type: "input_json_delta", partial_json: JSON.stringify(call.input) },
    });
    push("content_block_stop", { index });
    index++;
  }
  push("message_delta", {
    delta: { stop_reason: step.calls?.length ? "tool_use" : "end_turn", stop_sequence: null },
    usage: { output_tokens: 5 },
  });
  push("message_stop", {});
  sse(res, events);
}

function responses(res: ServerResponse, step: Step, model: string) {
  const id = nextId("resp");
  const output: Record<string, unknown>[] = [];
  if (step.thinking !== undefined)
    output.push({
      type: "reasoning",
      id: nextId("rs"),
      summary: [{ type: "summary_text", text: step.thinking }],
    });
  if (step.text !== undefined)
    output.push({
      type: "message",
      id: nextId("msg"),
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: step.text, annotations: [] }],
    });
  for (const call of step.calls ?? []) {
    output.push(
      call.custom
        ? {
            type: "custom_tool_call",
            id: nextId("ctc"),
            call_id: nextId("call"),
            name: call.name,
            input: call.input,
          }
        : {
            type: "function_call",
            id: nextId("fc"),
            call_id: nextId("call"),
            name: call.name,
            arguments: JSON.stringify(call.input),
            status: "completed",
          },
    );
  }
  const base = { id, object: "response", created_at: Math.floor(Date.now() / 1000), model };
  const events: { event: string; data: unknown }[] = [];
  const push = (event: string, data: Record<string, unknown>) =>
    events.push({ event, data: { type: event, ...data } });
  push("response.created", { response: { ...base, status: "in_progress", output: [] } });
  output.forEach((item, output_index) => {
    push("response.output_item.added", { output_index, item });
    if (item.type === "message")
      push("response.output_text.delta", {
        item_id: item.id,
        output_index,
        content_index: 0,
        delta: step.text,
      });
    push("response.output_item.done", { output_index, item });
  });
  push("response.completed", {
    response: {
      ...base,
      status: "completed",
      output,
      usage: {
        input_tokens: 10,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: 5,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 15,
      },
    },
  });
  sse(res, events);
}

function chat(res: ServerResponse, step: Step, model: string, stream: boolean) {
  const id = nextId("chatcmpl");
  const created = Math.floor(Date.now() / 1000);
  const calls = (step.calls ?? []).map((c, index) => ({
    index,
    id: nextId("call"),
    type: "function",
    function: { name: c.name, arguments: JSON.stringify(c.input) },
  }));
  const finish = calls.length ? "tool_calls" : "stop";
  const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
  if (!stream) {
    json(res, 200, {
      id,
      object: "chat.completion",
      created,
      model,
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: step.text ?? null,
            ...(step.thinking ? { reasoning_content: step.thinking } : {}),
            ...(calls.length ? { tool_calls: calls.map(({ index: _, ...c }) => c) } : {}),
          },
          finish_reason: finish,
        },
      ],
      usage,
    });
    return;
  }
  const chunk = (delta: Record<string, unknown>, finish_reason: string | null = null) => ({
    data: {
      id,
      object: "chat.completion.chunk",
      created,
      model,
      choices: [{ index: 0, delta, finish_reason }],
    },
  });
  const events: { data: unknown }[] = [chunk({ role: "assistant", content: "" })];
  if (step.thinking) events.push(chunk({ reasoning_content: step.thinking }));
  if (step.text) events.push(chunk({ content: step.text }));
  if (calls.length) events.push(chunk({ tool_calls: calls }));
  events.push(chunk({}, finish));
  events.push({
    data: { id, object: "chat.completion.chunk", created, model, choices: [], usage },
  });
  sse(res, [...events, { data: "[DONE]" }]);
}

function gemini(res: ServerResponse, step: Step, model: string, stream: boolean) {
  const parts: Record<string, unknown>[] = [];
  if (step.thinking) parts.push({ text: step.thinking, thought: true });
  if (step.text !== undefined) parts.push({ text: step.text });
  for (const c of step.calls ?? []) parts.push({ functionCall: { name: c.name, args: c.input } });
  const body = {
    candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    modelVersion: model,
  };
  if (stream) sse(res, [{ data: body }]);
  else json(res, 200, body);
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if (!text) return {};
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === "object" && v !== null && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : {};
  } catch {
    return { _raw: text };
  }
}

export async function startMockServer(initial: Turn[] = []): Promise<MockServer> {
  let turns = initial;
  const requests: Recorded[] = [];
  const unexpected: string[] = [];

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      unexpected.push(`${req.method} ${req.url}: handler failed: ${String(e)}`);
      if (!res.headersSent) json(res, 500, { error: String(e) });
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = req.url ?? "/";
    const path = url.split("?")[0]!;
    const method = req.method ?? "GET";
    const body = await readBody(req);

    let api: Api | undefined;
    let parsed: Parsed | undefined;
    let stream = false;
    const gem =
      /^\/v1(beta|alpha)?\/models\/([^:/]+):(generateContent|streamGenerateContent|countTokens)$/.exec(
        path,
      );
    if (method === "POST" && path === "/v1/messages/count_tokens")
      return json(res, 200, { input_tokens: 10 });
    if (method === "POST" && path === "/v1/messages") {
      api = "anthropic";
      parsed = parseAnthropic(body);
      stream = parsed.stream;
    } else if (method === "POST" && path === "/v1/responses") {
      api = "responses";
      parsed = parseResponses(body);
      stream = true;
    } else if (method === "POST" && path === "/v1/chat/completions") {
      api = "chat";
      parsed = parseChat(body);
      stream = parsed.stream;
    } else if (method === "POST" && gem) {
      if (gem[3] === "countTokens") return json(res, 200, { totalTokens: 10 });
      api = "gemini";
      stream = gem[3] === "streamGenerateContent";
      parsed = parseGemini(body, stream);
    }
    if (!api || !parsed) {
      unexpected.push(`${method} ${url}`);
      return json(res, 404, { error: { message: `mock: no route for ${method} ${path}` } });
    }
    const { step, scripted } = due(turns, parsed);
    requests.push({ api, method, url, body, parsed, scripted });
    if (scripted && !step) unexpected.push(`${method} ${url}: the script has no step left`);
    const model = typeof body.model === "string" ? body.model : (gem?.[2] ?? "mock-model");
    const answer: Step =
      step ?? (api === "gemini" && !stream ? { text: GEMINI_JSON } : { text: SIDE_TEXT });
    switch (api) {
      case "anthropic":
        if (!stream) {
          return json(res, 200, {
            id: nextId("msg"),
            type: "message",
            role: "assistant",
            model,
            content: [{ type: "text", text: answer.text ?? SIDE_TEXT }],
            stop_reason: "end_turn",
            stop_sequence: null,
            usage: { input_tokens: 10, output_tokens: 5 },
          });
        }
        return anthropic(res, answer, model);
      case "responses":
        return responses(res, answer, model);
      case "chat":
        return chat(res, answer, model, stream);
      case "gemini":
        return gemini(res, answer, model, stream);
      default:
        return api satisfies never;
    }
  }

  // A client that honours HTTPS_PROXY and tries to leave the machine lands here.
  server.on("connect", (req, socket) => {
    socket.on("error", () => {});
    unexpected.push(`CONNECT ${req.url}`);
    socket.end("HTTP/1.1 403 Forbidden\r\n\r\n");
  });
  server.on("upgrade", (req, socket) => {
    socket.on("error", () => {});
    unexpected.push(`UPGRADE ${req.url}`);
    socket.end("HTTP/1.1 404 Not Found\r\n\r\n");
  });

  server.on("clientError", (_e, socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    unexpected,
    setScript(t) {
      turns = t;
    },
    scripted: () => requests.filter((r) => r.scripted),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type { Item as HistoryItem };
