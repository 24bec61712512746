/**
 * A pi session's metadata in Common terms, and pi's two time forms. Pure;
 * shared by the codec, the text codec and the store (which lists sessions
 * without converting their messages).
 */

import type { Json, Meta } from "../../common.js";
import { assignDefined } from "../../json.js";
import { firstPromptTitle } from "../../strings.js";
import { EPOCH, normalizeTimestamp, type Timestamp, timestampFromMillis } from "../../time.js";
import { str } from "../shared/fields.js";
import {
  type Branch,
  branchOf,
  commonMessage,
  entriesOf,
  firstModel,
  headerOf,
  type Lines,
  userText,
} from "./body.js";

/** pi's time forms: ISO text (entries) or epoch milliseconds (messages). */
export function piTime(value: Json | undefined): Timestamp | undefined {
  if (typeof value === "string") return normalizeTimestamp(value);
  if (typeof value === "number" && Number.isFinite(value) && Math.abs(value) < 1e15)
    return timestampFromMillis(value);
  return undefined;
}

/**
 * The session's metadata from its lines' entries (header, name, first
 * prompt, first model). `branch` is the lines' (`branchOf`), when the
 * caller walks it too.
 */
export function piMeta(lines: Lines, fallbackId = "", branch: Branch = branchOf(lines)): Meta {
  const entries = entriesOf(lines);
  const header = headerOf(entries);
  const meta: Meta = {
    id: str(header, "id") ?? fallbackId,
    timestamp: piTime(header?.timestamp) ?? EPOCH,
  };
  const cwd = str(header, "cwd");
  if (cwd) meta.cwd = cwd;
  const title =
    branch.name ??
    firstPromptTitle(
      (function* () {
        for (const e of entries) {
          const m = commonMessage(e);
          if (m?.role === "user") yield userText(m.message);
        }
      })(),
    );
  assignDefined(meta, "title", title);
  const model = firstModel(branch.entries);
  assignDefined(meta, "model", model);
  return meta;
}
