/**
 * A desktop editor chat's metadata in Common terms (docs/formats/cursor.md,
 * "Desktop chats"), and the bubble rules the codec and the store share.
 * Pure: the store lists chats with it without converting their messages.
 */

import type { Json, JsonObject, Meta } from "../../common.js";
import { EPOCH, normalizeTimestamp, type Timestamp } from "../../time.js";
import { obj, str } from "../shared/fields.js";
import { type CursorDesktopBody, desktopBubbles } from "./body.js";
import { cursorTime } from "./meta.js";

/** A desktop time: epoch milliseconds, or RFC 3339 text (bubble `createdAt`, `_v` 3). */
export function desktopTime(value: Json | undefined): Timestamp | undefined {
  if (typeof value === "string") return normalizeTimestamp(value);
  return cursorTime(value);
}

/** A bubble's role: `type` 1/2 (or the older `"user"`/`"ai"`, or `role`); undefined for any other. */
export function bubbleRole(bubble: JsonObject): "user" | "assistant" | undefined {
  const t = bubble.type ?? bubble.role;
  if (t === 1 || t === "user" || t === "human") return "user";
  if (t === 2 || t === "ai" || t === "assistant" || t === "bot") return "assistant";
  return undefined;
}

/** The model picker's placeholder, not a model. */
const PLACEHOLDER_MODEL = "default";

function modelName(value: string | undefined): string | undefined {
  return value && value !== PLACEHOLDER_MODEL ? value : undefined;
}

export function bubbleModel(bubble: JsonObject): string | undefined {
  return modelName(str(obj(bubble, "modelInfo"), "modelName") ?? str(bubble, "model"));
}

export function bubbleText(bubble: JsonObject): string {
  return (
    str(bubble, "text") ||
    str(bubble, "rawText") ||
    str(bubble, "content") ||
    str(bubble, "message") ||
    ""
  );
}

/** The header row's `value` document (`{"type":"head",...}`), when it has one. */
function headValue(body: CursorDesktopBody): JsonObject {
  return obj(body.header, "value") ?? {};
}

function fsPath(uri: JsonObject | undefined): string | undefined {
  return str(obj(uri, "uri"), "fsPath") || undefined;
}

/** A desktop chat's metadata: the header row first, then the document, then the bubbles. */
export function desktopMeta(body: CursorDesktopBody, fallbackId = ""): Meta {
  const head = headValue(body);
  const c = body.composer;
  const bubbles = desktopBubbles(body);
  const first = bubbles.find((b) => desktopTime(b.createdAt ?? b.timestamp) !== undefined);
  const meta: Meta = {
    id: str(body.header, "composerId") || str(c, "composerId") || str(c, "tabId") || fallbackId,
    timestamp:
      desktopTime(body.header.createdAt) ??
      desktopTime(c.createdAt) ??
      desktopTime(c.lastSendTime) ??
      desktopTime(first?.createdAt ?? first?.timestamp) ??
      EPOCH,
  };
  const title = str(head, "name") || str(c, "name") || str(c, "chatTitle") || str(head, "subtitle");
  if (title) meta.title = title;
  const repos = Array.isArray(head.trackedGitRepos) ? head.trackedGitRepos : c.trackedGitRepos;
  const repo = Array.isArray(repos) ? obj(repos[0]) : undefined;
  const cwd =
    fsPath(obj(head, "workspaceIdentifier")) ??
    fsPath(obj(c, "workspaceIdentifier")) ??
    fsPath(obj(obj(head, "agentLocation"), "environment")) ??
    (str(repo, "repoPath") || undefined) ??
    (body.folder || undefined);
  if (cwd) meta.cwd = cwd;
  const model =
    modelName(str(obj(c, "modelConfig"), "modelName")) ??
    bubbles.map(bubbleModel).find((m) => m !== undefined);
  if (model) meta.model = model;
  return meta;
}

/** The last time a desktop chat changed, when it records one. */
export function desktopUpdated(body: CursorDesktopBody): Timestamp | undefined {
  const last = desktopBubbles(body).at(-1);
  return (
    desktopTime(body.header.lastUpdatedAt) ??
    desktopTime(body.composer.lastUpdatedAt) ??
    desktopTime(last?.createdAt ?? last?.timestamp)
  );
}
