/**
 * An Amp thread's metadata in Common terms, and Amp's times. Pure; shared
 * by the codec, the text codec and the store.
 */

import { isJsonObject, type Json, type JsonObject, type Meta } from "../../common.js";
import { isUuid } from "../../id-forms.js";
import { stableUuid } from "../../ids.js";
import { EPOCH, normalizeTimestamp, type Timestamp, timestampFromMillis } from "../../time.js";
import { obj, str } from "../shared/fields.js";

/** Amp's times: epoch milliseconds (`created`, `meta.sentAt`) or RFC 3339 (`usage.timestamp`). */
export function ampTime(value: Json | undefined): Timestamp | undefined {
  if (typeof value === "number")
    return Number.isFinite(value) && Math.abs(value) < 8.64e15
      ? timestampFromMillis(Math.floor(value))
      : undefined;
  return typeof value === "string" ? normalizeTimestamp(value) : undefined;
}

/** Amp's thread ids are `T-<uuid>`; any other id becomes one, deterministically. */
export function ampThreadId(id: string): string {
  if (/^T-[0-9a-fA-F-]{36}$/.test(id)) return id;
  return `T-${isUuid(id) ? id : stableUuid("amp", id)}`;
}

/** A `file://` URI as a path (undecodable escapes kept as they are). */
function uriPath(uri: string): string {
  const path = uri.startsWith("file://") ? uri.slice("file://".length) : uri;
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** A path as the `file://` URI Amp keeps in `env.initial.trees[].uri`. */
export function pathUri(path: string): string {
  return `file://${encodeURI(path).replace(/[?#]/g, encodeURIComponent)}`;
}

/** The thread's first assistant model (`usage.model`). */
function firstModel(thread: JsonObject): string | undefined {
  const messages = Array.isArray(thread.messages) ? thread.messages : [];
  for (const m of messages) {
    if (!isJsonObject(m) || m.role !== "assistant") continue;
    const model = str(obj(m, "usage"), "model");
    if (model) return model;
  }
  return undefined;
}

/** The thread's metadata: id, `created`, `title`, and the first workspace tree of `env.initial`. */
export function ampMeta(thread: JsonObject, fallbackId = ""): Meta {
  const meta: Meta = {
    id: str(thread, "id") || fallbackId,
    timestamp: ampTime(thread.created) ?? EPOCH,
  };
  const initial = obj(obj(thread, "env"), "initial");
  const trees = initial?.trees;
  const tree = Array.isArray(trees) && isJsonObject(trees[0]) ? trees[0] : undefined;
  const uri = str(tree, "uri");
  if (uri) meta.cwd = uriPath(uri);
  const ref = str(obj(tree, "repository"), "ref");
  if (ref) meta.git_branch = ref.replace(/^refs\/heads\//, "");
  const title = str(thread, "title");
  if (title) meta.title = title;
  const version = str(obj(initial, "platform"), "clientVersion");
  if (version) meta.cli_version = version;
  const model = firstModel(thread);
  if (model) meta.model = model;
  return meta;
}
