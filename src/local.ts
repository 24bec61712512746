/**
 * The sessions on this machine, across every harness with a store: list
 * them, resolve an id or unique prefix, load one as Common, and continue a
 * Common transcript into a target harness's store (always a copy).
 */

import { parse as shellParse } from "shell-quote";
import type { Meta } from "./common.js";
import type { Env } from "./env.js";
import { AmbiguousIdError, NotFoundError, TxcriptError } from "./errors.js";
import {
  type CommonStore,
  type Harness,
  harness,
  openStore,
  type ResumeCommand,
  storedHarnesses,
} from "./harness/index.js";
import { isUuid, stableUuid } from "./ids.js";
import { compareTimestamps } from "./time.js";
import type {
  Common,
  Discovered,
  HarnessId,
  Saved,
  Skipped,
  Store,
  StoreOptions,
  Transcript,
} from "./transcript.js";

export type { Env };

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
export function isUnderDir(child: string, dir: string): boolean {
  const norm = (p: string) => p.replace(/\\/g, "/").replace(/\/+$/, "") || "/";
  const c = norm(child);
  const d = norm(dir);
  return c === d || c.startsWith(d === "/" ? "/" : `${d}/`);
}

export class Local {
  private readonly opened = new Map<HarnessId, CommonStore>();

  constructor(readonly options: LocalOptions) {}

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
      if (root !== undefined) opts.root = root;
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
    const candidates = matches.map((s) => `${s.id} (${s.harness})`);
    const shown = candidates.slice(0, 10).join(", ");
    const more = candidates.length > 10 ? `, and ${candidates.length - 10} more` : "";
    throw new AmbiguousIdError(
      this.options.from,
      `"${ref}" matches ${matches.length} sessions${where}: ${shown}${more}; give more of the id${this.options.from ? "" : " or --from"}`,
      candidates,
    );
  }

  load(located: Located): Loaded {
    const store = this.commonStore(located.harness);
    const loaded: Loaded = { located, transcript: store.load(located.id) };
    const path = store.native.fingerprint(located.id)?.files[0]?.path;
    if (path !== undefined) loaded.path = path;
    return loaded;
  }

  remove(located: Located): string[] {
    return this.store(located.harness).delete(located.id);
  }
}

export interface ContinueOptions {
  env: Env;
  /** Write under this directory instead of the harness's real store. */
  root?: string;
  /** The working directory to give a session that names none (the harness resumes there). */
  defaultCwd?: string;
}

export interface Continued {
  saved: Saved;
  transcript: Transcript<Common>;
  resume?: ResumeCommand & { overridden: boolean };
}

/**
 * Write a copy of `transcript` into `target`'s store. The copy keeps the
 * session id when it is a UUID the target does not hold yet; otherwise it
 * gets a fresh id derived from the original (deterministic, never random).
 */
export function continueInto(
  transcript: Transcript<Common>,
  target: HarnessId,
  options: ContinueOptions,
): Continued {
  const h: Harness = harness(target);
  const opts: StoreOptions = { env: options.env };
  if (options.root !== undefined) opts.root = options.root;
  const store = openStore(h, opts);
  if (!store)
    throw new TxcriptError(target, `cannot continue into ${h.label}: it has no session store`);
  let id = transcript.meta.id;
  for (let n = 0; !isUuid(id) || store.native.fingerprint(id) !== undefined; n++) {
    id = stableUuid("continue", target, transcript.meta.id, n);
  }
  const meta = { ...transcript.meta, id };
  if (meta.cwd === undefined && options.defaultCwd !== undefined) meta.cwd = options.defaultCwd;
  const copy: Transcript<Common> = { meta, body: transcript.body };
  const saved = store.save(copy);
  const resume = resumeCommand(h, saved, copy.meta, options.env);
  return resume ? { saved, transcript: copy, resume } : { saved, transcript: copy };
}

/** The harness's resume command, or `TXCRIPT_<HARNESS>_RESUME_CMD` with `{id}` filled in. */
export function resumeCommand(
  h: Harness,
  saved: Saved,
  meta: Meta,
  env: Env,
): (ResumeCommand & { overridden: boolean }) | undefined {
  const base = h.resume?.(saved, meta);
  const override = env[`TXCRIPT_${h.id.toUpperCase()}_RESUME_CMD`];
  if (override !== undefined && override.trim() !== "") {
    const argv = shellParse(override).map((t) => {
      if (typeof t !== "string") {
        throw new TxcriptError(
          h.id,
          `TXCRIPT_${h.id.toUpperCase()}_RESUME_CMD may hold a command and its arguments only, not shell operators`,
        );
      }
      return t.replaceAll("{id}", saved.id);
    });
    const cmd: ResumeCommand & { overridden: boolean } = { argv, overridden: true };
    if (base?.cwd !== undefined) cmd.cwd = base.cwd;
    return cmd;
  }
  return base && { ...base, overridden: false };
}
