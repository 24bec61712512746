/**
 * Claude Code's store: `<root>/<encoded cwd>/<session id>.jsonl`, where the
 * root is `~/.claude/projects` (`$CLAUDE_CONFIG_DIR/projects`, or our own
 * `TXCRIPT_CLAUDE_CODE_ROOT`). Discovery is a shallow scan of each file;
 * load and save move the file's exact bytes; save writes into the folder
 * Claude Code itself looks in for the session's cwd.
 */

import { existsSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import type { Meta } from "../../common.js";
import { describeCause, StoreError } from "../../errors.js";
import { assignDefined } from "../../json.js";
import { checkLinkInside, checkPathComponent, pathComponentProblem } from "../../paths.js";
import {
  EPOCH,
  type EpochTime,
  formatTimestamp,
  parseTimestamp,
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
  type Skipped,
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
  removeSessionFiles,
  saveJsonlSession,
  sessionCwd,
} from "../shared/store-files.js";
import { type ClaudeCodeBody, parseRecord, records } from "./body.js";
import {
  ClaudeCodeProbe,
  claudeCodeRoot,
  isSessionName,
  projectDirs,
  SESSION_SUFFIX,
} from "./probe.js";
import { parseClaudeCodeBytes, promptTitle, SYNTHETIC_MODEL } from "./text.js";

/** Claude Code keeps names up to this long; longer ones are cut and get a hash suffix. */
const MAX_DIR_NAME = 200;

/** Every UTF-16 unit outside [A-Za-z0-9] becomes "-" (case kept, nothing collapsed). */
export function encodeCwd(cwd: string): string {
  return cwd.replace(/[^A-Za-z0-9]/g, "-");
}

/** The 32-bit string hash Claude Code suffixes long folder names with, in base 36. */
export function cwdHash(cwd: string): string {
  let h = 0;
  for (let i = 0; i < cwd.length; i++) h = ((h << 5) - h + cwd.charCodeAt(i)) | 0;
  return Math.abs(h).toString(36);
}

/** The folder name for a cwd when no folder for it exists yet. */
export function projectDirName(cwd: string): string {
  const encoded = encodeCwd(cwd);
  if (encoded.length <= MAX_DIR_NAME) return encoded;
  return `${encoded.slice(0, MAX_DIR_NAME)}-${cwdHash(cwd)}`;
}

/** What a shallow scan of one session file learns. */
interface Scan {
  meta: Partial<Meta>;
  updated?: Timestamp;
  records: number;
  conversation: number;
  messages: number;
}

/** Lines longer than this are scanned with patterns instead of parsed: they hold bulk content. */
const PARSE_LIMIT = 4096;
/** Claude Code writes the envelope (and the message's id and model) before any content. */
const HEAD = 4096;
const TYPE_RE = /(?:^\{|,)"type":"([^"\\]*)"/;
const RESPONSE_RE = /"message":\{[^{}]*?"id":"([^"\\]*)"/;
const MODEL_RE = /"message":\{[^{}]*?"model":"([^"\\]*)"/;
const TIMESTAMP_KEY = '"timestamp":"';
/** Claude Code ends user and assistant lines with their uuid and timestamp. */
const TAIL = 512;

/** A top-level string field of a JSON line's head, unescaped; undefined when absent. */
function headField(head: string, key: string): string | undefined {
  const m = new RegExp(`[{,]"${key}":("(?:[^"\\\\]|\\\\.)*")`).exec(head);
  if (!m) return undefined;
  try {
    const value: unknown = JSON.parse(m[1] ?? "");
    return typeof value === "string" ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Metadata without converting: the first line carrying each field, the
 * earliest and latest timestamps, the title lines, and an estimate of the
 * message count (user and assistant lines on every branch, the lines of one
 * split response counted once). Works on the raw bytes: short lines are
 * decoded and parsed; of long ones (bulk tool output) only the head and the
 * tail are decoded and read by pattern.
 */
function scanSession(buf: Buffer): Scan {
  const scan: Scan = { meta: {}, records: 0, conversation: 0, messages: 0 };
  const m = scan.meta;
  let custom: string | undefined;
  let ai: string | undefined;
  let summary: string | undefined;
  // The first prompt names a session with no title line (`claude -p`); a
  // prompt too long to parse here is rare enough to leave such a session untitled.
  let prompt: string | undefined;
  let lastResponse: string | undefined;
  // Earliest and latest kept as epoch parts: each timestamp is parsed once.
  let first: EpochTime | undefined;
  let last: EpochTime | undefined;
  const before = (a: EpochTime, b: EpochTime) =>
    a.seconds < b.seconds || (a.seconds === b.seconds && a.nanos < b.nanos);
  const seeTimestamp = (raw: string | undefined) => {
    const t = raw === undefined ? undefined : parseTimestamp(raw);
    if (t === undefined) return;
    if (first === undefined || before(t, first)) first = t;
    if (last === undefined || before(last, t)) last = t;
  };
  const fill = (key: "id" | "cwd" | "git_branch" | "cli_version", value: string | undefined) => {
    if (m[key] === undefined && value !== undefined && value !== "") m[key] = value;
  };
  let start = 0;
  while (start < buf.length) {
    let end = buf.indexOf(10, start);
    if (end === -1) end = buf.length;
    const from = start;
    start = end + 1;
    let type: string | undefined;
    let sidechain: boolean;
    let response: string | undefined;
    let model: string | undefined;
    if (end - from <= PARSE_LIMIT) {
      const record = parseRecord(buf.toString("utf8", from, end));
      type = str(record, "type");
      if (record === undefined || type === undefined) continue;
      sidechain = record.isSidechain === true;
      fill("id", str(record, "sessionId"));
      fill("cwd", str(record, "cwd"));
      fill("git_branch", str(record, "gitBranch"));
      fill("cli_version", str(record, "version"));
      seeTimestamp(str(record, "timestamp"));
      const message = record.message;
      if (message !== null && typeof message === "object" && !Array.isArray(message)) {
        response = str(message, "id");
        model = str(message, "model");
      }
      if (type === "custom-title") custom = str(record, "customTitle") || custom;
      if (type === "ai-title") ai = str(record, "aiTitle") || ai;
      if (type === "summary") summary = str(record, "summary") || summary;
      prompt ??= promptTitle(record);
    } else {
      const head = buf.toString("utf8", from, from + HEAD);
      type = TYPE_RE.exec(head)?.[1];
      if (type === undefined) continue;
      sidechain = head.includes('"isSidechain":true');
      if (m.id === undefined) fill("id", headField(head, "sessionId"));
      if (m.cwd === undefined) fill("cwd", headField(head, "cwd"));
      if (m.git_branch === undefined) fill("git_branch", headField(head, "gitBranch"));
      if (m.cli_version === undefined) fill("cli_version", headField(head, "version"));
      response = RESPONSE_RE.exec(head)?.[1];
      model = MODEL_RE.exec(head)?.[1];
      const tail = buf.toString("utf8", Math.max(from, end - TAIL), end);
      const at = tail.lastIndexOf(TIMESTAMP_KEY);
      if (at !== -1) {
        const value = at + TIMESTAMP_KEY.length;
        seeTimestamp(tail.slice(value, tail.indexOf('"', value)));
      }
    }
    scan.records++;
    if ((type !== "user" && type !== "assistant") || sidechain) continue;
    scan.conversation++;
    if (type === "assistant") {
      if (model && model !== SYNTHETIC_MODEL) m.model ??= model;
      if (response === undefined || response !== lastResponse) scan.messages++;
      lastResponse = response;
    } else {
      scan.messages++;
    }
  }
  if (first !== undefined) m.timestamp = formatTimestamp(first);
  if (last !== undefined) scan.updated = formatTimestamp(last);
  const title = custom ?? ai ?? summary ?? prompt;
  assignDefined(m, "title", title);
  return scan;
}

function readBytes(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (cause) {
    throw new StoreError("claude_code", `cannot read the session: ${describeCause(cause)}`, {
      file: path,
      cause,
    });
  }
}

/**
 * How long a listing of the project folders answers reads (`filesFor(id,
 * true)`) after its last use, in ms: reads that keep coming (an index build
 * over thousands of sessions) keep one listing.
 */
const LISTING_REUSE_MS = 2000;
let lastListing: { root: string; at: number; byName: Map<string, string[]> } | undefined;

export class ClaudeCodeStore extends OneRootStore implements Store<ClaudeCodeBody> {
  readonly harness = "claude_code" as const;

  constructor(options: StoreOptions = {}) {
    super(claudeCodeRoot(options));
  }

  private projectDirs(): string[] {
    return projectDirs(this.root);
  }

  /**
   * Every file holding session `id`, most recently modified first.
   * `recent`: for reading only, a listing of the project folders made a
   * moment ago will do while every file it named for the id is still there
   * (a file moved or removed since lists again; a copy added within the
   * moment is seen by the next listing); saves and deletes always look.
   */
  private filesFor(id: string, recent = false): string[] {
    checkPathComponent(id, "claude_code");
    const name = id + SESSION_SUFFIX;
    if (recent) {
      const hit = this.listedByName().get(name) ?? [];
      const found = newestFirst(hit);
      if (hit.length > 0 && found.length === hit.length) return found;
      lastListing = undefined;
      return newestFirst(this.listedByName().get(name) ?? []);
    }
    return newestFirst(this.projectDirs().map((dir) => join(dir, name)));
  }

  /**
   * The files of every project folder by name, from a listing last used at
   * most `LISTING_REUSE_MS` ago (one slot per process, for this root):
   * loading many sessions one after another (the index reading their text)
   * lists the folders once a moment, where looking in each folder for each
   * session cost a stat per folder per session.
   */
  private listedByName(): Map<string, string[]> {
    const now = Date.now();
    if (lastListing && lastListing.root === this.root && now - lastListing.at < LISTING_REUSE_MS) {
      lastListing.at = now;
      return lastListing.byName;
    }
    const byName = new Map<string, string[]>();
    for (const dir of this.projectDirs()) {
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch {
        continue; // as a stat of a file in it would fail
      }
      for (const name of names) {
        if (!name.endsWith(SESSION_SUFFIX)) continue;
        const same = byName.get(name);
        if (same) same.push(join(dir, name));
        else byName.set(name, [join(dir, name)]);
      }
    }
    lastListing = { root: this.root, at: now, byName };
    return byName;
  }

  ids(): string[] {
    const ids = new Set<string>();
    for (const dir of this.projectDirs()) {
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch {
        continue; // discover() reports unreadable folders
      }
      for (const name of names) {
        if (!isSessionName(name)) continue;
        const id = name.slice(0, -SESSION_SUFFIX.length);
        if (pathComponentProblem(id) === undefined) ids.add(id);
      }
    }
    return [...ids].sort();
  }

  async discover(options: DiscoverOptions = {}): Promise<Discovery> {
    const files: string[] = [];
    const skipped: Skipped[] = [];
    for (const dir of this.projectDirs()) {
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch (cause) {
        skipped.push({ path: dir, reason: `cannot list the folder: ${describeCause(cause)}` });
        continue;
      }
      for (const name of names.sort()) {
        if (!isSessionName(name)) continue;
        const path = join(dir, name);
        if (!options.paths || options.paths.has(path)) files.push(path);
      }
    }
    return discoverFiles(
      this.root,
      files,
      SESSION_SUFFIX,
      (path, id, st) => {
        const scan = scanSession(readFileSync(path));
        if (scan.records === 0)
          return { skip: "not a Claude Code session: no line is a JSON record" };
        // Bookkeeping-only files (a summary left behind) hold no conversation: not a session.
        if (scan.conversation === 0) return undefined;
        const meta: Meta = { ...scan.meta, id, timestamp: scan.meta.timestamp ?? EPOCH };
        return {
          harness: "claude_code",
          id,
          path,
          meta,
          updated: scan.updated ?? timestampFromMillis(Math.floor(st.mtimeMs)),
          message_count: scan.messages,
          fingerprint: { files: [fileStamp(path, st)] },
        };
      },
      options,
      skipped,
    );
  }

  load(id: string): Transcript<ClaudeCodeBody> {
    const path = this.filesFor(id, true)[0];
    if (path === undefined) throw noSession("claude_code", "Claude Code", id, this.root);
    checkLinkInside(this.root, path, "claude_code");
    const transcript = parseClaudeCodeBytes(readBytes(path), path);
    // Claude Code names a session by its file: that is the id resume takes.
    return { meta: { ...transcript.meta, id }, body: transcript.body };
  }

  /** The folder Claude Code looks in for `cwd`: an existing one for a long path, else the encoded name. */
  private projectDirFor(cwd: string): string {
    // Claude Code names the folder after its resolved working directory.
    let real = cwd;
    try {
      real = realpathSync(cwd);
    } catch {
      // not on this machine: the recorded path is all there is
    }
    const name = projectDirName(real);
    // Releases differ in how they suffix a long name (2.1.224 changed it):
    // a folder already holding this cwd's sessions is the one to join.
    if (name.length > MAX_DIR_NAME && !existsSync(join(this.root, name))) {
      const prefix = `${name.slice(0, MAX_DIR_NAME)}-`;
      for (const dir of this.projectDirs()) {
        if (basename(dir).startsWith(prefix) && this.folderCwd(dir) === cwd) return dir;
      }
    }
    return join(this.root, name);
  }

  /** The cwd recorded by the first session in a folder that names one. */
  private folderCwd(dir: string): string | undefined {
    for (const name of readdirSync(dir).sort()) {
      if (!name.endsWith(SESSION_SUFFIX)) continue;
      try {
        const cwd = scanSession(readFileSync(join(dir, name))).meta.cwd;
        if (cwd !== undefined) return cwd;
      } catch {
        // unreadable: try the next
      }
    }
    return undefined;
  }

  save(transcript: Transcript<ClaudeCodeBody>, options: SaveOptions = {}): Saved {
    const id = checkPathComponent(transcript.meta.id, "claude_code");
    const lines = transcript.body.lines;
    let recorded: string | undefined;
    for (const record of records(lines)) {
      recorded = str(record, "cwd");
      if (recorded !== undefined && recorded !== "") break;
    }
    const cwd = sessionCwd("claude_code", "Claude Code", id, [recorded], transcript.meta.cwd);
    const dir = this.projectDirFor(cwd);
    const path = join(dir, id + SESSION_SUFFIX);
    return saveJsonlSession(
      "claude_code",
      id,
      { root: this.root, dir, path },
      lines,
      options.overwrite === true,
      () => this.filesFor(id)[0],
    );
  }

  delete(id: string): string[] {
    const paths = this.filesFor(id);
    if (paths.length === 0) throw noSession("claude_code", "Claude Code", id, this.root);
    // A session's side data (subagents, tool results) lives in a folder named for it.
    return removeSessionFiles("claude_code", this.root, paths, (path) =>
      join(resolve(path, ".."), id),
    );
  }

  scan(): Fingerprint[] {
    return new ClaudeCodeProbe({ root: this.root }).scan();
  }

  fingerprint(id: string): Fingerprint | undefined {
    return fileFingerprint(this.filesFor(id, true)[0]);
  }
}
