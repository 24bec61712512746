/**
 * OpenCode's JSON layout before 1.2, read only: `storage/session/<project>/<id>.json`,
 * `storage/message/<session>/<id>.json`, `storage/part/<message>/<id>.json`
 * under the data directory. A session reads as the rows OpenCode's own JSON
 * migration would insert; deleting removes its files, contained in the root.
 */

import {
  type Dirent,
  existsSync,
  lstatSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
} from "node:fs";
import { join } from "node:path";
import { isJsonObject, type JsonObject } from "../../../common.js";
import { describeCause, errnoCode, StoreError } from "../../../errors.js";
import { realPathInside } from "../../../paths.js";
import { type Fingerprint, fileStamp, type Skipped } from "../../../transcript.js";
import { type OpenCodeBody, type OpenCodeMessage, type Row, text } from "./body.js";
import type { OpenCodePlace } from "./flavor.js";
import { STORAGE_DIR } from "./probe.js";
import { compare, sessionRow } from "./text.js";

/** The biggest legacy JSON file read; larger ones are skipped as damaged. */
const MAX_JSON_BYTES = 64 * 1024 * 1024;

export interface LegacyFile {
  path: string;
  project: string;
  id: string;
}

/** The legacy session files under `root`, sorted; folders that cannot be listed reported. */
export function legacyFiles(root: string, onUnreadable?: (s: Skipped) => void): LegacyFile[] {
  const dir = join(root, STORAGE_DIR, "session");
  const files: LegacyFile[] = [];
  const list = (d: string): Dirent[] => {
    try {
      return readdirSync(d, { withFileTypes: true }).sort((a, b) => compare(a.name, b.name));
    } catch (cause) {
      const code = errnoCode(cause);
      if (code !== "ENOENT" && code !== "ENOTDIR")
        onUnreadable?.({ path: d, reason: `cannot list: ${describeCause(cause)}` });
      return [];
    }
  };
  for (const project of list(dir)) {
    if (!project.isDirectory()) continue;
    for (const f of list(join(dir, project.name))) {
      if (!f.isFile() || !f.name.endsWith(".json")) continue;
      const id = f.name.slice(0, -".json".length);
      if (!id.startsWith("ses")) continue;
      files.push({ path: join(dir, project.name, f.name), project: project.name, id });
    }
  }
  return files;
}

function readJson(path: string): JsonObject | undefined {
  try {
    if (statSync(path).size > MAX_JSON_BYTES) return undefined;
    const value: unknown = JSON.parse(readFileSync(path, "utf8"));
    return isJsonObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A legacy session as the rows OpenCode's JSON migration would insert
 * (packages/opencode/src/storage/json-migration.ts): ids from file names,
 * the session from its file, messages and parts without their id fields.
 * Unreadable message and part files are skipped, as the migration does.
 */
export function loadLegacy(place: OpenCodePlace, root: string, file: LegacyFile): OpenCodeBody {
  const info = readJson(file.path);
  if (info === undefined)
    throw new StoreError(place.harness, `not a readable ${place.name} session file`, {
      file: file.path,
    });
  const session = sessionRow(info, file.id);
  session.project_id = file.project;
  const storage = join(root, STORAGE_DIR);
  const names = (d: string) => {
    try {
      return readdirSync(d)
        .filter((n) => n.endsWith(".json"))
        .sort(compare);
    } catch {
      return [];
    }
  };
  const strip = (o: Record<string, unknown>, keys: string[]) => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(o)) if (!keys.includes(k)) out[k] = v;
    return JSON.stringify(out);
  };
  const messages: OpenCodeMessage[] = [];
  for (const name of names(join(storage, "message", file.id))) {
    const mid = name.slice(0, -5);
    const data = readJson(join(storage, "message", file.id, name));
    if (data === undefined) continue;
    const time = isJsonObject(data.time) ? data.time : {};
    const created = typeof time.created === "number" ? time.created : 0;
    const row: Row = {
      id: mid,
      session_id: file.id,
      time_created: created,
      time_updated: typeof time.updated === "number" ? time.updated : created,
      data: strip(data, ["id", "sessionID"]),
    };
    const parts: Row[] = [];
    for (const pname of names(join(storage, "part", mid))) {
      const pdata = readJson(join(storage, "part", mid, pname));
      if (pdata === undefined) continue;
      const ptime = isJsonObject(pdata.time) ? pdata.time : {};
      parts.push({
        id: pname.slice(0, -5),
        message_id: mid,
        session_id: file.id,
        time_created: typeof ptime.start === "number" ? ptime.start : created,
        time_updated: typeof ptime.end === "number" ? ptime.end : created,
        data: strip(pdata, ["id", "sessionID", "messageID"]),
      });
    }
    messages.push({ row, parts });
  }
  messages.sort(
    (a, b) =>
      Number(a.row.time_created) - Number(b.row.time_created) ||
      compare(String(a.row.id), String(b.row.id)),
  );
  return { session, messages };
}

/** Every file of a legacy session, stat'ed. */
export function legacyFingerprint(root: string, file: LegacyFile, body: OpenCodeBody): Fingerprint {
  const storage = join(root, STORAGE_DIR);
  const paths = [file.path];
  for (const m of body.messages) {
    const mid = text(m.row, "id") ?? "";
    paths.push(join(storage, "message", file.id, `${mid}.json`));
    for (const p of m.parts) paths.push(join(storage, "part", mid, `${text(p, "id")}.json`));
  }
  const files: Fingerprint["files"] = [];
  for (const path of paths) {
    try {
      const st = statSync(path);
      files.push(fileStamp(path, st));
    } catch {
      // Gone since the listing: the next fingerprint differs anyway.
    }
  }
  return { files };
}

// -------------------------------------------------------------------------
// Writing

/** Remove a legacy session's files (its parts and messages folders, then its file). */
export function deleteLegacy(place: OpenCodePlace, root: string, file: LegacyFile): string[] {
  const storage = join(root, STORAGE_DIR);
  const body = loadLegacy(place, root, file);
  const targets: string[] = [];
  for (const m of body.messages) {
    const partDir = join(storage, "part", text(m.row, "id") ?? "");
    if (existsSync(partDir)) targets.push(realPathInside(root, partDir, place.harness));
  }
  const messageDir = join(storage, "message", file.id);
  if (existsSync(messageDir)) targets.push(realPathInside(root, messageDir, place.harness));
  const sessionFile = lstatSync(file.path).isSymbolicLink()
    ? file.path
    : realPathInside(root, file.path, place.harness);
  for (const t of targets) rmSync(t, { recursive: true, force: true });
  unlinkSync(sessionFile);
  return [sessionFile, ...targets];
}
