/**
 * Which folder a desktop chat belongs to (docs/formats/cursor.md,
 * "Workspaces"): each `workspaceStorage/<hash>/` holds `workspace.json`,
 * `{"folder": "file:///…"}` for a folder window (a multi-root window's
 * `{"workspace": "file:///….code-workspace"}` names no one folder), and its
 * `state.vscdb` lists the window's composers under `composer.composerData`.
 * A chat whose own records name no folder takes its workspace's. Read-only;
 * anything missing or malformed names no folder.
 */

import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { isJsonObject } from "../../common.js";
import { jsonFromText } from "../../json.js";
import { workspaceComposers } from "./store-desktop.js";

const WORKSPACE_JSON = "workspace.json";

/** A `file://` URI as a path; undefined for any other scheme (a remote window's). */
export function folderPath(uri: string): string | undefined {
  if (!uri.startsWith("file://")) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}

/** The folder of the workspace whose database this is, from the `workspace.json` beside it. */
export function workspaceFolder(db: string): string | undefined {
  let value: unknown;
  try {
    value = jsonFromText(readFileSync(join(dirname(db), WORKSPACE_JSON), "utf8"));
  } catch {
    return undefined;
  }
  return isJsonObject(value) && typeof value.folder === "string"
    ? folderPath(value.folder)
    : undefined;
}

/** Composer id to its workspace's folder, over the workspace databases (the first to list one wins). */
export function composerFolders(workspaces: readonly string[]): Map<string, string> {
  const folders = new Map<string, string>();
  for (const db of workspaces) {
    const folder = workspaceFolder(db);
    if (folder === undefined) continue;
    let ids: string[];
    try {
      ids = workspaceComposers(db);
    } catch {
      continue;
    }
    for (const id of ids) if (!folders.has(id)) folders.set(id, folder);
  }
  return folders;
}
