/**
 * Copilot CLI's store, read-only: `<home>/session-state/<id>/events.jsonl`.
 * Discovery and load read each events file; save and delete refuse in one
 * line (see `WRITE_REFUSAL`).
 */

import { statSync } from "node:fs";
import { NotFoundError, UnsupportedError } from "../../errors.js";
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
  type Skipped,
  type Store,
  type StoreOptions,
  type Transcript,
} from "../../transcript.js";
import { fileFingerprint } from "../shared/probe.js";
import { readSessionText, skipReason } from "../shared/store-files.js";
import { deleteRefusal } from "../shared/store-read-only.js";
import { type CopilotBody, eventsOf, messageGroups } from "./body.js";
import { CopilotProbe, copilotRoot, eventFiles } from "./probe.js";
import { parseCopilot } from "./text.js";

const WRITE_REFUSAL =
  "txcript reads Copilot CLI sessions but does not write them yet: no written session has been shown to resume in the real CLI";

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
        const t = parseCopilot(readSessionText("copilot", path), path);
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
        sessions.push({
          harness: "copilot",
          id,
          path,
          meta: t.meta,
          updated: updated ?? timestampFromMillis(st.mtimeMs),
          message_count: messageGroups(events).length,
          fingerprint: { files: [fileStamp(path, st)] },
          lane: "main",
        });
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
    return parseCopilot(readSessionText("copilot", path), path);
  }

  fingerprint(id: string): Fingerprint | undefined {
    if (pathComponentProblem(id)) return undefined;
    return fileFingerprint(this.pathOf(id));
  }

  save(): Saved {
    throw new UnsupportedError("copilot", WRITE_REFUSAL);
  }

  delete(): string[] {
    throw deleteRefusal("copilot", "Copilot CLI sessions");
  }
}
