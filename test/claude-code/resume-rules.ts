/**
 * The rules a written session must meet for `claude --resume <id>` to load
 * it (docs/formats/claude-code.md, "Writing"), checked on the file text.
 * Returns every violation, so a test can show both a clean file and that
 * each rule catches what it should.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TOOL_ID = /^[a-zA-Z0-9_-]+$/;
const RESULT_BLOCKS = new Set([
  "text",
  "image",
  "document",
  "search_result",
  "tool_reference",
  "browser_state",
]);

type Rec = Record<string, unknown>;

function isObj(v: unknown): v is Rec {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function resumeViolations(text: string, sessionId: string): string[] {
  const out: string[] = [];
  const records: Rec[] = [];
  text.split("\n").forEach((line, i) => {
    if (line === "") return;
    try {
      const v = JSON.parse(line) as unknown;
      if (!isObj(v)) out.push(`line ${i + 1}: not an object`);
      else records.push(v);
    } catch {
      out.push(`line ${i + 1}: invalid JSON`);
    }
  });
  if (!text.endsWith("\n")) out.push("no final newline");
  const chain = records.filter((r) => typeof r.uuid === "string");
  const uuids = new Set<string>();
  let previous: unknown = null;
  records.forEach((r, i) => {
    if (r.sessionId !== sessionId) out.push(`record ${i}: sessionId ${String(r.sessionId)}`);
  });
  for (const r of chain) {
    const uuid = r.uuid as string;
    if (!UUID.test(uuid)) out.push(`uuid ${uuid} is not a UUID`);
    if (uuids.has(uuid)) out.push(`uuid ${uuid} used twice`);
    uuids.add(uuid);
    if (r.parentUuid !== previous) out.push(`${uuid}: parentUuid breaks the linear chain`);
    if (typeof r.timestamp !== "string" || Number.isNaN(Date.parse(r.timestamp))) {
      out.push(`${uuid}: bad timestamp`);
    }
    previous = uuid;
  }
  if (!chain.some((r) => r.type === "user")) out.push("no user line");

  // Pairing: the results of an assistant line's calls are in the very next user/assistant line.
  const turns = chain.filter((r) => r.type === "user" || r.type === "assistant");
  const toolIds = new Set<string>();
  turns.forEach((r, i) => {
    const message = r.message;
    if (!isObj(message)) {
      out.push(`${String(r.uuid)}: no message`);
      return;
    }
    if (message.role !== r.type) out.push(`${String(r.uuid)}: role ${String(message.role)}`);
    const content = message.content;
    if (typeof content === "string") {
      if (content.trim() === "") out.push(`${String(r.uuid)}: empty text`);
      return;
    }
    if (!Array.isArray(content) || content.length === 0) {
      out.push(`${String(r.uuid)}: content is neither a string nor blocks`);
      return;
    }
    for (const b of content as Rec[]) {
      if (b.type === "text" && String(b.text).trim() === "")
        out.push(`${String(r.uuid)}: empty text`);
      if (b.type === "thinking" && (typeof b.signature !== "string" || b.signature === "")) {
        out.push(`${String(r.uuid)}: thinking without signature`);
      }
      if ((b.type === "thinking" || b.type === "tool_use") && r.type !== "assistant") {
        out.push(`${String(r.uuid)}: ${String(b.type)} on a user line`);
      }
      if (b.type === "tool_result") {
        if (r.type !== "user") out.push(`${String(r.uuid)}: tool_result on an assistant line`);
        const c = b.content;
        const ok =
          typeof c === "string" ||
          (Array.isArray(c) && c.every((x) => isObj(x) && RESULT_BLOCKS.has(String(x.type))));
        if (!ok) out.push(`${String(r.uuid)}: tool_result content is a bare value`);
      }
    }
    const calls = (content as Rec[]).filter((b) => b.type === "tool_use");
    for (const call of calls) {
      const id = String(call.id);
      if (!TOOL_ID.test(id)) out.push(`tool id ${id} does not match the API pattern`);
      if (toolIds.has(id)) out.push(`tool id ${id} used twice`);
      toolIds.add(id);
      if (!isObj(call.input)) out.push(`tool ${id}: input is not an object`);
      const next = turns[i + 1];
      const nextContent = isObj(next?.message) ? next.message.content : undefined;
      const answered =
        next?.type === "user" &&
        Array.isArray(nextContent) &&
        (nextContent as Rec[]).some((b) => b.type === "tool_result" && b.tool_use_id === id);
      if (!answered) out.push(`tool ${id}: no result in the next message`);
    }
  });
  for (const r of records) {
    if (r.type === "summary" || r.type === "last-prompt") {
      if (r.leafUuid !== undefined && !uuids.has(String(r.leafUuid))) {
        out.push(`${String(r.type)} leafUuid names no line`);
      }
    }
  }
  return out;
}
