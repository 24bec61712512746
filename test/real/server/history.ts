/**
 * What a model request carries, reduced to one neutral shape for every API the
 * mock serves: the conversation as an ordered list of user text, assistant
 * text, thinking, tool calls and tool results. The resume tests compare this
 * with txcript's Common view; the script player uses it to know where a
 * conversation stands.
 */

export type Item =
  | { kind: "user"; text: string }
  | { kind: "assistant"; text: string }
  | { kind: "thinking"; text: string }
  | { kind: "call"; id: string; name: string; input: unknown }
  | { kind: "result"; id: string; output: string; is_error?: boolean };

export interface Parsed {
  /** The tool names the request offers (empty for side requests such as titles). */
  tools: string[];
  items: Item[];
  /** Whether the client asked for a streamed answer. */
  stream: boolean;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === "string" ? v : "");

/** A tool result's content as text, whatever the API nests it in. */
function flatten(v: unknown): string {
  if (typeof v === "string") return v;
  if (Array.isArray(v)) return v.map(flatten).join("");
  if (isObj(v)) {
    if (typeof v.text === "string") return v.text;
    if ("output" in v) return flatten(v.output);
    if ("content" in v) return flatten(v.content);
    return JSON.stringify(v);
  }
  return v === undefined || v === null ? "" : String(v);
}

function parseArgs(s: unknown): unknown {
  if (typeof s !== "string") return s;
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
}

/** Anthropic Messages: `messages[]` of content blocks. */
export function parseAnthropic(body: Obj): Parsed {
  const items: Item[] = [];
  for (const m of arr(body.messages)) {
    if (!isObj(m)) continue;
    const role = m.role;
    const content = typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content;
    for (const b of arr(content)) {
      if (!isObj(b)) continue;
      if (b.type === "text")
        items.push({ kind: role === "user" ? "user" : "assistant", text: str(b.text) });
      else if (b.type === "thinking") items.push({ kind: "thinking", text: str(b.thinking) });
      else if (b.type === "tool_use")
        items.push({ kind: "call", id: str(b.id), name: str(b.name), input: b.input });
      else if (b.type === "tool_result")
        items.push({
          kind: "result",
          id: str(b.tool_use_id),
          output: flatten(b.content),
          ...(b.is_error === true ? { is_error: true } : {}),
        });
    }
  }
  const tools = arr(body.tools).flatMap((t) =>
    isObj(t) && typeof t.name === "string" ? [t.name] : [],
  );
  return { tools, items, stream: body.stream === true };
}

/** OpenAI Responses: `input[]` items. */
export function parseResponses(body: Obj): Parsed {
  const items: Item[] = [];
  for (const it of arr(body.input)) {
    if (!isObj(it)) continue;
    const type = it.type ?? (it.role ? "message" : undefined);
    if (type === "message") {
      const content = typeof it.content === "string" ? [{ text: it.content }] : arr(it.content);
      const text = content.map((c) => (isObj(c) ? str(c.text) : "")).join("");
      if (it.role === "user") items.push({ kind: "user", text });
      else if (it.role === "assistant") items.push({ kind: "assistant", text });
      // developer/system messages are the harness's own instructions: not history.
    } else if (type === "reasoning") {
      const text = arr(it.summary)
        .map((s) => (isObj(s) ? str(s.text) : ""))
        .join("");
      items.push({ kind: "thinking", text });
    } else if (type === "function_call") {
      items.push({
        kind: "call",
        id: str(it.call_id),
        name: str(it.name),
        input: parseArgs(it.arguments),
      });
    } else if (type === "custom_tool_call") {
      items.push({ kind: "call", id: str(it.call_id), name: str(it.name), input: it.input });
    } else if (type === "function_call_output" || type === "custom_tool_call_output") {
      items.push({ kind: "result", id: str(it.call_id), output: flatten(it.output) });
    }
  }
  const tools = arr(body.tools).flatMap((t) =>
    isObj(t) && typeof t.name === "string" ? [t.name] : [],
  );
  return { tools, items, stream: body.stream === true };
}

/** OpenAI chat completions: `messages[]` with `tool_calls` and `tool` messages. */
export function parseChat(body: Obj): Parsed {
  const items: Item[] = [];
  for (const m of arr(body.messages)) {
    if (!isObj(m)) continue;
    // An array content holds one part per block: each text part is its own item, images are left out.
    const texts =
      typeof m.content === "string"
        ? [m.content]
        : arr(m.content).flatMap((p) => (isObj(p) && p.type === "text" ? [str(p.text)] : []));
    const text = texts.join("");
    if (m.role === "user") for (const t of texts) items.push({ kind: "user", text: t });
    else if (m.role === "assistant") {
      const reasoning = str(m.reasoning_content) || str(m.reasoning);
      if (reasoning) items.push({ kind: "thinking", text: reasoning });
      for (const t of texts) if (t) items.push({ kind: "assistant", text: t });
      for (const c of arr(m.tool_calls)) {
        if (!isObj(c) || !isObj(c.function)) continue;
        items.push({
          kind: "call",
          id: str(c.id),
          name: str(c.function.name),
          input: parseArgs(c.function.arguments),
        });
      }
    } else if (m.role === "tool")
      items.push({ kind: "result", id: str(m.tool_call_id), output: text });
  }
  const tools = arr(body.tools).flatMap((t) =>
    isObj(t) && isObj(t.function) && typeof t.function.name === "string" ? [t.function.name] : [],
  );
  return { tools, items, stream: body.stream === true };
}

/** Gemini generateContent: `contents[]` of parts; calls and responses pair by order and name. */
export function parseGemini(body: Obj, stream: boolean): Parsed {
  const items: Item[] = [];
  const open: { id: string; name: string }[] = [];
  let n = 0;
  for (const c of arr(body.contents)) {
    if (!isObj(c)) continue;
    for (const p of arr(c.parts)) {
      if (!isObj(p)) continue;
      if (typeof p.text === "string") {
        if (p.thought === true) items.push({ kind: "thinking", text: p.text });
        else items.push({ kind: c.role === "model" ? "assistant" : "user", text: p.text });
      } else if (isObj(p.functionCall)) {
        const id = str(p.functionCall.id) || `gemini-call-${n++}`;
        const name = str(p.functionCall.name);
        open.push({ id, name });
        items.push({ kind: "call", id, name, input: p.functionCall.args });
      } else if (isObj(p.functionResponse)) {
        const name = str(p.functionResponse.name);
        const given = str(p.functionResponse.id);
        const at = open.findIndex((o) => (given ? o.id === given : o.name === name));
        const id = given || (at >= 0 ? open[at]!.id : "");
        if (at >= 0) open.splice(at, 1);
        const response = p.functionResponse.response;
        const isError = isObj(response) && "error" in response;
        items.push({
          kind: "result",
          id,
          output: flatten(
            isObj(response) && "output" in response
              ? response.output
              : isObj(response) && "error" in response
                ? response.error
                : response,
          ),
          ...(isError ? { is_error: true } : {}),
        });
      }
    }
  }
  const tools: string[] = [];
  for (const t of arr(body.tools)) {
    if (!isObj(t)) continue;
    for (const d of arr(t.functionDeclarations))
      if (isObj(d) && typeof d.name === "string") tools.push(d.name);
  }
  return { tools, items, stream };
}
