/**
 * Copilot CLI's store: `<home>/session-state/<id>/events.jsonl` beside its
 * `workspace.yaml`. Discovery and load read both (a missing or broken
 * workspace file costs only the name); save writes a new session folder,
 * each file atomically and never over another session (`copilot --resume
 * <id>` finds it there); delete refuses (the CLI also indexes sessions in
 * its own `session-store.db`).
 */

import { statSync } from "node:fs";
import { dirname, join } from "node:path";
import { isJsonObject, type JsonObject } from "../../common.js";
import { ConflictError, InvalidRequestError, NotFoundError } from "../../errors.js";
import { writeFileAtomic } from "../../fsx.js";
import { assignDefined } from "../../json.js";
import type { Lines, VerbatimLine } from "../../lines.js";
import {
  checkLinkInside,
  checkPathComponent,
  linkOutsideProblem,
  pathComponentProblem,
} from "../../paths.js";
import { compareTimestamps, normalizeTimestamp, timestampFromMillis } from "../../time.js";
import {
  type Discovered,
  type DiscoverOptions,
  type Discovery,
  type Fingerprint,
  fileStamp,
  type Saved,
  type SaveOptions,
  type Skipped,
  type Store,
  type StoreOptions,
  type Transcript,
} from "../../transcript.js";
import { countOf } from "../shared/groups.js";
import { fileFingerprint } from "../shared/probe.js";
import {
  readSessionLines,
  readSessionText,
  saveSessionFiles,
  skipReason,
} from "../shared/store-files.js";
import { deleteRefusal } from "../shared/store-read-only.js";
import { type CopilotBody, eventsOf, messageGroups, startOf } from "./body.js";
import { copilotMeta, copilotParent } from "./meta.js";
import { CopilotProbe, copilotRoot, eventFiles } from "./probe.js";
import { copilotFromLines } from "./text.js";
import { parseWorkspace, renderWorkspace } from "./workspace.js";

const WORKSPACE = "workspace.yaml";
/** A workspace file is a few hundred bytes; a bigger one is not read (the name is then the first prompt's). */
const MAX_WORKSPACE_BYTES = 1024 * 1024;

/** The `workspace.yaml` beside an events file, read tolerantly: absent, too big or broken is undefined. */
function readWorkspace(eventsPath: string): JsonObject | undefined {
  const path = join(dirname(eventsPath), WORKSPACE);
  const st = statSync(path, { throwIfNoEntry: false });
  if (st === undefined || !st.isFile() || st.size > MAX_WORKSPACE_BYTES) return undefined;
  try {
    return parseWorkspace(readSessionText("copilot", path, MAX_WORKSPACE_BYTES));
  } catch {
    return undefined;
  }
}

/** A session read from its folder: the events file (its lines over its bytes) and its workspace. */
function readSession(path: string): Transcript<CopilotBody> {
  const t = copilotFromLines(readSessionLines("copilot", path), path);
  const workspace = readWorkspace(path);
  if (workspace === undefined) return t;
  // The title is the workspace's name: the meta is read again with it.
  return {
    meta: copilotMeta(eventsOf(t.body.lines), t.meta.id, workspace),
    body: { ...t.body, workspace },
  };
}

export class CopilotStore implements Store<CopilotBody> {
  readonly harness = "copilot" as const;
  readonly roots: readonly string[];
  readonly root: string;

  constructor(options: StoreOptions = {}) {
    this.root = copilotRoot(options);
    this.roots = [this.root];
  }

  scan(): Fingerprint[] {
    return new CopilotProbe({ root: this.root }).scan();
  }

  ids(): string[] {
    return eventFiles(this.root)
      .filter(
        ({ id, path }) =>
          pathComponentProblem(id) === undefined &&
          statSync(path, { throwIfNoEntry: false })?.isFile(),
      )
      .map(({ id }) => id);
  }

  async discover(options: DiscoverOptions = {}): Promise<Discovery> {
    const skipped: Skipped[] = [];
    const sessions: Discovered[] = [];
    const files = eventFiles(this.root).filter(({ path }) =>
      statSync(path, { throwIfNoEntry: false })?.isFile(),
    );
    files.forEach(({ id, path }, i) => {
      options.onProgress?.(i, files.length);
      if (options.paths !== undefined && !options.paths.has(path)) return;
      try {
        const outside = linkOutsideProblem(this.root, path);
        if (outside) {
          skipped.push({ path, reason: outside });
          return;
        }
        const t = readSession(path);
        if (t.meta.id !== id) {
          skipped.push({
            path,
            reason: `its session.start names ${JSON.stringify(t.meta.id)}, not its folder ${id}`,
          });
          return;
        }
        const events = eventsOf(t.body.lines);
        const st = statSync(path);
        let updated = t.meta.timestamp;
        for (const e of events) {
          const ts = e.timestamp !== undefined ? normalizeTimestamp(e.timestamp) : undefined;
          if (ts !== undefined && compareTimestamps(ts, updated) > 0) updated = ts;
        }
        const found: Discovered = {
          harness: "copilot",
          id,
          path,
          meta: t.meta,
          updated: updated ?? timestampFromMillis(st.mtimeMs),
          message_count: countOf(messageGroups(events)),
          fingerprint: { files: [fileStamp(path, st)] },
          lane: "main",
        };
        assignDefined(found, "parent_id", copilotParent(events));
        sessions.push(found);
      } catch (cause) {
        skipped.push({ path, reason: skipReason(cause) });
      }
    });
    options.onProgress?.(files.length, files.length);
    return { sessions, skipped };
  }

  private pathOf(id: string): string | undefined {
    return eventFiles(this.root).find((f) => f.id === id)?.path;
  }

  load(id: string): Transcript<CopilotBody> {
    checkPathComponent(id, "copilot");
    const path = this.pathOf(id);
    if (path === undefined || !statSync(path, { throwIfNoEntry: false })?.isFile())
      throw new NotFoundError("copilot", `no Copilot CLI session ${id} under ${this.root}`);
    checkLinkInside(this.root, path, "copilot");
    return readSession(path);
  }

  fingerprint(id: string): Fingerprint | undefined {
    if (pathComponentProblem(id)) return undefined;
    return fileFingerprint(this.pathOf(id));
  }

  save(transcript: Transcript<CopilotBody>, options: SaveOptions = {}): Saved {
    const { lines } = transcript.body;
    const start = startOf(eventsOf(lines));
    if (start === undefined)
      throw new InvalidRequestError(
        "copilot",
        "cannot save: the first event is not Copilot CLI's session.start with a sessionId",
      );
    const id = checkPathComponent(String(start.data.sessionId), "copilot");
    if (typeof start.data.copilotVersion !== "string")
      throw new InvalidRequestError(
        "copilot",
        `cannot save session ${id}: its session.start has no copilotVersion, and Copilot CLI refuses such a session as corrupted`,
      );
    const existing = this.pathOf(id);
    const there =
      existing !== undefined && statSync(existing, { throwIfNoEntry: false }) !== undefined;
    if (there && !options.overwrite)
      throw new ConflictError(
        "copilot",
        `session ${id} already exists (use overwrite to replace it)`,
        { file: existing },
      );
    const dir = join(this.root, "session-state", id);
    const path = join(dir, "events.jsonl");
    const workspace: JsonObject = isJsonObject(transcript.body.workspace)
      ? { ...transcript.body.workspace }
      : {};
    workspace.id = id;
    if (typeof workspace.cwd !== "string") assignDefined(workspace, "cwd", transcript.meta.cwd);
    return saveSessionFiles("copilot", id, path, { root: this.root, dir }, () => {
      const exclusive = !there;
      // The workspace first: a folder is a session once its events file is there.
      writeFileAtomic(join(dir, WORKSPACE), renderWorkspace(workspace), { exclusive });
      writeFileAtomic(path, endedLines(lines), { exclusive });
      return [path, join(dir, WORKSPACE)];
    });
  }

  delete(): string[] {
    throw deleteRefusal("copilot", "Copilot CLI sessions");
  }
}

/** The events file a line at a time (never one joined string), ending in a newline as Copilot CLI appends. */
function* endedLines(lines: Lines): Generator<string> {
  // The last line is the one walked last: lines made as they are written are never gathered.
  let last: VerbatimLine | undefined;
  for (const line of lines) {
    last = line;
    yield line.text + line.eol;
  }
  if (last !== undefined && last.eol === "" && last.text !== "") yield "\n";
}
