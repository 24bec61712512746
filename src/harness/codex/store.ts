/**
 * The Codex store: rollouts under `$CODEX_HOME` (default `~/.codex`).
 *
 * - `sessions/YYYY/MM/DD/rollout-YYYY-MM-DDThh-mm-ss-<uuid>.jsonl` (or
 *   `.jsonl.zst`; the plain file wins when both exist), and the flat
 *   `archived_sessions/` that Codex's archive command moves rollouts into;
 * - titles from the append-only `session_index.jsonl` (last entry per id wins).
 *
 * Discovery reads each rollout once without interpreting it (see
 * `estimateMessages`); load returns the exact text as the Body; save writes
 * a temporary file beside the target and renames it; delete removes only
 * files that resolve inside the Codex home. Stores do no conversion.
 */

import { existsSync, lstatSync, readFileSync, statSync, unlinkSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parse as parseToml } from "smol-toml";
import { isJsonObject, type Meta } from "../../common.js";
import {
  ConflictError,
  describeCause,
  InvalidRequestError,
  NotFoundError,
  ParseError,
} from "../../errors.js";
import {
  appendLine,
  checkUtf8,
  mkdirInside,
  readFileCapped,
  sweepTemps,
  writeFileAtomic,
} from "../../fsx.js";
import { isUuid } from "../../id-forms.js";
import { assignDefined } from "../../json.js";
import { checkLineCount, Lines, linePieces, type VerbatimLine } from "../../lines.js";
import {
  checkLinkInside,
  checkPathComponent,
  linkOutsideProblem,
  realPathInside,
} from "../../paths.js";
import { EPOCH, timestampFromMillis, timestampToEpoch } from "../../time.js";
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
import { saveError, sessionIdProblem, skipReason } from "../shared/store-files.js";
import { decompressCapped } from "../shared/zstd.js";
import {
  type CodexBody,
  type CodexLine,
  envelopeLine,
  readEnvelope,
  SCAFFOLDING_PREFIXES,
} from "./body.js";
import { CodexProbe, codexHome, type RolloutFile, rolloutFiles, SESSIONS_DIR } from "./probe.js";
import { findSessionMeta, firstModel, firstPrompt, lastEventTime, metaFromBody } from "./text.js";

const SESSION_INDEX = "session_index.jsonl";

/**
 * The largest rollout read (plain, or once decompressed): what
 * `readFileSync` reads in one piece, 2 GiB less a byte. A rollout is held
 * as bytes (`Lines`), never one string, so V8's longest string (about
 * 512 MiB, the old cap) no longer bounds it; a Buffer and the line
 * reader's 32-bit offsets would hold 4 GiB, the file reader stops at 2.
 * Bigger rollouts are refused in one line naming the file, not crashed on.
 */
const MAX_ROLLOUT_BYTES = 2 ** 31 - 1;

/** `sessions/YYYY/MM/DD/rollout-YYYY-MM-DDThh-mm-ss-<id>.jsonl` for a session start (UTC). */
export function rolloutRelativePath(id: string, started: string): string {
  const iso = new Date(timestampToEpoch(started).seconds * 1000).toISOString();
  const [date, time] = [iso.slice(0, 10), iso.slice(11, 19).replaceAll(":", "-")];
  return join(SESSIONS_DIR, ...date.split("-"), `rollout-${date}T${time}-${id}.jsonl`);
}

/** The bytes of a rollout file (plain or zstd), not decoded. Errors name the file. */
function readRolloutBytes(path: string, maxBytes = MAX_ROLLOUT_BYTES): Uint8Array {
  let bytes = readFileCapped(path, maxBytes, "codex", "the rollout");
  if (path.endsWith(".zst")) {
    try {
      bytes = decompressCapped(bytes, maxBytes);
    } catch (cause) {
      throw new ParseError("codex", `not a readable zstd rollout: ${describeCause(cause)}`, {
        file: path,
        cause,
      });
    }
  }
  return bytes;
}

/**
 * A rollout's lines over its bytes, never one string (listing, locating and
 * loading alike): a line is decoded when it is read, so a huge rollout
 * costs its bytes outside the V8 heap, not a string of it (twice its size
 * when one character is outside Latin-1). Errors name the file.
 */
export function readRolloutLines(path: string): Lines {
  const bytes = readRolloutBytes(path);
  checkUtf8(bytes, path, "codex", "the rollout");
  checkLineCount(bytes, "codex", path);
  return Lines.fromBytes(bytes);
}

/** Titles from `session_index.jsonl`: the last non-blank name per id wins; bad lines are skipped. */
function readSessionIndex(home: string): Map<string, string> {
  const titles = new Map<string, string>();
  let text: string;
  try {
    text = readFileSync(join(home, SESSION_INDEX), "utf8");
  } catch {
    return titles;
  }
  for (const line of text.split("\n")) {
    const t = line.trim();
    if (!t.startsWith("{")) continue;
    try {
      const entry: unknown = JSON.parse(t);
      if (!isJsonObject(entry)) continue;
      if (typeof entry.id !== "string" || typeof entry.thread_name !== "string") continue;
      const name = entry.thread_name.trim();
      if (name !== "") titles.set(entry.id.toLowerCase(), name);
    } catch {
      // Codex skips lines it cannot read; so does txcript.
    }
  }
  return titles;
}

const SCAFFOLD_TEXT = new RegExp(
  `"text":"(?:${SCAFFOLDING_PREFIXES.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})`,
);

/**
 * The number of messages `view` would show, counted from each line's
 * envelope without parsing the payload: a user prompt starts a message, a
 * run of assistant items makes one (closed by `token_count` or
 * `turn_context`), a run of tool outputs makes one. Exact for files Codex
 * writes (compact JSON, tag first); an estimate for hand-edited ones, where
 * it ignores duplicate/orphan outputs and prompts made only of images.
 */
export function estimateMessages(lines: Iterable<CodexLine>): number {
  let count = 0;
  let group: "assistant" | "results" | "prompt" | undefined;
  const open = (kind: "assistant" | "results" | "prompt") => {
    if (group !== kind || kind === "prompt") count++;
    group = kind;
  };
  const execEnds = new Set<string>();
  const answered = new Set<string>();
  for (const { text } of lines) {
    const head = text.slice(0, 200);
    if (head.includes('"type":"turn_context"')) {
      if (group === "assistant") group = undefined;
    } else if (head.includes('"type":"event_msg"')) {
      if (head.includes('"payload":{"type":"token_count"')) {
        if (group === "assistant") group = undefined;
      } else if (head.includes('"payload":{"type":"exec_command_end"')) {
        const id = /"call_id":"([^"]*)"/.exec(text)?.[1];
        if (id !== undefined && !answered.has(id)) {
          execEnds.add(id);
          answered.add(id);
          open("results");
        }
      }
    } else if (head.includes('"type":"response_item"')) {
      const kind = /"payload":\{"type":"([a-z_]+)"/.exec(head)?.[1];
      switch (kind) {
        case "message":
          if (/"role":"user"/.test(text.slice(0, 400))) {
            if (!SCAFFOLD_TEXT.test(text.slice(0, 600))) open("prompt");
          } else if (/"role":"assistant"/.test(text.slice(0, 400))) open("assistant");
          break;
        case "reasoning":
        case "function_call":
        case "custom_tool_call":
        case "local_shell_call":
        case "web_search_call":
          open("assistant");
          break;
        case "function_call_output":
        case "custom_tool_call_output": {
          const id = /"call_id":"([^"]*)"/.exec(text)?.[1];
          if (id !== undefined && answered.has(id)) break;
          if (id !== undefined) answered.add(id);
          open("results");
          break;
        }
      }
    }
  }
  return count;
}

/**
 * The model provider the user's Codex runs with: `model_provider` of the
 * active profile (`profile = "x"`, `[profiles.x]`), else the top-level one,
 * in `<Codex home>/config.toml` (so `$CODEX_HOME` is honored). Undefined
 * when there is no config, it names none, or it is not TOML (Codex itself
 * would refuse to start then; the copy keeps Codex's default, "openai").
 */
function configuredProvider(home: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(join(home, "config.toml"), "utf8");
  } catch {
    return undefined;
  }
  let config: unknown;
  try {
    config = parseToml(text);
  } catch {
    return undefined;
  }
  if (!isJsonObject(config)) return undefined;
  const name = (o: unknown) =>
    isJsonObject(o) && typeof o.model_provider === "string" && o.model_provider.trim() !== ""
      ? o.model_provider.trim()
      : undefined;
  const profiles = config.profiles;
  const profile =
    typeof config.profile === "string" && isJsonObject(profiles)
      ? profiles[config.profile]
      : undefined;
  return name(profile) ?? name(config);
}

/**
 * A copy txcript wrote (`originator` "txcript") under the user's provider.
 * Codex resumes only sessions recorded under the provider it runs with, so
 * a copy saying "openai" is refused by anyone on Azure, Ollama or
 * OpenRouter. A rollout Codex wrote itself keeps the provider it ran under.
 */
function underUserProvider(lines: Lines, at: number, provider: string | undefined): Lines {
  if (provider === undefined) return lines;
  const line = nthLine(lines, at);
  if (line === undefined) return lines;
  const env = readEnvelope(line.text);
  if (env === undefined || env.payload.originator !== "txcript") return lines;
  if (env.payload.model_provider === provider) return lines;
  const timestamp = typeof env.timestamp === "string" ? env.timestamp : "";
  const patched = envelopeLine(timestamp, env.type, { ...env.payload, model_provider: provider });
  const changed = { ...line, text: patched.text };
  // The other lines pass as they come: lines made as they are written stay so.
  return Lines.generated(function* () {
    let i = 0;
    for (const l of lines) yield i++ === at ? changed : l;
  });
}

/** Line `at`, reached by walking (a generated Body is never gathered for it). */
function nthLine(lines: Lines, at: number): VerbatimLine | undefined {
  let i = 0;
  for (const line of lines) if (i++ === at) return line;
  return undefined;
}

/**
 * How long a walk of the rollout files answers reads (`locate(id, true)`)
 * after its last use, in ms: reads that keep coming (an index build over
 * thousands of rollouts) keep one walk; a hit whose file is gone, or an id
 * it lacks, walks again.
 */
const WALK_REUSE_MS = 2000;
let lastWalk: { home: string; at: number; byId: Map<string, RolloutFile[]> } | undefined;

export class CodexStore implements Store<CodexBody> {
  readonly harness = "codex" as const;
  readonly roots: readonly string[];
  /** The Codex home: `sessions/`, `archived_sessions/` and `session_index.jsonl` live here. */
  readonly home: string;

  constructor(options: StoreOptions = {}) {
    this.home = codexHome(options);
    this.roots = [this.home];
  }

  private rolloutFiles(onUnreadable?: (s: Skipped) => void): RolloutFile[] {
    return rolloutFiles(this.home, onUnreadable);
  }

  /**
   * The rollout files by session id, from a walk last used at most
   * `WALK_REUSE_MS` ago (one slot per process, for this home): loading many sessions one
   * after another (the index reading their text) walks the store once a
   * moment, not once a session, which at 8,000 rollouts cost ~90 ms each.
   */
  private walkedById(): Map<string, RolloutFile[]> {
    const now = Date.now();
    if (lastWalk && lastWalk.home === this.home && now - lastWalk.at < WALK_REUSE_MS) {
      lastWalk.at = now;
      return lastWalk.byId;
    }
    const byId = new Map<string, RolloutFile[]>();
    for (const f of this.rolloutFiles()) {
      const same = byId.get(f.id);
      if (same) same.push(f);
      else byId.set(f.id, [f]);
    }
    lastWalk = { home: this.home, at: now, byId };
    return byId;
  }

  ids(): string[] {
    return [...new Set(this.rolloutFiles().map((f) => f.id))].sort();
  }

  async discover(options: DiscoverOptions = {}): Promise<Discovery> {
    const skipped: Skipped[] = [];
    const all = this.rolloutFiles((s) => skipped.push(s));
    const only = options.paths;
    const files = only ? all.filter((f) => only.has(f.path)) : all;
    const titles = readSessionIndex(this.home);
    const sessions: Discovered[] = [];
    const seen = new Map<string, string>();
    files.forEach((file, i) => {
      options.onProgress?.(i, files.length);
      try {
        const outside = linkOutsideProblem(this.home, file.path);
        if (outside) {
          skipped.push({ path: file.path, reason: outside });
          return;
        }
        const lines = readRolloutLines(file.path);
        const info = findSessionMeta(lines);
        if (!info) {
          skipped.push({ path: file.path, reason: "no session_meta line with an id" });
          return;
        }
        const idProblem = sessionIdProblem(info.id);
        if (idProblem) {
          skipped.push({ path: file.path, reason: idProblem });
          return;
        }
        const id = info.id.toLowerCase();
        const first = seen.get(id);
        if (first !== undefined) {
          skipped.push({ path: file.path, reason: `duplicate of session ${id} in ${first}` });
          return;
        }
        seen.set(id, file.path);
        const st = statSync(file.path);
        const meta: Meta = { id: info.id, timestamp: info.timestamp ?? EPOCH };
        assignDefined(meta, "cwd", info.cwd);
        assignDefined(meta, "git_branch", info.git_branch);
        assignDefined(meta, "title", titles.get(id) ?? firstPrompt(lines));
        assignDefined(meta, "cli_version", info.cli_version);
        assignDefined(meta, "model", firstModel(lines));
        const found: Discovered = {
          harness: "codex",
          id: info.id,
          path: file.path,
          meta,
          // The file's mtime says when it was last copied, not when the session was active.
          updated: lastEventTime(lines) ?? timestampFromMillis(st.mtimeMs),
          message_count: estimateMessages(lines),
          fingerprint: { files: [fileStamp(file.path, st)] },
        };
        assignDefined(found, "lane", file.archived ? "archived" : info.source);
        assignDefined(found, "parent_id", info.parent_id);
        assignDefined(found, "forked_from", info.forked_from);
        sessions.push(found);
      } catch (cause) {
        skipped.push({ path: file.path, reason: skipReason(cause) });
      }
    });
    options.onProgress?.(files.length, files.length);
    return { sessions, skipped };
  }

  /**
   * The files holding session `id`, best first: by file name, else by
   * session_meta id. `recent`: for reading only, a walk made a moment ago
   * will do while every file it named for the id is still there (a file
   * moved or removed since walks again; a sibling added within the moment
   * is seen by the next walk); saves and deletes always walk.
   */
  private locate(id: string, recent = false): RolloutFile[] {
    const wanted = id.toLowerCase();
    if (recent) {
      const hit = this.walkedById().get(wanted);
      if (hit?.every((f) => existsSync(f.path))) return hit;
      lastWalk = undefined;
      const fresh = this.walkedById().get(wanted);
      if (fresh) return fresh;
    }
    const files = this.rolloutFiles();
    const byName = files.filter((f) => f.id === wanted);
    if (byName.length > 0) return byName;
    // A rollout renamed by hand still names its session in session_meta.
    return files.filter((f) => {
      try {
        return findSessionMeta(readRolloutLines(f.path))?.id.toLowerCase() === wanted;
      } catch {
        return false;
      }
    });
  }

  private checkId(id: string): void {
    checkPathComponent(id, "codex");
    if (!isUuid(id)) {
      throw new NotFoundError(
        "codex",
        `no Codex session ${JSON.stringify(id)}: Codex ids are UUIDs`,
      );
    }
  }

  load(id: string): Transcript<CodexBody> {
    this.checkId(id);
    const file = this.locate(id, true)[0];
    if (!file) throw new NotFoundError("codex", `no Codex session ${id} under ${this.home}`);
    checkLinkInside(this.home, file.path, "codex");
    const lines = readRolloutLines(file.path);
    const meta = metaFromBody(lines, file.path);
    // Only a title someone gave: a first prompt saved as one would name the thread for Codex.
    assignDefined(meta, "title", readSessionIndex(this.home).get(meta.id.toLowerCase()));
    return { meta, body: { lines } };
  }

  save(transcript: Transcript<CodexBody>, options: SaveOptions = {}): Saved {
    const lines = transcript.body.lines;
    const info = findSessionMeta(lines);
    if (!info) {
      throw new InvalidRequestError("codex", "cannot save: the rollout has no session_meta line");
    }
    const id = checkPathComponent(info.id, "codex");
    if (!isUuid(id)) {
      throw new InvalidRequestError(
        "codex",
        `cannot save session ${JSON.stringify(id)}: Codex session ids are UUIDs`,
      );
    }
    const existing = this.locate(id);
    if (existing.length > 0 && !options.overwrite) {
      throw new ConflictError(
        "codex",
        `session ${id} already exists (use overwrite to replace it)`,
        {
          file: existing[0]?.path,
        },
      );
    }
    const started = info.timestamp ?? transcript.meta.timestamp;
    const path = join(this.home, rolloutRelativePath(id, started));
    const written = underUserProvider(lines, info.line, configuredProvider(this.home));
    const dir = dirname(path);
    const files: string[] = [];
    // Folders through symlinks are refused before anything is created.
    const made = mkdirInside(this.home, dir, "codex")[0];
    if (made !== undefined) files.push(made);
    try {
      sweepTemps(dir);
      sweepTemps(this.home);
      // Exclusive unless overwriting: of two concurrent saves, one wins.
      writeFileAtomic(path, linePieces(written), { exclusive: !options.overwrite });
      files.unshift(path);
      // An overwritten session may have lived elsewhere (another date, zstd, archived).
      for (const old of existing) {
        if (resolve(old.path) !== resolve(path))
          unlinkSync(realPathInside(this.home, old.path, "codex"));
      }
      const title = transcript.meta.title;
      if (
        title !== undefined &&
        title.trim() !== "" &&
        readSessionIndex(this.home).get(id) !== title.trim()
      ) {
        files.push(this.appendTitle(id, title));
      }
    } catch (cause) {
      throw saveError("codex", id, path, cause, `cannot save session ${id}`);
    }
    return { harness: "codex", id, path, files };
  }

  /**
   * Add `{id, thread_name, updated_at}` to session_index.jsonl by appending
   * one line in one write, as Codex itself does: a line a running Codex
   * appends meanwhile is never lost (a read-and-rename would drop it).
   */
  private appendTitle(id: string, title: string): string {
    const path = join(this.home, SESSION_INDEX);
    const entry = {
      id,
      thread_name: title.trim(),
      updated_at: new Date().toISOString().replace(/\.\d{3}Z$/, "Z"),
    };
    appendLine(path, JSON.stringify(entry));
    return path;
  }

  delete(id: string): string[] {
    this.checkId(id);
    const files = this.locate(id);
    if (files.length === 0)
      throw new NotFoundError("codex", `no Codex session ${id} under ${this.home}`);
    // Check every file before removing any, so a refusal removes nothing.
    const targets = files.map((f) => {
      const real = realPathInside(this.home, f.path, "codex");
      // A symlink is removed itself; what it points to is not the store's to delete.
      return lstatSync(f.path).isSymbolicLink() ? f.path : real;
    });
    for (const t of targets) unlinkSync(t);
    // session_index.jsonl is left as it is: Codex appends to it without a
    // lock and never rewrites it, so any rewrite here could drop a line a
    // running Codex appends meanwhile. A deleted session's name there names
    // nothing (no rollout has its id).
    return targets;
  }

  scan(): Fingerprint[] {
    return new CodexProbe({ root: this.home }).scan();
  }

  fingerprint(id: string): Fingerprint | undefined {
    try {
      this.checkId(id);
    } catch {
      return undefined;
    }
    const file = this.locate(id, true)[0];
    if (!file) return undefined;
    const st = statSync(file.path);
    return { files: [fileStamp(file.path, st)] };
  }
}
