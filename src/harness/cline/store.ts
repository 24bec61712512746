/**
 * Cline's store (see probe.ts for the layout). Discovery reads each
 * messages file and its manifest; load reads one; save writes a new main
 * session's folder (`<id>/<id>.messages.json`, then the manifest `<id>.json`
 * naming it), never over another: Cline reads a session it has no
 * database row for from its manifest (`SessionManifestStore`'s re-adoption),
 * which is how `session/load` over ACP resumes a copy. Delete removes a
 * main session's folder, or one subagent's messages file, contained in the
 * root. The older `tasks/` sessions are read, never written or removed.
 */

import { readdirSync, rmSync, statSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { isJsonObject, type JsonObject } from "../../common.js";
import {
  ConflictError,
  describeCause,
  InvalidRequestError,
  NotFoundError,
  TxcriptError,
  UnsupportedError,
} from "../../errors.js";
import { decodeUtf8, readFileCapped, writeFileAtomic } from "../../fsx.js";
import { assignDefined, parseJson } from "../../json.js";
import {
  checkLinkInside,
  checkPathComponent,
  linkOutsideProblem,
  pathComponentProblem,
  realPathInside,
} from "../../paths.js";
import { timestampFromMillis } from "../../time.js";
import type {
  Discovered,
  DiscoverOptions,
  Discovery,
  Fingerprint,
  Saved,
  SaveOptions,
  Skipped,
  Store,
  StoreOptions,
  Transcript,
} from "../../transcript.js";
import { obj, str } from "../shared/fields.js";
import { saveSessionFiles, sessionIdProblem } from "../shared/store-files.js";
import { type ClineBody, messagesOf } from "./body.js";
import { clineMeta, clineTime } from "./meta.js";
import {
  type ClineFile,
  type ClineRoots,
  clineFiles,
  clineFingerprint,
  clineRoots,
} from "./probe.js";
import { parseCline } from "./text.js";

/** V8 cannot hold a string much longer than 512 MiB; bigger files are refused, not crashed on. */
const MAX_SESSION_BYTES = 512 * 1024 * 1024;
/** A manifest is a few kilobytes; one past this is not Cline's. */
const MAX_MANIFEST_BYTES = 16 * 1024 * 1024;

function readManifest(path: string): JsonObject | undefined {
  if (!statSync(path, { throwIfNoEntry: false })?.isFile()) return undefined;
  const text = decodeUtf8(
    readFileCapped(path, MAX_MANIFEST_BYTES, "cline", "the manifest"),
    path,
    "cline",
    "the manifest",
  );
  const value = parseJson(text, "cline", path);
  return isJsonObject(value) ? value : undefined;
}

export class ClineStore implements Store<ClineBody> {
  readonly harness = "cline" as const;
  readonly roots: readonly string[];
  private readonly dirs: ClineRoots;

  constructor(options: StoreOptions = {}) {
    this.dirs = clineRoots(options);
    this.roots = [this.dirs.sessions, this.dirs.tasks];
  }

  private files(): ClineFile[] {
    return clineFiles(this.dirs);
  }

  private rootOf(file: ClineFile): string {
    return file.kind === "legacy" ? this.dirs.tasks : this.dirs.sessions;
  }

  scan(): Fingerprint[] {
    return this.files().flatMap((f) => clineFingerprint(f) ?? []);
  }

  ids(): string[] {
    return [...new Set(this.files().map((f) => f.id))].sort();
  }

  private read(file: ClineFile): Transcript<ClineBody> {
    const bytes = readFileCapped(file.path, MAX_SESSION_BYTES, "cline", "the session");
    const t = parseCline(decodeUtf8(bytes, file.path, "cline", "the session"), file.path);
    const manifest = file.manifest !== undefined ? readManifest(file.manifest) : undefined;
    if (manifest === undefined) return { meta: { ...t.meta, id: file.id }, body: t.body };
    const body: ClineBody = { doc: t.body.doc, manifest };
    return { meta: { ...clineMeta(body, file.id), id: file.id }, body };
  }

  async discover(options: DiscoverOptions = {}): Promise<Discovery> {
    const skipped: Skipped[] = [];
    const sessions: Discovered[] = [];
    const files = this.files().filter(
      (f) => options.paths === undefined || options.paths.has(f.path),
    );
    files.forEach((file, i) => {
      options.onProgress?.(i, files.length);
      try {
        const outside = linkOutsideProblem(this.rootOf(file), file.path);
        if (outside) {
          skipped.push({ path: file.path, reason: outside });
          return;
        }
        const problem = sessionIdProblem(file.id);
        if (problem) {
          skipped.push({ path: file.path, reason: problem });
          return;
        }
        const t = this.read(file);
        const fingerprint = clineFingerprint(file);
        if (fingerprint === undefined) return;
        const messages = messagesOf(t.body.doc);
        const doc = Array.isArray(t.body.doc) ? undefined : t.body.doc;
        const lastTs = messages
          .map((m) => clineTime(m.ts))
          .filter((x) => x !== undefined)
          .at(-1);
        const updated =
          lastTs ?? clineTime(doc?.updated_at) ?? timestampFromMillis(statSync(file.path).mtimeMs);
        const found: Discovered = {
          harness: "cline",
          id: file.id,
          path: file.path,
          meta: t.meta,
          updated,
          message_count: messages.length,
          fingerprint,
          lane: file.kind === "legacy" ? "legacy" : "cli",
        };
        const status = str(t.body.manifest, "status");
        assignDefined(found, "status", status);
        if (status === "running") found.running = true;
        if (file.kind === "subagent")
          found.parent_id = str(obj(doc, "origin"), "parentThreadId") ?? file.root ?? "";
        sessions.push(found);
      } catch (cause) {
        skipped.push({
          path: file.path,
          reason: cause instanceof TxcriptError ? cause.detail : describeCause(cause),
        });
      }
    });
    options.onProgress?.(files.length, files.length);
    return { sessions, skipped };
  }

  private locate(id: string): ClineFile | undefined {
    return this.files().find((f) => f.id === id);
  }

  load(id: string): Transcript<ClineBody> {
    checkPathComponent(id, "cline");
    const file = this.locate(id);
    if (file === undefined)
      throw new NotFoundError("cline", `no Cline session ${id} under ${this.dirs.data}`);
    checkLinkInside(this.rootOf(file), file.path, "cline");
    return this.read(file);
  }

  save(transcript: Transcript<ClineBody>, options: SaveOptions = {}): Saved {
    const { doc } = transcript.body;
    if (Array.isArray(doc))
      throw new UnsupportedError(
        "cline",
        "cannot save a legacy tasks/ session: Cline 3 resumes only sessions/<id>/ (convert it first)",
      );
    const id = checkPathComponent(String(doc.sessionId ?? transcript.meta.id), "cline");
    if (id.includes("__"))
      throw new InvalidRequestError(
        "cline",
        `cannot save session ${id}: Cline reads an id with "__" as a subagent's`,
      );
    const existing = this.locate(id);
    if (existing !== undefined && !options.overwrite)
      throw new ConflictError(
        "cline",
        `session ${id} already exists (use overwrite to replace it)`,
        {
          file: existing.path,
        },
      );
    const dir = join(this.dirs.sessions, id);
    const path = join(dir, `${id}.messages.json`);
    const manifestPath = join(dir, `${id}.json`);
    const manifest: JsonObject = { ...(transcript.body.manifest ?? {}) };
    manifest.session_id = id;
    if (typeof manifest.cwd !== "string" || manifest.cwd === "")
      manifest.cwd = transcript.meta.cwd ?? "";
    if (typeof manifest.workspace_root !== "string" || manifest.workspace_root === "")
      manifest.workspace_root = manifest.cwd;
    manifest.messages_path = path;
    return saveSessionFiles("cline", id, path, { root: this.dirs.sessions, dir }, () => {
      const exclusive = existing === undefined;
      writeFileAtomic(path, `${JSON.stringify(doc, null, 2)}\n`, { exclusive });
      writeFileAtomic(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`, { exclusive });
      return [path, manifestPath];
    });
  }

  delete(id: string): string[] {
    checkPathComponent(id, "cline");
    const file = this.locate(id);
    if (file === undefined)
      throw new NotFoundError("cline", `no Cline session ${id} under ${this.dirs.data}`);
    if (file.kind === "legacy")
      throw new UnsupportedError(
        "cline",
        `cannot delete ${id}: the older Cline's tasks/ folder is indexed by its own taskHistory.json`,
      );
    if (file.kind === "subagent") {
      const real = realPathInside(this.dirs.sessions, file.path, "cline");
      unlinkSync(real);
      return [real];
    }
    const dir = realPathInside(this.dirs.sessions, join(this.dirs.sessions, id), "cline");
    const removed = readdirSync(dir).map((n) => join(dir, n));
    rmSync(dir, { recursive: true });
    return [...removed, dir];
  }

  fingerprint(id: string): Fingerprint | undefined {
    if (pathComponentProblem(id)) return undefined;
    const file = this.locate(id);
    return file === undefined ? undefined : clineFingerprint(file);
  }
}
