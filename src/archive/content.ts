/**
 * What leaves the machine: a session cut to its content level and
 * redacted, before anything is sent. Pure but for the redactor's own
 * (asynchronous) secretlint pass.
 *
 * - `full`: the Common transcript and every searchable chunk.
 * - `no-tool-output`: the transcript with each tool result's content
 *   replaced by an empty string, and no `tool_output` chunk.
 * - `metadata`: the listing (title, cwd, times, counts) and usage rows only.
 */

import type { Block } from "../common.js";
import { type Chunk, chunksOf, type UsageRow, usageRowsOf } from "../index/text.js";
import { type RedactOptions, redact, redactTexts } from "../render/redact.js";
import { timestampMillis } from "../time.js";
import type { Common, Discovered, Transcript } from "../transcript.js";

export const CONTENT_LEVELS = ["full", "no-tool-output", "metadata"] as const;
export type ContentLevel = (typeof CONTENT_LEVELS)[number];

export function isContentLevel(value: string): value is ContentLevel {
  return CONTENT_LEVELS.some((level) => level === value);
}

/** One session as it will be stored in the archive. */
export interface Outgoing {
  discovered: Discovered;
  /** The transcript's Common JSON; undefined at `metadata`. */
  transcript: Transcript<Common> | undefined;
  chunks: Chunk[];
  usage: UsageRow[];
  /** Strings the redactor replaced. */
  redactions: number;
}

function withoutToolOutput(block: Block): Block {
  return block.type === "tool_result" ? { ...block, content: "" } : block;
}

function updatedMs(d: Discovered): number {
  try {
    return timestampMillis(d.updated);
  } catch {
    return 0;
  }
}

/**
 * At `metadata` no message's words leave the machine, and a harness (or
 * reader) that names an untitled session by its first prompt would send
 * them as the title: such a title is left out.
 */
function withoutPromptTitle(
  d: Discovered,
  original: string | undefined,
  transcript: Transcript<Common>,
): Discovered {
  const title = original?.replace(/…$/, "").replace(/\s+/g, " ").trim();
  if (title === undefined) return d;
  const first = transcript.body.find((m) => m.role === "user");
  const text = (first?.content ?? [])
    .map((b) => (b.type === "text" ? b.text : ""))
    .join(" ")
    .replace(/\s+/g, " ")
    .trim();
  if (title !== "" && !text.startsWith(title)) return d;
  const { title: _dropped, ...meta } = d.meta;
  return { ...d, meta };
}

/** The listing's free-text fields through the same redactor as the transcript. */
async function redactListing(d: Discovered, options: RedactOptions): Promise<Discovered> {
  const fields = [d.path, d.meta.title ?? "", d.meta.cwd ?? "", d.meta.git_branch ?? ""];
  const [path, title, cwd, branch] = await redactTexts(fields, options);
  const meta = { ...d.meta };
  if (meta.title !== undefined && title !== undefined) meta.title = title;
  if (meta.cwd !== undefined && cwd !== undefined) meta.cwd = cwd;
  if (meta.git_branch !== undefined && branch !== undefined) meta.git_branch = branch;
  // The fingerprint's local file paths stay here: the archive keeps a hash of it (push.ts).
  return { ...d, path: path ?? d.path, meta, fingerprint: { files: [] } };
}

/**
 * The session cut to `level` and, unless `redaction` is undefined,
 * redacted: nothing above the level, and no secret the redactor finds,
 * is in what this returns.
 */
export async function outgoing(
  discovered: Discovered,
  transcript: Transcript<Common>,
  level: ContentLevel,
  redaction: RedactOptions | undefined,
): Promise<Outgoing> {
  let t: Transcript<Common> =
    level === "full"
      ? transcript
      : {
          meta: transcript.meta,
          body: transcript.body.map((m) => ({ ...m, content: m.content.map(withoutToolOutput) })),
        };
  let d: Discovered = { ...discovered, fingerprint: { files: [] } };
  let redactions = 0;
  if (redaction !== undefined) {
    // At `metadata` no message leaves the machine: only the listing needs the redactor.
    if (level !== "metadata") {
      const r = await redact(t, redaction);
      t = r.transcript;
      redactions = r.count;
    }
    d = await redactListing(d, redaction);
  }
  const at = updatedMs(discovered);
  const usage = usageRowsOf(t, at);
  switch (level) {
    case "full":
      return { discovered: d, transcript: t, chunks: chunksOf(t, at), usage, redactions };
    case "no-tool-output":
      return {
        discovered: d,
        transcript: t,
        chunks: chunksOf(t, at).filter((c) => c.kind !== "tool_output"),
        usage,
        redactions,
      };
    case "metadata":
      return {
        discovered: withoutPromptTitle(d, discovered.meta.title, transcript),
        transcript: undefined,
        chunks: [],
        usage,
        redactions,
      };
    default:
      return level satisfies never;
  }
}
