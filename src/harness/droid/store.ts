/**
 * Droid's store: `<sessions>/<cwd, / as ->/<id>.jsonl`, with the session's
 * settings (token totals, model, autonomy) in `<id>.settings.json` beside it
 * (probe.ts says where `<sessions>` is). Discovery reads each file's records
 * (no conversion); load reads the session file verbatim and its settings
 * file when it is there and readable (a damaged one only loses the usage);
 * save writes both atomically into the folder Droid files the session's cwd
 * under, never over another session; delete removes a session's files,
 * contained in the root.
 */

import { basename, join } from "node:path";
import { ConflictError } from "../../errors.js";
import {
  decodeUtf8,
  mkdirInside,
  readFileCapped,
  statOrUndefined,
  writeFileAtomic,
} from "../../fsx.js";
import { assignDefined } from "../../json.js";
import { linePieces } from "../../lines.js";
import { checkLinkInside, checkPathComponent, linkOutsideProblem } from "../../paths.js";
import { timestampFromMillis } from "../../time.js";
import type {
  Discovered,
  DiscoverOptions,
  Discovery,
  Fingerprint,
  Saved,
  SaveOptions,
  Store,
  StoreOptions,
  Transcript,
} from "../../transcript.js";
import { str } from "../shared/fields.js";
import { OneRootStore } from "../shared/one-root.js";
import {
  discoverFiles,
  newestFirst,
  noSession,
  readSessionLines,
  removeSessionFiles,
  saveError,
  sessionCwd,
} from "../shared/store-files.js";
import { conversation, type DroidBody, headerOf, recordsOf } from "./body.js";
import { timeSpan } from "./meta.js";
import {
  DroidProbe,
  droidRoot,
  projectFolder,
  SESSION_SUFFIX,
  sessionPaths,
  sessionStamp,
  settingsPath,
} from "./probe.js";
import { droidFromLines } from "./text.js";

/** A settings file is small; a bigger one is not read (its usage is left out). */
const MAX_SETTINGS_BYTES = 4 * 1024 * 1024;

export class DroidStore extends OneRootStore implements Store<DroidBody> {
  readonly harness = "droid" as const;

  constructor(options: StoreOptions = {}) {
    super(droidRoot(options));
  }

  /** Every file holding session `id`, most recently modified first. */
  private filesFor(id: string): string[] {
    checkPathComponent(id, "droid");
    const name = id + SESSION_SUFFIX;
    return newestFirst(sessionPaths(this.root).filter((p) => basename(p) === name));
  }

  /** The settings text beside a session file, when it is there, inside the root and readable. */
  private settings(path: string): string | undefined {
    const file = settingsPath(path);
    if (!statOrUndefined(file)?.isFile() || linkOutsideProblem(this.root, file)) return undefined;
    try {
      return decodeUtf8(
        readFileCapped(file, MAX_SETTINGS_BYTES, "droid", "the settings"),
        file,
        "droid",
        "the settings",
      );
    } catch {
      return undefined; // the session reads without its usage
    }
  }

  private read(path: string): Transcript<DroidBody> {
    // Bytes, never one string: a line is decoded when it is read.
    return droidFromLines(readSessionLines("droid", path), path, this.settings(path));
  }

  ids(): string[] {
    const ids = new Set<string>();
    for (const p of sessionPaths(this.root)) ids.add(basename(p).slice(0, -SESSION_SUFFIX.length));
    return [...ids].sort();
  }

  async discover(options: DiscoverOptions = {}): Promise<Discovery> {
    const files = sessionPaths(this.root).filter((p) => !options.paths || options.paths.has(p));
    return discoverFiles(
      this.root,
      files,
      SESSION_SUFFIX,
      (path, id, st) => {
        const t = this.read(path);
        const records = recordsOf(t.body.lines);
        let count = 0;
        for (const _ of conversation(records)) count++;
        if (count === 0) return undefined; // started, never prompted
        const found: Discovered = {
          harness: "droid",
          id,
          path,
          meta: { ...t.meta, id },
          updated: timeSpan(records).last ?? timestampFromMillis(Math.floor(st.mtimeMs)),
          message_count: count,
          fingerprint: sessionStamp(path) ?? { files: [] },
        };
        // A fork (`droid exec --fork`) names the session it came from.
        assignDefined(found, "forked_from", str(headerOf(records), "parent") || undefined);
        return found;
      },
      options,
    );
  }

  load(id: string): Transcript<DroidBody> {
    const path = this.filesFor(id)[0];
    if (path === undefined) throw noSession("droid", "Droid", id, this.root);
    checkLinkInside(this.root, path, "droid");
    const t = this.read(path);
    // Droid finds a session by its file's name: that is the id resume takes.
    return { meta: { ...t.meta, id }, body: t.body };
  }

  save(transcript: Transcript<DroidBody>, options: SaveOptions = {}): Saved {
    const { lines, settings } = transcript.body;
    const records = recordsOf(lines);
    const id = checkPathComponent(str(headerOf(records), "id") ?? transcript.meta.id, "droid");
    const cwd = sessionCwd(
      "droid",
      "Droid",
      id,
      [str(headerOf(records), "cwd")],
      transcript.meta.cwd,
    );
    const dir = join(this.root, checkPathComponent(projectFolder(cwd), "droid"));
    const path = join(dir, id + SESSION_SUFFIX);
    if (!options.overwrite) {
      const existing = this.filesFor(id)[0];
      if (existing !== undefined)
        throw new ConflictError("droid", `session ${id} already exists`, { file: existing });
    }
    // Folders through symlinks are refused before anything is created.
    const files = mkdirInside(this.root, dir, "droid");
    try {
      // The settings first: Droid lists a session by its .jsonl, which appears last.
      if (settings !== undefined) {
        writeFileAtomic(settingsPath(path), settings, {
          mode: 0o600,
          exclusive: !options.overwrite,
        });
        files.push(settingsPath(path));
      }
      writeFileAtomic(path, linePieces(lines), { mode: 0o600, exclusive: !options.overwrite });
    } catch (cause) {
      throw saveError("droid", id, path, cause);
    }
    files.unshift(path);
    return { harness: "droid", id, path, files };
  }

  delete(id: string): string[] {
    const paths = this.filesFor(id);
    if (paths.length === 0) throw noSession("droid", "Droid", id, this.root);
    const companions = paths.flatMap((p) =>
      [settingsPath(p), `${settingsPath(p)}.bak`].filter(
        (f) => statOrUndefined(f, false) !== undefined,
      ),
    );
    return removeSessionFiles("droid", this.root, [...paths, ...companions]);
  }

  scan(): Fingerprint[] {
    return new DroidProbe({ root: this.root }).scan();
  }

  fingerprint(id: string): Fingerprint | undefined {
    const path = this.filesFor(id)[0];
    return path === undefined ? undefined : sessionStamp(path);
  }
}
