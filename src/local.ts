/**
 * The sessions on this machine, across every harness with a store: list
 * them, resolve an id or unique prefix, load one as Common, and continue a
 * Common transcript into a target harness's store (always a copy).
 */

import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parse as shellParse } from "shell-quote";
import type { Meta } from "./common.js";
import { CopyLedger, fileSha256, type Origin } from "./copies.js";
import type { Env } from "./env.js";
import {
  AmbiguousIdError,
  describeCause,
  NotFoundError,
  TxcriptError,
  UnsupportedError,
} from "./errors.js";
import {
  type CommonStore,
  commonToTextPieces,
  type Harness,
  harness,
  openStore,
  type ResumeCommand,
  storedHarnesses,
} from "./harness/index.js";
import { stableUuid } from "./ids.js";
import { assignDefined, defined } from "./json.js";
import { compareTimestamps, nowTimestamp } from "./time.js";
import type {
  Common,
  Discovered,
  HarnessId,
  OutHome,
  Saved,
  Skipped,
  Store,
  StoreOptions,
  Transcript,
} from "./transcript.js";

export interface LocalOptions {
  env: Env;
  /** Root overrides per harness (command-line flags). */
  roots?: Partial<Record<HarnessId, string>>;
  /** Only this harness. */
  from?: HarnessId;
}

export interface SkippedIn extends Skipped {
  harness: HarnessId;
}

export interface Listing {
  sessions: Discovered[];
  skipped: SkippedIn[];
  /** Stores that could not be read at all (path: the store root), and why; the others are listed. */
  unreadable: SkippedIn[];
}

/** A store that failed as a whole: its root and a one-line reason naming the file. */
function unreadableStore(store: Store<unknown>, h: Harness, cause: unknown): SkippedIn {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return { harness: h.id, path: store.roots[0] ?? h.id, reason };
}

export interface ListOptions {
  /** Only sessions whose cwd is this directory or below it. */
  cwd?: string;
  limit?: number;
  onProgress?: (harness: HarnessId, done: number, total: number) => void;
}

/** A session named by harness and exact id. */
export interface Located {
  harness: HarnessId;
  id: string;
}

export interface Loaded {
  located: Located;
  transcript: Transcript<Common>;
  /** The session's main file, when the store reports one. */
  path?: string;
}

/** Is `child` the directory `dir` or below it? Plain path logic: both may not exist here. */
function isUnderDir(child: string, dir: string): boolean {
  const norm = (p: string) => p.replace(/\\/g, "/").replace(/\/+$/, "") || "/";
  const c = norm(child);
  const d = norm(dir);
  return c === d || c.startsWith(d === "/" ? "/" : `${d}/`);
}

export class Local {
  private readonly opened = new Map<HarnessId, CommonStore>();

  constructor(readonly options: LocalOptions) {}

  private copies: CopyLedger | undefined;

  private ledger(): CopyLedger {
    this.copies ??= new CopyLedger(this.options.env);
    return this.copies;
  }

  /** The session a copy was made from, when `continue` wrote it. */
  lineage(located: Located): Origin | undefined {
    return this.ledger().lookup(located.harness, located.id)?.from;
  }

  /** The harnesses this instance reads: every stored one, or just `from`. */
  harnesses(): Harness[] {
    const all = storedHarnesses();
    return this.options.from ? all.filter((h) => h.id === this.options.from) : all;
  }

  /** The harness's native store (for what needs no Body: discover, ids, fingerprint, delete). */
  store(id: HarnessId): Store<unknown> {
    return this.commonStore(id).native;
  }

  /** The harness's store seen through Common (load and save convert with its own codec). */
  commonStore(id: HarnessId): CommonStore {
    let store = this.opened.get(id);
    if (!store) {
      const h: Harness = harness(id);
      const opts: StoreOptions = { env: this.options.env };
      const root = this.options.roots?.[id];
      assignDefined(opts, "root", root);
      store = openStore(h, opts);
      if (!store) throw new TxcriptError(id, `${h.label} has no session store`);
      this.opened.set(id, store);
    }
    return store;
  }

  /** Every session, newest activity first. */
  async list(options: ListOptions = {}): Promise<Listing> {
    const sessions: Discovered[] = [];
    const skipped: SkippedIn[] = [];
    const unreadable: SkippedIn[] = [];
    for (const h of this.harnesses()) {
      const { onProgress } = options;
      const store = this.store(h.id);
      let found: Awaited<ReturnType<typeof store.discover>>;
      try {
        found = await store.discover(
          onProgress ? { onProgress: (done, total) => onProgress(h.id, done, total) } : {},
        );
      } catch (cause) {
        // One broken store (HOME a file, an unreadable root) costs only its own sessions.
        unreadable.push(unreadableStore(store, h, cause));
        continue;
      }
      sessions.push(...found.sessions);
      skipped.push(...found.skipped.map((s) => ({ ...s, harness: h.id })));
    }
    // A copy `continue` wrote names its source in txcript's ledger.
    this.ledger().annotate(sessions);
    let out = sessions;
    const { cwd } = options;
    if (cwd !== undefined)
      out = out.filter((s) => s.meta.cwd !== undefined && isUnderDir(s.meta.cwd, cwd));
    out.sort((a, b) => compareTimestamps(b.updated, a.updated) || a.id.localeCompare(b.id));
    if (options.limit !== undefined) out = out.slice(0, options.limit);
    return { sessions: out, skipped, unreadable };
  }

  /**
   * An exact id, else a unique prefix of one, across the stores. Only file
   * names are read (`Store.ids`), so a lookup costs the same whatever the
   * size of the stores, and a damaged session can still be named (its load
   * then says what is wrong with it).
   */
  resolve(ref: string): Located {
    if (ref === "")
      throw new NotFoundError(this.options.from, "an empty session id matches nothing");
    const broken: SkippedIn[] = [];
    const all: Located[] = this.harnesses().flatMap((h) => {
      const store = this.store(h.id);
      try {
        return store.ids().map((id) => ({ harness: h.id, id }));
      } catch (cause) {
        broken.push(unreadableStore(store, h, cause));
        return [];
      }
    });
    const exact = all.filter((s) => s.id === ref);
    const matches = (exact.length > 0 ? exact : all.filter((s) => s.id.startsWith(ref))).sort(
      (a, b) => a.id.localeCompare(b.id) || a.harness.localeCompare(b.harness),
    );
    const [only] = matches;
    if (matches.length === 1 && only) return only;
    const where = this.options.from ? ` in ${harness(this.options.from).label}` : "";
    if (matches.length === 0) {
      const unread = broken.map((b) => `; not searched: ${b.reason}`).join("");
      throw new NotFoundError(this.options.from, `no session matches "${ref}"${where}${unread}`);
    }
    // Each candidate says which is a copy of which, and when it started and
    // what it is about: neither is preferred silently, and whole ids alone
    // do not tell a person which one they meant.
    const candidates = matches.map((s, i) => this.describeCandidate(s, i < 10));
    const shown = candidates.slice(0, 10).join(", ");
    const more = candidates.length > 10 ? `, and ${candidates.length - 10} more` : "";
    // The door adds how to narrow by harness in its own words (errorLine).
    throw new AmbiguousIdError(
      this.options.from,
      `"${ref}" ${exact.length > 0 ? "is the id of" : "matches"} ${matches.length} sessions${where}: ${shown}${more}`,
      candidates,
      { harnesses: [...new Set(matches.map((s) => s.harness))], sameId: exact.length > 0 },
    );
  }

  /** `<id> (<harness>, <start date>, "<title>", copy of …)`: as much as can be read of it. */
  private describeCandidate(s: Located, read: boolean): string {
    const parts: string[] = [s.harness];
    // The title as every door shows it (a harness may name an untitled
    // session by its first prompt only in its Common projection); only for
    // the candidates the line shows.
    if (read)
      try {
        const { meta } = this.commonStore(s.harness).load(s.id);
        if (meta.timestamp) parts.push(meta.timestamp.slice(0, 16).replace("T", " "));
        const title = meta.title?.replace(/\s+/g, " ").trim();
        if (title) parts.push(JSON.stringify(title.length > 40 ? `${title.slice(0, 39)}…` : title));
      } catch {
        // A damaged candidate is still a candidate: its id and harness say enough.
      }
    const from = this.lineage(s);
    if (from) parts.push(`copy of ${from.id} in ${from.harness}`);
    return `${s.id} (${parts.join(", ")})`;
  }

  load(located: Located): Loaded {
    const store = this.commonStore(located.harness);
    const loaded: Loaded = { located, transcript: store.load(located.id) };
    const path = store.native.fingerprint(located.id)?.files[0]?.path;
    assignDefined(loaded, "path", path);
    return loaded;
  }

  remove(located: Located): string[] {
    return this.store(located.harness).delete(located.id);
  }
}

export interface ContinueOptions {
  env: Env;
  /**
   * Write under this directory instead of the harness's real store: DIR is
   * the harness's own home as its variable names it (`Harness.outHome`),
   * and the resume command carries that variable.
   */
  root?: string;
  /** The working directory to give a session that names none (the harness resumes there). */
  defaultCwd?: string;
  /** Where the transcript comes from (default: a Simple document with its id). */
  source?: Origin;
  /** The target harness's surface to write for, when it has several (agy: `cli`, `desktop`). */
  surface?: string;
}

/**
 * What became of the copy: `new` (written), `updated` (an earlier copy
 * nobody had touched, rewritten from the source), `unchanged` (an earlier
 * copy already holding exactly this).
 */
type CopyStatus = "new" | "updated" | "unchanged";

export interface Continued {
  saved: Saved;
  transcript: Transcript<Common>;
  status: CopyStatus;
  /** Earlier copies of the same source into the same harness that were changed since txcript wrote them (left alone). */
  kept: string[];
  /** What a user of a copy under `--out DIR` needs to know (`OutHome.notice`). */
  notice?: string;
  /** Why the lineage could not be recorded, when it could not (the copy is written all the same). */
  unrecorded?: string;
  resume?: ResumeCommand & { overridden: boolean };
}

/**
 * A copy's messages without their token counts: they were spent in the
 * source session and are counted there. A copy that carried them would be
 * counted again by anything that totals the target's store (ccusage totals
 * Claude Code and Codex files as they stand: a Codex session copied into
 * Claude Code would show GPT tokens under Claude). Only the turns the
 * resumed harness adds carry usage.
 */
function withoutUsage(body: Common): Common {
  return body.map((m) => {
    if (m.usage === undefined) return m;
    const { usage: _spent, ...rest } = m;
    return rest;
  });
}

/**
 * The id of the `n`th copy of `source` into `target`: deterministic, so a
 * repeat finds its copy. A copy for a surface other than the default (agy's
 * desktop app) has ids of its own, so it never takes the place of, or is
 * taken for, the CLI's copy of the same source.
 */
export function copyId(source: Origin, target: HarnessId, n: number, surface?: string): string {
  return surface === undefined || surface === "cli"
    ? stableUuid("copy", source.harness, source.id, target, n)
    : stableUuid("copy", source.harness, source.id, target, surface, n);
}

/**
 * Does the session file hold exactly the bytes txcript would write for
 * `copy`? (Stores whose file is their text form; an agy database never
 * compares equal, so a copy txcript has no record of is never taken for
 * its own.) Compared a piece at a time as the text is made (a line, for a
 * JSONL form), against the file's bytes: neither the file as a string nor
 * the whole rendering is held, which for a huge session cost more than
 * its Common transcript.
 */
function holdsExactly(store: CommonStore, path: string, copy: Transcript<Common>): boolean {
  try {
    const bytes = readFileSync(path);
    const encoder = new TextEncoder();
    let at = 0;
    for (const piece of commonToTextPieces(store.harness, copy)) {
      const encoded = encoder.encode(piece);
      const end = at + encoded.length;
      if (end > bytes.length || Buffer.compare(bytes.subarray(at, end), encoded) !== 0)
        return false;
      at = end;
    }
    return at === bytes.length;
  } catch {
    return false;
  }
}

/**
 * Write a copy of `transcript` into `target`'s store, under its own id (a
 * UUIDv5 of the source and the target). Repeating finds the earlier copy:
 * one that holds the same is left as it is, one nobody changed since
 * txcript wrote it (its recorded SHA-256) is brought up to date, and one
 * the user has changed is never overwritten: the next id is used instead.
 */
export function continueInto(
  transcript: Transcript<Common>,
  target: HarnessId,
  options: ContinueOptions,
): Continued {
  const h: Harness = harness(target);
  const opts: StoreOptions = { env: options.env };
  const out = outLayout(h, options.root, options.surface);
  assignDefined(opts, "root", out?.root);
  const store = openStore(h, opts);
  if (!store)
    throw new TxcriptError(target, `cannot continue into ${h.label}: it has no session store`);
  const override = resumeOverride(h, options.env); // a bad one fails before anything is written
  const source = options.source ?? { harness: "simple", id: transcript.meta.id };
  const ledger = new CopyLedger(options.env);
  const kept: string[] = [];
  for (let n = 0; ; n++) {
    const id = copyId(source, target, n, options.surface);
    const meta = { ...transcript.meta, id };
    if (meta.cwd === undefined && options.defaultCwd !== undefined) meta.cwd = options.defaultCwd;
    const copy: Transcript<Common> = { meta, body: withoutUsage(transcript.body) };
    const existing = store.native.fingerprint(id)?.files[0]?.path;
    // A copy is judged by what it holds: its own rows in a shared database, else its file.
    const hashOf = (path: string) =>
      store.native.digest ? store.native.digest(id) : fileSha256(path);
    let status: CopyStatus = "new";
    let before: string | undefined;
    if (existing !== undefined) {
      before = hashOf(existing);
      const written = ledger.lookup(target, id)?.sha256;
      if (written !== undefined && written === before) status = "updated";
      else if (holdsExactly(store, existing, copy)) status = "unchanged";
      else {
        kept.push(id);
        continue;
      }
    }
    const saved: Saved =
      status === "unchanged" && existing !== undefined
        ? { harness: target, id, path: existing, files: [] }
        : store.save(copy, {
            ...(status === "updated" ? { overwrite: true } : {}),
            ...defined({ surface: options.surface }),
          });
    const after = hashOf(saved.path);
    // Rewriting an untouched copy with what it already held changes nothing.
    if (status === "updated" && after !== undefined && after === before) status = "unchanged";
    const result: Continued = { saved, transcript: copy, status, kept };
    assignDefined(result, "notice", out?.notice);
    if (ledger.lookup(target, id)?.sha256 !== after) {
      try {
        ledger.record({
          harness: target,
          id,
          from: source,
          sha256: after ?? "",
          path: saved.path,
          written: nowTimestamp(),
        });
      } catch (error) {
        result.unrecorded = `${ledger.path}: ${describeCause(error)}`;
      }
    }
    const resume = resumeWith(h, saved, copy.meta, override);
    if (resume) result.resume = out === undefined ? resume : { ...resume, env: out.env };
    return result;
  }
}

/**
 * Where a copy under `--out DIR` goes (`Harness.outHome`), or undefined
 * without one; refused before anything is written for a harness that
 * cannot be pointed at another directory.
 */
function outLayout(
  h: Harness,
  dir: string | undefined,
  surface: string | undefined,
): OutHome | undefined {
  if (dir === undefined) return undefined;
  if (h.outHome === undefined)
    throw new UnsupportedError(
      h.id,
      h.outRefusal ??
        `${h.label} cannot be pointed at another directory, so a copy cannot be written under --out; continue without --out`,
    );
  return h.outHome(resolve(dir), surface);
}

/**
 * `TXCRIPT_<HARNESS>_RESUME_CMD` as words (`{id}` not yet filled in), or
 * undefined when unset; a value that is not a plain command fails here,
 * before anything is written.
 */
function resumeOverride(h: Harness, env: Env): [string, ...string[]] | undefined {
  const name = `TXCRIPT_${h.id.toUpperCase()}_RESUME_CMD`;
  const override = env[name];
  if (override === undefined || override.trim() === "") return undefined;
  const words = shellParse(override).flatMap((t) => {
    if (typeof t === "string") return [t];
    if ("comment" in t) return []; // `# ...` to the end, as a shell reads it
    throw new TxcriptError(
      h.id,
      `${name} may hold a command and its arguments only, not shell operators`,
    );
  });
  const [program, ...args] = words;
  // A value such as "# a note" parses to no words at all.
  if (program === undefined) throw new TxcriptError(h.id, `${name} holds no command`);
  return [program, ...args];
}

/** The harness's resume command, or `TXCRIPT_<HARNESS>_RESUME_CMD` with `{id}` filled in. */
export function resumeCommand(
  h: Harness,
  saved: Saved,
  meta: Meta,
  env: Env,
): (ResumeCommand & { overridden: boolean }) | undefined {
  return resumeWith(h, saved, meta, resumeOverride(h, env));
}

/** The resume command, given the override's words (`resumeOverride`). */
function resumeWith(
  h: Harness,
  saved: Saved,
  meta: Meta,
  override: [string, ...string[]] | undefined,
): (ResumeCommand & { overridden: boolean }) | undefined {
  const base = h.resume?.(saved, meta);
  if (override) {
    const fill = (word: string) => word.replaceAll("{id}", saved.id);
    const [program, ...args] = override;
    const cmd: ResumeCommand & { overridden: boolean } = {
      argv: [fill(program), ...args.map(fill)],
      overridden: true,
    };
    assignDefined(cmd, "cwd", base?.cwd);
    return cmd;
  }
  return base && { ...base, overridden: false };
}
