/**
 * pi's store: `<sessions>/--<cwd>--/<time>_<id>.jsonl`, one file per
 * session (flat in the sessions folder when pi's session dir is overridden).
 * Discovery reads each file's header and active branch; load reads one file
 * verbatim; save writes a new file atomically where pi looks for the
 * session's project (`pi --session <id>` run there finds it), never over
 * another; delete removes the file, contained in the root.
 */

import { lstatSync, statSync, unlinkSync } from "node:fs";
import { basename, isAbsolute, join, resolve } from "node:path";
import { isJsonObject, type JsonObject } from "../../common.js";
import { ConflictError, InvalidRequestError, NotFoundError } from "../../errors.js";
import { writeFileAtomic } from "../../fsx.js";
import { assignDefined } from "../../json.js";
import { linePieces, type VerbatimLine } from "../../lines.js";
import {
  checkLinkInside,
  checkPathComponent,
  linkOutsideProblem,
  pathComponentProblem,
  realPathInside,
} from "../../paths.js";
import {
  compareTimestamps,
  type Timestamp,
  timestampFromMillis,
  timestampMillis,
} from "../../time.js";
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
import { OneRootStore } from "../shared/one-root.js";
import { fileFingerprint, stampFiles } from "../shared/probe.js";
import {
  readSessionLines,
  saveSessionFiles,
  sessionIdProblem,
  skipReason,
} from "../shared/store-files.js";
import { commonEntries, entriesOf, headerOf, idFromFileName, type PiBody } from "./body.js";
import { piTime } from "./meta.js";
import { piRoot, sessionPaths } from "./probe.js";
import { piFromLines } from "./text.js";

/** pi's folder name for a project (`getDefaultSessionDir`): `--<cwd, / \ : as ->--`. */
function projectFolder(cwd: string): string {
  return `--${cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`;
}

/** pi's last activity: the latest user or assistant message time (`getLastActivityTime`). */
function lastActivity(entries: Iterable<JsonObject>): Timestamp | undefined {
  let last: Timestamp | undefined;
  for (const e of entries) {
    if (e.type !== "message" || !isJsonObject(e.message)) continue;
    const role = e.message.role;
    if (role !== "user" && role !== "assistant") continue;
    const t = piTime(e.message.timestamp) ?? piTime(e.timestamp);
    if (t !== undefined && (last === undefined || compareTimestamps(t, last) > 0)) last = t;
  }
  return last;
}

export class PiStore extends OneRootStore implements Store<PiBody> {
  readonly harness = "pi" as const;
  /** pi writes every session straight into the root (a session dir override). */
  readonly flat: boolean;

  constructor(options: StoreOptions = {}) {
    const { root, flat } = piRoot(options);
    super(root);
    this.flat = flat;
  }

  scan(): Fingerprint[] {
    return stampFiles(this.paths());
  }

  private paths(): string[] {
    return sessionPaths(this.root);
  }

  ids(): string[] {
    const ids = new Set<string>();
    for (const p of this.paths()) {
      const id = idFromFileName(basename(p));
      if (id !== undefined) ids.add(id);
    }
    return [...ids].sort();
  }

  private read(path: string): Transcript<PiBody> {
    // Bytes, never one string: a line is decoded when it is read.
    return piFromLines(readSessionLines("pi", path), path);
  }

  async discover(options: DiscoverOptions = {}): Promise<Discovery> {
    const skipped: Skipped[] = [];
    const paths = this.paths().filter((p) => options.paths === undefined || options.paths.has(p));
    const byId = new Map<string, Discovered>();
    paths.forEach((path, i) => {
      options.onProgress?.(i, paths.length);
      try {
        const outside = linkOutsideProblem(this.root, path);
        if (outside) {
          skipped.push({ path, reason: outside });
          return;
        }
        const t = this.read(path);
        const problem = sessionIdProblem(t.meta.id);
        if (problem) {
          skipped.push({ path, reason: problem });
          return;
        }
        const entries = entriesOf(t.body.lines);
        const st = statSync(path);
        const found: Discovered = {
          harness: "pi",
          id: t.meta.id,
          path,
          meta: t.meta,
          updated: lastActivity(entries) ?? t.meta.timestamp ?? timestampFromMillis(st.mtimeMs),
          message_count: countOf(commonEntries(t.body.lines)),
          fingerprint: { files: [fileStamp(path, st)] },
          lane: "main",
        };
        // A fork (`/fork`, `/clone`, `--fork`) names the file it came from.
        const parent = headerOf(entries)?.parentSession;
        if (typeof parent === "string")
          assignDefined(found, "forked_from", idFromFileName(basename(parent)));
        const prior = byId.get(found.id);
        if (prior === undefined || compareTimestamps(found.updated, prior.updated) > 0) {
          if (prior) skipped.push({ path: prior.path, reason: `older copy of ${found.id}` });
          byId.set(found.id, found);
        } else skipped.push({ path, reason: `older copy of ${found.id}` });
      } catch (cause) {
        skipped.push({ path, reason: skipReason(cause) });
      }
    });
    options.onProgress?.(paths.length, paths.length);
    return { sessions: [...byId.values()], skipped };
  }

  /** The files named for session `id`, the most recently active first. */
  private locate(id: string): string[] {
    const all = this.paths().filter((p) => idFromFileName(basename(p)) === id);
    if (all.length <= 1) return all;
    const updated = (p: string) => {
      try {
        return lastActivity(entriesOf(this.read(p).body.lines)) ?? "";
      } catch {
        return "";
      }
    };
    return all
      .map((p) => ({ p, u: updated(p) }))
      .sort((a, b) =>
        a.u === b.u ? 0 : a.u === "" ? 1 : b.u === "" ? -1 : compareTimestamps(b.u, a.u),
      )
      .map((x) => x.p);
  }

  load(id: string): Transcript<PiBody> {
    checkPathComponent(id, "pi");
    const path = this.locate(id)[0];
    if (path === undefined) throw new NotFoundError("pi", `no pi session ${id} under ${this.root}`);
    checkLinkInside(this.root, path, "pi");
    return this.read(path);
  }

  save(transcript: Transcript<PiBody>, options: SaveOptions = {}): Saved {
    const lines = transcript.body.lines;
    const entries = entriesOf(lines);
    const header = headerOf(entries);
    if (header === undefined)
      throw new InvalidRequestError("pi", "cannot save: the session has no pi session header");
    const id = checkPathComponent(String(header.id), "pi");
    const cwd =
      typeof header.cwd === "string" && header.cwd !== "" ? header.cwd : transcript.meta.cwd;
    if (cwd === undefined || !isAbsolute(cwd)) {
      throw new InvalidRequestError(
        "pi",
        `cannot save session ${id}: pi keeps sessions per project directory, and the session names ${cwd === undefined || cwd === "" ? "none" : `a relative one (${cwd})`}`,
      );
    }
    const existing = this.locate(id);
    if (existing.length > 0 && !options.overwrite) {
      throw new ConflictError("pi", `session ${id} already exists (use overwrite to replace it)`, {
        file: existing[0],
      });
    }
    const dir = this.flat
      ? this.root
      : join(this.root, checkPathComponent(projectFolder(cwd), "pi"));
    const started = piTime(header.timestamp) ?? transcript.meta.timestamp;
    const stamp = new Date(timestampMillis(started)).toISOString().replace(/[:.]/g, "-");
    const path = join(dir, `${stamp}_${id}.jsonl`);
    return saveSessionFiles("pi", id, path, { root: this.root, dir }, () => {
      const replacing = existing.some((p) => resolve(p) === resolve(path));
      writeFileAtomic(path, linePieces(withEol(lines)), { exclusive: !replacing });
      for (const old of existing)
        if (resolve(old) !== resolve(path)) unlinkSync(realPathInside(this.root, old, "pi"));
      return [path];
    });
  }

  delete(id: string): string[] {
    checkPathComponent(id, "pi");
    const all = this.locate(id);
    if (all.length === 0) throw new NotFoundError("pi", `no pi session ${id} under ${this.root}`);
    // Every target checked before any is removed, so a refusal removes nothing.
    const targets = all.map((p) => {
      const real = realPathInside(this.root, p, "pi");
      return lstatSync(p).isSymbolicLink() ? p : real;
    });
    for (const t of targets) unlinkSync(t);
    return targets;
  }

  fingerprint(id: string): Fingerprint | undefined {
    if (pathComponentProblem(id)) return undefined;
    return fileFingerprint(this.locate(id)[0]);
  }
}

/** pi appends `JSON + "\n"` to the file: a last line without its newline would join the next. */
function* withEol(lines: PiBody["lines"]): Generator<VerbatimLine> {
  // One line behind, so the last is known without counting (lines made as they are written are never gathered).
  let held: VerbatimLine | undefined;
  for (const line of lines) {
    if (held !== undefined) yield held;
    held = line;
  }
  if (held !== undefined) yield held.eol === "" ? { ...held, eol: "\n" } : held;
}
