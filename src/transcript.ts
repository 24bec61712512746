/**
 * The contracts every harness implements: the transcript container, the
 * codec (native Body <-> Common, no I/O), the text codec (native text <->
 * Body, no I/O), the store (disk), and `convert()` between text forms.
 */

import type { Message, Meta } from "./common.js";
import type { Timestamp } from "./time.js";
import type { Lines } from "./verbatim.js";

/** Every harness txcript knows. The registry switches over it exhaustively. */
export const HARNESS_IDS = [
  "antigravity",
  "simple",
  "claude_code",
  "codex",
  "gemini_cli",
  "opencode",
  "goose",
  "kiro",
  "pi",
  "copilot",
  "qwen_code",
  "cursor",
  "amp",
  "cline",
  "crush",
  "droid",
  "kilo",
  "grok",
] as const;
export type HarnessId = (typeof HARNESS_IDS)[number];

/** What people call each harness. The registry's entries take their labels from here. */
export const HARNESS_LABELS = {
  antigravity: "Antigravity CLI (agy)",
  simple: "Simple document",
  claude_code: "Claude Code",
  codex: "Codex",
  gemini_cli: "Gemini CLI",
  opencode: "OpenCode",
  goose: "Goose",
  kiro: "Kiro CLI",
  pi: "pi",
  copilot: "GitHub Copilot CLI",
  qwen_code: "Qwen Code",
  cursor: "Cursor",
  amp: "Amp",
  cline: "Cline",
  crush: "Crush",
  droid: "Factory Droid",
  kilo: "Kilo Code CLI",
  grok: "Grok CLI",
} as const satisfies Readonly<Record<HarnessId, string>>;

/** A harness with an on-disk store: every one but the simple document. */
export type StoredHarnessId = Exclude<HarnessId, "simple">;

/**
 * The harnesses with an on-disk store, in `HARNESS_IDS` order: those the
 * registry gives a `store` (a test holds the two to each other). Here so
 * that a command can name them without loading any harness.
 */
export const STORED_HARNESS_IDS: readonly StoredHarnessId[] = HARNESS_IDS.filter(
  (id): id is StoredHarnessId => id !== "simple",
);

/**
 * The short names people type for a harness (`--from agy`). One line per
 * alias; `satisfies` keeps every target a real harness id.
 */
export const HARNESS_ALIASES = {
  agy: "antigravity",
  claude: "claude_code",
  gemini: "gemini_cli",
  qwen: "qwen_code",
  kilocode: "kilo",
} as const satisfies Readonly<Record<string, HarnessId>>;

/** A harness id or alias (case-insensitive, `-` for `_`) as its id; undefined when unknown. */
export function harnessIdFor(name: string): HarnessId | undefined {
  const v = name.trim().toLowerCase().replace(/-/g, "_");
  if (isHarnessId(v)) return v;
  return ALIAS_IDS.get(v);
}

const ALIAS_IDS: ReadonlyMap<string, HarnessId> = new Map(Object.entries(HARNESS_ALIASES));

/** What `convert --from/--to` accept: every harness's text form, plus Common JSON. */
export const TEXT_FORMS = [...HARNESS_IDS, "common"] as const;
export type TextForm = (typeof TEXT_FORMS)[number];

export function isHarnessId(value: string): value is HarnessId {
  return HARNESS_IDS.some((id) => id === value);
}
export function isTextForm(value: string): value is TextForm {
  return TEXT_FORMS.some((form) => form === value);
}

/** The canonical body: the conversation as messages. */
export type Common = Message[];

/** A session: its metadata and its body, native or Common. */
export interface Transcript<Body> {
  meta: Meta;
  body: Body;
}

/** What `fromCommon` may be told besides the transcript. */
export interface FromCommonOptions {
  /**
   * Which of a harness's surfaces the Body is written for, when it has
   * several (agy: `cli`, the default, or `desktop`); other codecs ignore it.
   */
  surface?: string;
  /**
   * The Body is made only to be saved, once, by its harness's store
   * (`openStore(h).save`): a codec may then leave parts of it to be made as
   * the store writes them rather than hold them whole (agy's steps). Other
   * codecs ignore it.
   */
  forSave?: boolean;
}

/** Native Body <-> Common. Pure: no I/O, no clock, no randomness in fromCommon. */
export interface Codec<Body> {
  toCommon(transcript: Transcript<Body>): Transcript<Common>;
  /**
   * Deterministic: the same Common input (and options) gives byte-identical
   * output. A JSONL Body's lines may be made as they are walked, not held
   * (`Lines.generated`: Claude Code, Codex, Qwen Code, pi, Droid, Copilot
   * CLI), so that a store writes each as it is made; every walk makes the
   * same lines, and the transcript must be left unchanged while the Body
   * is in use. An error in making a line (a value too deep for JSON) is
   * then thrown by the walk, the save's write, which leaves no file.
   */
  fromCommon(transcript: Transcript<Common>, options?: FromCommonOptions): Transcript<Body>;
}

/** A file's first bytes (at most 64 KiB), and their text: what format detection reads. */
export interface Sample {
  bytes: Uint8Array;
  text: string;
}

/**
 * What a harness's detector says a sample is: its text form (parse it), or
 * a file only its store reads (an agy `.db`, a zstd Codex rollout).
 */
export type Recognized = "text" | "store-file";

/** Native text <-> Body. Pure. `origin` names the file in errors. */
export interface TextCodec<Body> {
  parse(text: string, origin?: string): Transcript<Body>;
  /**
   * `parse` for a line-based (JSONL) form, from its lines already split:
   * a file's bytes through `Lines.fromBytes`, so that a huge session given
   * by path is never one string. The caller has checked the line count
   * (`checkLineCount`); the transcript and the errors are `parse`'s of
   * the lines' text.
   */
  parseLines?(lines: Lines, origin?: string): Transcript<Body>;
  render(transcript: Transcript<Body>): string;
  /**
   * The same text in pieces (a line at a time) for output that is a stream,
   * where a form allows it: a huge session's text may be longer than one
   * string can be. Joined, exactly `render`'s text.
   */
  renderPieces?(transcript: Transcript<Body>): Iterable<string>;
  /**
   * Whether a file's first bytes are this harness's (pure, cheap, on the
   * sample alone). Detectors of different harnesses must not both claim a
   * file their own writer produced.
   */
  detect?(sample: Sample): Recognized | undefined;
}

/** One file's path, mtime and size, as a fingerprint holds it. */
export interface FileStamp {
  path: string;
  mtime_ms: number;
  size: number;
}

/** mtime and size of every file a session consists of, for caches. */
export interface Fingerprint {
  files: FileStamp[];
}

/** The stamp of the file at `path`, from its stat. */
export function fileStamp(path: string, st: { mtimeMs: number; size: number }): FileStamp {
  return { path, mtime_ms: st.mtimeMs, size: st.size };
}

/** One session found by a discovery scan: what a listing needs, no more. */
export interface Discovered {
  harness: HarnessId;
  id: string;
  /** The session's main file. */
  path: string;
  /** id, timestamp (created), cwd, git_branch, title, model when known. */
  meta: Meta;
  /** Last activity. */
  updated: Timestamp;
  /** Messages as `view` would number them, or an estimate documented by the store. */
  message_count: number;
  fingerprint: Fingerprint;
  /** Which writer produced it when a harness has several (agy: `cli`, `acp`, `desktop`). */
  lane?: string;
  /** The harness's own run status when it keeps one (agy: `CASCADE_RUN_STATUS_…`). */
  status?: string;
  /** True when the harness says the session is still running. */
  running?: boolean;
  /** The conversation that spawned this one (a subagent). */
  parent_id?: string;
  /** The conversation this one was forked from. */
  forked_from?: string;
  /** The harness (or document form) `forked_from` is in, when known: a copy `continue` wrote. */
  forked_from_harness?: TextForm;
}

/** A file a scan passed over, and why. */
export interface Skipped {
  path: string;
  reason: string;
}

export interface Discovery {
  sessions: Discovered[];
  skipped: Skipped[];
}

export interface DiscoverOptions {
  /** Called as files are scanned, for progress display. */
  onProgress?: (done: number, total: number) => void;
  /**
   * Only the sessions whose main file (`Discovered.path`, the first file of
   * its `scan()` fingerprint) is one of these: the index re-reads what
   * changed and nothing else. A store may ignore it and list everything.
   */
  paths?: ReadonlySet<string>;
}

/** How a store finds its root; every field optional. */
export interface StoreOptions {
  /** An explicit root directory: overrides the environment and the default. */
  root?: string;
  /** The environment to read HOME, GEMINI_HOME and TXCRIPT_* from (default: process.env). */
  env?: Readonly<Record<string, string | undefined>>;
}

export interface SaveOptions {
  /** Replace an existing session with the same id. Default: refuse. */
  overwrite?: boolean;
  /** The surface to write for (see `FromCommonOptions.surface`); the Body's codec takes it. */
  surface?: string;
  /**
   * The Body is made only to be saved, once, by its harness's store
   * (`openStore(h).save`): a codec may then leave parts of it to be made as
   * the store writes them rather than hold them whole (agy's steps). Other
   * codecs ignore it.
   */
  forSave?: boolean;
}

export interface Saved {
  harness: HarnessId;
  id: string;
  /** The session's main file. */
  path: string;
  /** Every file and directory written. */
  files: string[];
  /** Which surface it was written for, when the harness has several (agy: `cli`, `desktop`). */
  lane?: string;
  /** One line each on what the save left undone and why (agy: a summaries row it skipped). */
  notes?: string[];
}

/**
 * The part of a store the index checks before every command: its roots,
 * and `scan()` or `stamp()`, from directory listings and stat alone. Each
 * harness has it in its own `probe.ts`, which loads no parser or codec, so
 * a warm `list` loads none either.
 */
/** What the index holds from the last scan, by a session's main file. */
export interface PreviousScan {
  /** The files of the session's fingerprint at the last scan; undefined when unknown. */
  files(main: string): readonly FileStamp[] | undefined;
  /**
   * Whether the last scan's fingerprint of `main` held a stamp of `path`,
   * asked without reading it back (a hint: false where it cannot tell).
   */
  holds(main: string, path: string): boolean;
  /** Whether `files` are the last scan's fingerprint of `main`, stamp for stamp. */
  same(main: string, files: readonly FileStamp[]): boolean;
}

export interface StoreProbe {
  /** The store root directories this instance reads. */
  readonly roots: readonly string[];
  /**
   * Optional, for the index: the fingerprint of every file discovery would
   * read, main file first, from directory listings and stat alone (no
   * session file is opened). A store without it is re-discovered whole on
   * every refresh. The index passes `previous`, what it holds from the
   * last scan by main file, and compares what comes back only with that: a
   * probe may use it to stat less, and may stamp a folder in place of files
   * it stands for (agy: an empty logs folder whose stamp has not moved needs
   * no stat of each log), where without it the fingerprint is the one
   * `fingerprint(id)` and discovery give.
   */
  scan?(previous?: PreviousScan): Fingerprint[];
  /**
   * Optional, for the index, for a store without `scan()` whose sessions
   * share files (OpenCode's database): a summary of those files from stat
   * alone that changes whenever anything discovery reads changes, or
   * undefined when the store cannot tell. An unchanged stamp spares a
   * whole re-discovery.
   */
  stamp?(): string | undefined;
}

/** Where a session lives on disk, and how to find, read, write and remove it. */
export interface Store<Body> extends StoreProbe {
  readonly harness: HarnessId;
  /** Asynchronous: a store may spread the scan over worker threads. */
  discover(options?: DiscoverOptions): Promise<Discovery>;
  /**
   * The ids of the sessions this store holds, from file names alone (no
   * session file is opened), sorted and without duplicates; cheap enough to
   * run on every id lookup. A listed id may still fail to load.
   */
  ids(): string[];
  /** Load by exact id. Never modifies the source. */
  load(id: string): Transcript<Body>;
  /**
   * Load by exact id for one reading that needs no round trip (showing or
   * converting the session): `read` gets the session while the store holds
   * it open, and its result is returned. The Body may lack what only a save
   * needs and may give its rows as they are read, once, and only inside
   * `read`; it is never saved. Absent: `read(load(id))` does the same.
   */
  loadFor?<T>(id: string, read: (transcript: Transcript<Body>) => T): T;
  /** Write atomically; resumable by the harness. */
  save(transcript: Transcript<Body>, options?: SaveOptions): Saved;
  /** Remove the session's files inside the root; returns what was removed. */
  delete(id: string): string[];
  fingerprint(id: string): Fingerprint | undefined;
  /**
   * SHA-256 (hex) of what session `id` itself holds, for a store whose
   * file is shared by many sessions (a database): the copy ledger judges a
   * copy by this, so other sessions' writes do not make it look changed.
   * Absent: the session's file is its own, hashed whole.
   */
  digest?(id: string): string | undefined;
}

/** A command line that reopens a saved session in its harness. */
export interface ResumeCommand {
  /** argv: the program, then its arguments. */
  argv: [program: string, ...args: string[]];
  /** Where to run it (some harnesses scope sessions by directory). */
  cwd?: string;
  /** Environment the command needs: for a copy under `--out DIR`, the harness's own variable naming DIR. */
  env?: Record<string, string>;
}

/**
 * Where a copy written under `continue --out DIR` lives, and what points
 * the harness at it: DIR is the harness's own home (or data) directory as
 * one of its environment variables names it, so the copy is self-contained
 * and resumes from wherever DIR is moved to.
 */
export interface OutHome {
  /** The store root inside DIR (what `StoreOptions.root` takes). */
  root: string;
  /** The harness's own variables that make it read DIR, e.g. `CLAUDE_CONFIG_DIR`. */
  env: Record<string, string>;
  /** One line a user of such a copy needs to know (continue prints it on stderr). */
  notice?: string;
}

/**
 * One harness: its codec, text codec, store and resume command, tied to
 * one native Body type. The registry (src/harness/index.ts) holds one per
 * id and checks with `satisfies` that each entry carries its own id.
 */
export interface Harness<Id extends HarnessId = HarnessId, Body = unknown> {
  readonly id: Id;
  /** What people call it. */
  readonly label: string;
  readonly codec: Codec<Body>;
  readonly text: TextCodec<Body>;
  /** Absent for harnesses with no on-disk store (Simple). */
  readonly store?: (options?: StoreOptions) => Store<Body>;
  /** How to reopen a saved session. Absent (or undefined for that save) when the harness cannot resume it. */
  readonly resume?: (saved: Saved, meta: Meta) => ResumeCommand | undefined;
  /**
   * The layout of a copy under `--out DIR` (`dir` absolute; `surface` as
   * given to continue). Absent: the harness cannot be pointed at another
   * directory, and `--out` is refused for it before anything is written.
   */
  readonly outHome?: (dir: string, surface: string | undefined) => OutHome;
  /** Without `outHome`: why `--out` is refused, when there is more to say than that the harness cannot be moved. */
  readonly outRefusal?: string;
}
