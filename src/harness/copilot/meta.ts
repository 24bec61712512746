/**
 * A Copilot CLI session's metadata in Common terms. Pure; shared by the
 * codec, the text codec and the store.
 */

import type { Json, JsonObject, Meta } from "../../common.js";
import { assignDefined } from "../../json.js";
import { firstPromptTitle } from "../../strings.js";
import { EPOCH, normalizeTimestamp } from "../../time.js";
import { obj, str } from "../shared/fields.js";
import { type CopilotEvent, startOf } from "./body.js";

/**
 * Header `session.start` (id, start, cwd, CLI version); title = the
 * workspace's `name` (what the CLI shows: the first prompt, a generated or
 * a user-given name), else the first prompt; first model.
 */
export function copilotMeta(
  events: Iterable<CopilotEvent>,
  fallbackId = "",
  workspace?: JsonObject,
): Meta {
  const start = startOf(events);
  const data = start?.data;
  const meta: Meta = {
    id: str(data, "sessionId") ?? fallbackId,
    timestamp:
      normalizeTimestamp(str(data, "startTime") ?? "") ??
      normalizeTimestamp(start?.timestamp ?? "") ??
      EPOCH,
  };
  const cwd = str(obj(data, "context"), "cwd");
  if (cwd) meta.cwd = cwd;
  const branch = str(obj(data, "context"), "branch");
  if (branch) meta.git_branch = branch;
  const version = str(data, "copilotVersion");
  if (version) meta.cli_version = version;
  const named = str(workspace, "name");
  const title =
    (named?.trim() ? named : undefined) ??
    firstPromptTitle(
      (function* () {
        for (const e of events)
          if (e.type === "user.message" && e.agentId === undefined)
            yield [str(e.data, "content") ?? ""];
      })(),
    );
  assignDefined(meta, "title", title);
  let model: Json | undefined;
  for (const e of events) {
    if (e.type === "assistant.message" && e.agentId === undefined && str(e.data, "model")) {
      model = e.data.model;
      break;
    }
  }
  model ??= str(data, "selectedModel");
  if (typeof model === "string" && model !== "") meta.model = model;
  return meta;
}

/** The session this one continues (`session.start`'s `detachedFromSpawningParentSessionId`). */
export function copilotParent(events: Iterable<CopilotEvent>): string | undefined {
  const parent = str(startOf(events)?.data, "detachedFromSpawningParentSessionId");
  return parent === "" ? undefined : parent;
}
