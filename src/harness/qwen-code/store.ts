/**
 * Qwen Code's store: `<qwen>/projects/<sanitized cwd>/chats/<id>.jsonl`
 * (probe.ts says where `<qwen>` is). Discovery reads each file's records
 * (no conversion); load and save move the file's exact bytes; save writes
 * into the folder the CLI looks in for the session's cwd, which is where
 * `qwen --resume <id>` finds it.
 */

import { join } from "node:path";
import { checkLinkInside, checkPathComponent, pathComponentProblem } from "../../paths.js";
import {
  compareTimestamps,
  normalizeTimestamp,
  type Timestamp,
  timestampFromMillis,
} from "../../time.js";
import {
  type DiscoverOptions,
  type Discovery,
  type Fingerprint,
  fileStamp,
  type Saved,
  type SaveOptions,
  type Store,
  type StoreOptions,
  type Transcript,
} from "../../transcript.js";
import { str } from "../shared/fields.js";
import { OneRootStore } from "../shared/one-root.js";
import { fileFingerprint } from "../shared/probe.js";
import {
  discoverFiles,
  newestFirst,
  noSession,
  readSessionLines,
  removeSessionFiles,
  saveJsonlSession,
  sessionCwd,
} from "../shared/store-files.js";
import { activeChain, asRecord, countMessages, parsedLines, type QwenBody } from "./body.js";
import {
  CHATS,
  chatDirs,
  PROJECTS,
  projectId,
  QwenCodeProbe,
  qwenCodeRoot,
  SESSION_SUFFIX,
  sessionNames,
} from "./probe.js";
import { qwenFromLines } from "./text.js";

/** The recording's lines over its bytes; bad UTF-8 is read as U+FFFD, as it always was here. */
function read(path: string): Transcript<QwenBody> {
  return qwenFromLines(readSessionLines("qwen_code", path, undefined, "replace"), path);
}

export class QwenCodeStore extends OneRootStore implements Store<QwenBody> {
  readonly harness = "qwen_code" as const;

  constructor(options: StoreOptions = {}) {
    super(qwenCodeRoot(options));
  }

  /** Every file holding session `id`, most recently modified first. */
  private filesFor(id: string): string[] {
    checkPathComponent(id, "qwen_code");
    return newestFirst(chatDirs(this.root).map((dir) => join(dir, id + SESSION_SUFFIX)));
  }

  ids(): string[] {
    const ids = new Set<string>();
    for (const dir of chatDirs(this.root)) {
      for (const name of sessionNames(dir)) {
        const id = name.slice(0, -SESSION_SUFFIX.length);
        if (pathComponentProblem(id) === undefined) ids.add(id);
      }
    }
    return [...ids].sort();
  }

  async discover(options: DiscoverOptions = {}): Promise<Discovery> {
    const files = chatDirs(this.root).flatMap((dir) =>
      sessionNames(dir)
        .map((name) => join(dir, name))
        .filter((path) => !options.paths || options.paths.has(path)),
    );
    return discoverFiles(
      this.root,
      files,
      SESSION_SUFFIX,
      (path, id, st) => {
        const { meta, body } = read(path);
        const count = countMessages(activeChain(body.lines));
        if (count === 0) return undefined; // bookkeeping only: no conversation
        let updated: Timestamp | undefined;
        for (const record of parsedLines(body.lines)) {
          const raw = str(asRecord(record)?.raw, "timestamp");
          const ts = raw === undefined ? undefined : normalizeTimestamp(raw);
          if (ts !== undefined && (updated === undefined || compareTimestamps(ts, updated) > 0))
            updated = ts;
        }
        return {
          harness: "qwen_code",
          id,
          path,
          // The CLI names a session by its file: that is the id resume takes.
          meta: { ...meta, id },
          updated: updated ?? timestampFromMillis(Math.floor(st.mtimeMs)),
          message_count: count,
          fingerprint: { files: [fileStamp(path, st)] },
        };
      },
      options,
    );
  }

  load(id: string): Transcript<QwenBody> {
    const path = this.filesFor(id)[0];
    if (path === undefined) throw noSession("qwen_code", "Qwen Code", id, this.root);
    checkLinkInside(this.root, path, "qwen_code");
    const transcript = read(path);
    return { meta: { ...transcript.meta, id }, body: transcript.body };
  }

  save(transcript: Transcript<QwenBody>, options: SaveOptions = {}): Saved {
    const id = checkPathComponent(transcript.meta.id, "qwen_code");
    const lines = transcript.body.lines;
    let recorded: string | undefined;
    for (const r of parsedLines(lines)) {
      recorded = str(r, "cwd") || undefined;
      if (recorded !== undefined) break;
    }
    const cwd = sessionCwd("qwen_code", "Qwen Code", id, [recorded], transcript.meta.cwd);
    const dir = join(this.root, PROJECTS, projectId(cwd), CHATS);
    const path = join(dir, id + SESSION_SUFFIX);
    return saveJsonlSession(
      "qwen_code",
      id,
      { root: this.root, dir, path },
      lines,
      options.overwrite === true,
      () => this.filesFor(id)[0],
    );
  }

  delete(id: string): string[] {
    const paths = this.filesFor(id);
    if (paths.length === 0) throw noSession("qwen_code", "Qwen Code", id, this.root);
    return removeSessionFiles("qwen_code", this.root, paths);
  }

  scan(): Fingerprint[] {
    return new QwenCodeProbe({ root: this.root }).scan();
  }

  fingerprint(id: string): Fingerprint | undefined {
    return fileFingerprint(this.filesFor(id)[0]);
  }
}
