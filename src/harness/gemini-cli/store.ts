import {
  closeSync,
  existsSync,
  lstatSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import { isJsonObject, type Meta } from "../../common.js";
import {
  ConflictError,
  describeCause,
  errnoCode,
  InvalidRequestError,
  NotFoundError,
  StoreError,
  TxcriptError,
} from "../../errors.js";
import {
  checkUtf8,
  mkdirInside,
  readFileCapped,
  TargetExistsError,
  withDirLock,
  writeFileAtomic,
} from "../../fsx.js";
import { isUuid } from "../../id-forms.js";
import { assignDefined } from "../../json.js";
import { Lines, linePieces, type VerbatimLine } from "../../lines.js";
import {
  checkLinkInside,
  checkPathComponent,
  linkOutsideProblem,
  realPathInside,
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
import { OneRootStore } from "../shared/one-root.js";
import { fileFingerprint } from "../shared/probe.js";
import { sessionIdProblem, skipReason } from "../shared/store-files.js";
import { type Conversation, type GeminiBody, recordLine, replay } from "./body.js";
import {
  CHATS_DIR,
  GeminiCliProbe,
  geminiCliRoot,
  HISTORY_DIR,
  MARKER,
  projectDirs,
  REGISTRY,
  type SessionFile,
  SUB_NAME,
  sessionFiles,
  TMP_DIR,
} from "./probe.js";
import { contextCwd, conversationStart, countMessages, isoMillis, projectHash } from "./records.js";
import { firstModel, sessionFromBody, sessionTitle } from "./text.js";

/** V8 cannot hold a string much longer than 512 MiB; bigger files are refused, not crashed on. */
const MAX_SESSION_BYTES = 512 * 1024 * 1024;

const HASH_DIR = /^[0-9a-f]{64}$/;
/** The CLI's own pattern for the short id a main session's file name ends with. */
const SHORT_ID = /-([a-zA-Z0-9]{8})\.jsonl?$/;

/** The CLI's slug for a new project: basename, lowercased, runs of other characters as `-`. */
function slugify(root: string): string {
  return (
    (basename(root) || "project")
      .toLowerCase()
      .replace(/[^a-z0-9]/g, "-")
      .replace(/-+/g, "-")
      .replace(/^-|-$/g, "") || "project"
  );
}

/** `session-<YYYY-MM-DDTHH-MM>-<id8>.jsonl` for a session start (UTC). */
function sessionFileName(id: string, startIso: string, ext = ".jsonl"): string {
  return `session-${startIso.slice(0, 16).replaceAll(":", "-")}-${id.slice(0, 8)}${ext}`;
}

/**
 * A session file's lines over its bytes (strict UTF-8), never one string:
 * the bytes stay outside the V8 heap and a line is decoded when it is
 * read. Errors name the file.
 */
export function readSessionLines(path: string, maxBytes = MAX_SESSION_BYTES): Lines {
  const bytes = readFileCapped(path, maxBytes, "gemini_cli", "the session");
  checkUtf8(bytes, path, "gemini_cli", "the session");
  return Lines.fromBytes(bytes);
}

const HEAD_ID = /"sessionId"\s*:\s*"([^"\\]{1,255})"/;

/** The session id near the start of a file (its metadata line, or a legacy document's first key). */
function headId(path: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const buf = Buffer.alloc(4096);
    const n = readSync(fd, buf, 0, buf.length, 0);
    return HEAD_ID.exec(buf.toString("utf8", 0, n))?.[1];
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

interface Registry {
  /** Absolute root -> slug, as projects.json holds it. */
  projects: Record<string, string>;
  /** False when the file exists but is not a registry the CLI would keep. */
  valid: boolean;
}

/** Does the CLI say this conversation has something to resume? (`hasResumableConversationContent`) */
function resumable(conversation: Conversation): boolean {
  return countMessages(conversation) > 0;
}

/** Gemini CLI's store; its root is the `.gemini` directory: `tmp/`, `history/` and `projects.json` live here. */
export class GeminiCliStore extends OneRootStore implements Store<GeminiBody> {
  readonly harness = "gemini_cli" as const;

  constructor(options: StoreOptions = {}) {
    super(geminiCliRoot(options));
  }

  // -------------------------------------------------------------------------
  // Projects

  readRegistry(): Registry {
    const path = join(this.root, REGISTRY);
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch (cause) {
      if (errnoCode(cause) === "ENOENT") return { projects: {}, valid: true };
      return { projects: {}, valid: false };
    }
    try {
      const data: unknown = JSON.parse(text);
      const projects = isJsonObject(data) ? data.projects : undefined;
      if (!isJsonObject(projects)) {
        return { projects: {}, valid: false };
      }
      const out: Record<string, string> = {};
      for (const [root, slug] of Object.entries(projects)) {
        // The CLI's schema: slugs are [a-z0-9-]+; it resets a registry that breaks it.
        if (typeof slug !== "string" || !/^[a-z0-9-]+$/.test(slug)) {
          return { projects: {}, valid: false };
        }
        out[root] = slug;
      }
      return { projects: out, valid: true };
    } catch {
      return { projects: {}, valid: false };
    }
  }

  private marker(base: string, slug: string): string | undefined {
    try {
      return readFileSync(join(this.root, base, slug, MARKER), "utf8").trim();
    } catch {
      return undefined;
    }
  }

  /** Project folder name -> the root directory it belongs to, by marker, registry, or hash. */
  projectRoots(): Map<string, string> {
    const roots = new Map<string, string>();
    const registry = this.readRegistry();
    for (const [root, slug] of Object.entries(registry.projects)) roots.set(slug, root);
    const known = new Set(roots.values());
    for (const name of this.projectDirs()) {
      const owner = this.marker(TMP_DIR, name);
      if (owner !== undefined && owner !== "") {
        roots.set(name, owner);
        known.add(owner);
      }
    }
    // Folders of versions before 0.29 are named by the hash of their root.
    const byHash = new Map([...known].map((r) => [projectHash(r), r]));
    for (const name of this.projectDirs()) {
      if (!roots.has(name) && HASH_DIR.test(name)) {
        const root = byHash.get(name);
        if (root !== undefined) roots.set(name, root);
      }
    }
    return roots;
  }

  /** Roots known by hash, to name the cwd of a session whose folder says nothing. */
  private rootsByHash(roots: Map<string, string>): Map<string, string> {
    return new Map([...new Set(roots.values())].map((r) => [projectHash(r), r]));
  }

  private projectDirs(): string[] {
    return projectDirs(this.root);
  }

  // -------------------------------------------------------------------------
  // Files

  private sessionFiles(onUnreadable?: (s: Skipped) => void): SessionFile[] {
    return sessionFiles(this.root, this.projectDirs(), onUnreadable);
  }

  /**
   * The id a file holds: from its name (subagents), else its first bytes;
   * a file whose start names none (damaged) goes by the 8 characters its
   * name holds, as the CLI's own cleanup does, so it can still be named and deleted.
   */
  private fileId(file: SessionFile): string | undefined {
    const name = basename(file.path);
    if (file.parent !== undefined) {
      const fromName = SUB_NAME.exec(name)?.[1];
      if (fromName !== undefined) return fromName;
    }
    return headId(file.path) ?? SHORT_ID.exec(name)?.[1];
  }

  ids(): string[] {
    const ids = new Set<string>();
    for (const f of this.sessionFiles()) {
      const id = this.fileId(f);
      if (id !== undefined) ids.add(id);
    }
    return [...ids].sort();
  }

  private read(file: SessionFile): { body: GeminiBody; conversation: Conversation } {
    const { transcript, conversation } = sessionFromBody(
      { lines: readSessionLines(file.path) },
      file.path,
    );
    return { body: transcript.body, conversation };
  }

  private metaOf(file: SessionFile, conversation: Conversation, roots: Map<string, string>): Meta {
    const meta: Meta = { id: conversation.sessionId, timestamp: conversationStart(conversation) };
    const hash = conversation.projectHash;
    const cwd =
      roots.get(file.project) ??
      (hash !== undefined ? this.rootsByHash(roots).get(hash) : undefined) ??
      contextCwd(conversation);
    assignDefined(meta, "cwd", cwd);
    assignDefined(meta, "title", sessionTitle(conversation));
    assignDefined(meta, "model", firstModel(conversation));
    return meta;
  }

  stamp(): string | undefined {
    return new GeminiCliProbe({ root: this.root }).stamp();
  }

  async discover(options: DiscoverOptions = {}): Promise<Discovery> {
    const skipped: Skipped[] = [];
    const files = this.sessionFiles((s) => skipped.push(s));
    const roots = this.projectRoots();
    const byId = new Map<string, Discovered>();
    files.forEach((file, i) => {
      options.onProgress?.(i, files.length);
      try {
        const outside = linkOutsideProblem(this.root, file.path);
        if (outside) {
          skipped.push({ path: file.path, reason: outside });
          return;
        }
        const { conversation } = this.read(file);
        const idProblem = sessionIdProblem(conversation.sessionId);
        if (idProblem) {
          skipped.push({ path: file.path, reason: idProblem });
          return;
        }
        const count = countMessages(conversation);
        if (count === 0) {
          skipped.push({
            path: file.path,
            reason: "no conversation in it (the CLI does not list it either)",
          });
          return;
        }
        const st = statSync(file.path);
        const updated =
          (conversation.lastUpdated && normalizeTimestamp(conversation.lastUpdated)) ||
          timestampFromMillis(st.mtimeMs);
        const found: Discovered = {
          harness: "gemini_cli",
          id: conversation.sessionId,
          path: file.path,
          meta: this.metaOf(file, conversation, roots),
          updated,
          message_count: count,
          fingerprint: { files: [fileStamp(file.path, st)] },
          lane: conversation.kind === "subagent" || file.parent !== undefined ? "subagent" : "main",
        };
        assignDefined(found, "parent_id", file.parent);
        const prior = byId.get(found.id);
        if (prior === undefined || newer(found, prior)) {
          if (prior) skipped.push({ path: prior.path, reason: `older copy of ${found.id}` });
          byId.set(found.id, found);
        } else skipped.push({ path: file.path, reason: `older copy of ${found.id}` });
      } catch (cause) {
        skipped.push({ path: file.path, reason: skipReason(cause) });
      }
    });
    options.onProgress?.(files.length, files.length);
    return { sessions: [...byId.values()], skipped };
  }

  /** The files holding session `id`, the one to read first (the CLI's pick) then the others. */
  private locate(id: string): { best: SessionFile | undefined; all: SessionFile[] } {
    const all = this.sessionFiles().filter((f) => this.fileId(f) === id);
    // One file (the usual case) needs no reading to be chosen.
    if (all.length <= 1) return { best: all[0], all };
    let best: { file: SessionFile; updated: string; resumable: boolean } | undefined;
    for (const file of all) {
      let conversation: Conversation | undefined;
      try {
        conversation = this.read(file).conversation;
      } catch {
        conversation = undefined;
      }
      if (conversation === undefined || conversation.sessionId !== id) {
        best ??= { file, updated: "", resumable: false };
        continue;
      }
      const candidate = {
        file,
        updated: conversation.lastUpdated ?? "",
        resumable: resumable(conversation),
      };
      if (
        best === undefined ||
        (candidate.resumable && !best.resumable) ||
        (candidate.resumable === best.resumable && candidate.updated > best.updated)
      ) {
        best = candidate;
      }
    }
    return { best: best?.file, all };
  }

  private checkId(id: string): void {
    checkPathComponent(id, "gemini_cli");
  }

  load(id: string): Transcript<GeminiBody> {
    this.checkId(id);
    const file = this.locate(id).best;
    if (!file)
      throw new NotFoundError("gemini_cli", `no Gemini CLI session ${id} under ${this.root}`);
    checkLinkInside(this.root, file.path, "gemini_cli");
    const { body, conversation } = this.read(file);
    return { meta: this.metaOf(file, conversation, this.projectRoots()), body };
  }

  // -------------------------------------------------------------------------
  // Saving

  /**
   * The project folder for `root`, as the CLI would pick it: the registered
   * slug when its markers agree, else a folder whose marker names the root,
   * else a new slug (basename, then `-1`, `-2`, …) no registry entry or
   * marker claims. `register` says whether projects.json lacks the entry.
   */
  projectSlug(root: string): { slug: string; register: boolean; registry: Registry } {
    const registry = this.readRegistry();
    const owns = (slug: string) =>
      [TMP_DIR, HISTORY_DIR].every((base) => {
        const owner = this.marker(base, slug);
        return owner === undefined || resolve(owner) === root;
      });
    const registered = registry.projects[root];
    if (registered !== undefined && owns(registered)) {
      return { slug: registered, register: false, registry };
    }
    for (const name of this.projectDirs()) {
      const owner = this.marker(TMP_DIR, name);
      if (owner !== undefined && resolve(owner) === root) {
        return { slug: name, register: true, registry };
      }
    }
    const taken = new Set(
      Object.entries(registry.projects)
        .filter(([r]) => r !== root)
        .map(([, s]) => s),
    );
    const base = slugify(root);
    for (let n = 0; ; n++) {
      const slug = n === 0 ? base : `${base}-${n}`;
      if (!taken.has(slug) && owns(slug)) return { slug, register: true, registry };
    }
  }

  save(transcript: Transcript<GeminiBody>, options: SaveOptions = {}): Saved {
    const lines = transcript.body.lines;
    const conversation = replay(lines);
    if (!conversation) {
      throw new InvalidRequestError("gemini_cli", "cannot save: the session has no metadata line");
    }
    const id = checkPathComponent(conversation.sessionId, "gemini_cli");
    if (!isUuid(id)) {
      throw new InvalidRequestError(
        "gemini_cli",
        `cannot save session ${JSON.stringify(id)}: Gemini CLI session ids are UUIDs`,
      );
    }
    const cwd = transcript.meta.cwd ?? contextCwd(conversation);
    if (cwd === undefined || !isAbsolute(cwd)) {
      throw new InvalidRequestError(
        "gemini_cli",
        `cannot save session ${id}: Gemini CLI keeps sessions per project directory, and the session names ${cwd === undefined ? "none" : `a relative one (${cwd})`}`,
      );
    }
    const root = resolve(cwd);
    const existing = this.locate(id).all;
    if (existing.length > 0 && !options.overwrite) {
      throw new ConflictError(
        "gemini_cli",
        `session ${id} already exists (use overwrite to replace it)`,
        {
          file: existing[0]?.path,
        },
      );
    }
    const { slug, register, registry } = this.projectSlug(root);
    checkPathComponent(slug, "gemini_cli");
    const projectDir = join(this.root, TMP_DIR, slug);
    const chats = join(projectDir, CHATS_DIR);
    const ext = conversation.format === "json" ? ".json" : ".jsonl";
    const path = join(chats, sessionFileName(id, isoMillis(conversationStart(conversation)), ext));
    const files: string[] = [];
    const notes: string[] = [];
    try {
      // Every folder on the way checked before any is made: none through a symlink.
      const made = mkdirInside(this.root, chats, "gemini_cli")[0];
      if (made !== undefined) files.push(made);
      const replacing = existing.some((f) => resolve(f.path) === resolve(path));
      if (existsSync(path) && !replacing) {
        throw new ConflictError("gemini_cli", "another session already has this file name", {
          file: path,
        });
      }
      const marker = join(projectDir, MARKER);
      if (!existsSync(marker)) {
        try {
          writeFileSync(marker, root, { encoding: "utf8", flag: "wx" });
          files.push(marker);
        } catch (cause) {
          // A concurrent save of the same project made it first: the session's own write decides the race.
          if (errnoCode(cause) !== "EEXIST") throw cause;
        }
      }
      try {
        // Exclusive unless replacing this very file: of two concurrent saves, one wins.
        writeFileAtomic(path, linePieces(stamped(lines)), { exclusive: !replacing });
      } catch (cause) {
        if (cause instanceof TargetExistsError) {
          throw new ConflictError("gemini_cli", `session ${id} already exists`, { file: path });
        }
        throw cause;
      }
      files.unshift(path);
      for (const old of existing) {
        if (resolve(old.path) !== resolve(path)) {
          unlinkSync(realPathInside(this.root, old.path, "gemini_cli"));
        }
      }
      if (register && registry.valid) {
        const registered = this.register(root, slug);
        if (registered.path !== undefined) files.push(registered.path);
        if (registered.skipped !== undefined) notes.push(registered.skipped);
      }
    } catch (cause) {
      if (cause instanceof TxcriptError) throw cause;
      throw new StoreError("gemini_cli", `cannot save session ${id}: ${describeCause(cause)}`, {
        file: path,
        cause,
      });
    }
    return { harness: "gemini_cli", id, path, files, ...(notes.length > 0 ? { notes } : {}) };
  }

  /**
   * Add `root -> slug` to projects.json under the lock Gemini CLI itself
   * takes there (proper-lockfile's `projects.json.lock` directory, 10 s
   * stale), re-read inside it so no other entry is lost. A registry the CLI
   * could not read is left alone, and so is one whose lock stays held: the
   * folder's marker lets the CLI adopt the folder anyway (`skipped`).
   */
  private register(root: string, slug: string): { path?: string; skipped?: string } {
    const path = join(this.root, REGISTRY);
    // As the CLI does before locking: a registry must exist to be locked.
    if (!existsSync(path)) {
      try {
        writeFileAtomic(path, JSON.stringify({ projects: {} }, null, 2), { exclusive: true });
      } catch (cause) {
        if (!(cause instanceof TargetExistsError)) throw cause;
      }
    }
    const locked = withDirLock(path, () => {
      let data: { projects: Record<string, unknown>; [k: string]: unknown };
      try {
        const parsed: unknown = JSON.parse(readFileSync(path, "utf8"));
        if (!isJsonObject(parsed) || !isJsonObject(parsed.projects)) return undefined;
        data = { ...parsed, projects: parsed.projects };
      } catch {
        return undefined;
      }
      if (data.projects[root] === slug) return undefined;
      data.projects[root] = slug;
      writeFileAtomic(path, JSON.stringify(data, null, 2), { throughLink: true });
      return path;
    });
    if (locked === undefined) {
      return {
        skipped: `${path} stayed locked by another process; not registered there (the folder's .project_root marker lets Gemini CLI adopt it)`,
      };
    }
    return locked.value === undefined ? {} : { path: locked.value };
  }

  // -------------------------------------------------------------------------
  // Deleting

  delete(id: string): string[] {
    this.checkId(id);
    const { all } = this.locate(id);
    if (all.length === 0) {
      throw new NotFoundError("gemini_cli", `no Gemini CLI session ${id} under ${this.root}`);
    }
    // Check every target before removing any, so a refusal removes nothing.
    const targets = all.map((f) => {
      const real = realPathInside(this.root, f.path, "gemini_cli");
      return lstatSync(f.path).isSymbolicLink() ? f.path : real;
    });
    // A main session's subagents live in chats/<id>/ and go with it, as in the CLI.
    const subagentDirs = [
      ...new Set(all.filter((f) => f.parent === undefined).map((f) => join(dirname(f.path), id))),
    ].filter((d) => {
      try {
        return lstatSync(d).isDirectory();
      } catch {
        return false;
      }
    });
    for (const d of subagentDirs) realPathInside(this.root, d, "gemini_cli");
    for (const t of targets) unlinkSync(t);
    for (const d of subagentDirs) rmSync(d, { recursive: true, force: true });
    return [...targets, ...subagentDirs];
  }

  fingerprint(id: string): Fingerprint | undefined {
    try {
      this.checkId(id);
    } catch {
      return undefined;
    }
    return fileFingerprint(this.locate(id).best?.path);
  }
}

/**
 * The lines with the CLI's own `{"$set":{"lastUpdated":…}}` record for now
 * appended: the CLI's retention sweep (on by default, 30 days) deletes a
 * session whose lastUpdated is older, and a continued copy of an old session
 * is new to it. The one place a store reads the clock.
 */
function* stamped(lines: Lines): Generator<VerbatimLine> {
  const n = lines.length;
  for (let i = 0; i < n; i++) {
    const line = lines.at(i);
    if (line === undefined) continue;
    yield i === n - 1 && line.eol === "" ? { ...line, eol: "\n" } : line;
  }
  yield recordLine({ $set: { lastUpdated: new Date().toISOString() } });
}

function newer(a: Discovered, b: Discovered): boolean {
  return compareTimestamps(a.updated, b.updated) > 0;
}
