/**
 * The machine's sessions as a long-lived server sees them: listings and
 * loaded transcripts kept between calls and reused while every file of a
 * session keeps its fingerprint (mtime and size), so a warm call costs a
 * directory read and a stat per session instead of opening every database.
 * A session that changes on disk is simply read again.
 */

import type { Env } from "../env.js";
import { harness as harnessOf, storedHarnesses } from "../harness/index.js";
import { type Loaded, Local, type Located, type SkippedIn } from "../local.js";
import { compareTimestamps } from "../time.js";
import type { Discovered, Fingerprint, HarnessId } from "../transcript.js";

export interface CatalogOptions {
  env: Env;
  /** Root overrides per harness (the CLI's `--<harness>-root` flags). */
  roots?: Partial<Record<HarnessId, string>>;
  /** How many loaded transcripts to keep (default 8). */
  keepLoaded?: number;
}

export interface CatalogListing {
  /** Newest activity first (ties by id), as `list` orders them. */
  sessions: Discovered[];
  skipped: SkippedIn[];
}

/** A loaded session and the fingerprint it was read at. */
export interface LoadedAt extends Loaded {
  /** The fingerprint as a string: equal strings, unchanged files. */
  version: string;
}

interface HarnessListing {
  key: string;
  sessions: Discovered[];
  skipped: SkippedIn[];
}

export function fingerprintKey(fp: Fingerprint | undefined): string {
  return fp === undefined
    ? "-"
    : fp.files.map((f) => `${f.path}\u0000${f.mtime_ms}\u0000${f.size}`).join("\u0001");
}

export class Catalog {
  private readonly locals = new Map<HarnessId | "*", Local>();
  private readonly listings = new Map<HarnessId, HarnessListing>();
  private readonly loaded = new Map<string, LoadedAt>();
  private readonly keepLoaded: number;

  constructor(private readonly options: CatalogOptions) {
    this.keepLoaded = options.keepLoaded ?? 8;
  }

  /** A Local over every store, or over one harness's (for prefix lookups narrowed by it). */
  local(from?: HarnessId): Local {
    const key = from ?? "*";
    let local = this.locals.get(key);
    if (!local) {
      local = new Local({
        env: this.options.env,
        ...(this.options.roots ? { roots: this.options.roots } : {}),
        ...(from ? { from } : {}),
      });
      this.locals.set(key, local);
    }
    return local;
  }

  /** The current fingerprint of one session (as a key), `-` when it is gone. */
  version(located: Located): string {
    try {
      return fingerprintKey(this.local().store(located.harness).fingerprint(located.id));
    } catch {
      return "-";
    }
  }

  /** Every session of every store (or of `only`), rediscovering only the stores that changed. */
  async list(only?: HarnessId): Promise<CatalogListing> {
    const sessions: Discovered[] = [];
    const skipped: SkippedIn[] = [];
    for (const h of storedHarnesses()) {
      if (only !== undefined && h.id !== only) continue;
      const listing = await this.listHarness(h.id);
      sessions.push(...listing.sessions);
      skipped.push(...listing.skipped);
    }
    sessions.sort((a, b) => compareTimestamps(b.updated, a.updated) || a.id.localeCompare(b.id));
    return { sessions, skipped };
  }

  private async listHarness(id: HarnessId): Promise<HarnessListing> {
    const store = this.local().store(id);
    // The key is taken before discovery: a file that changes during it
    // makes the next call look again, never the other way round.
    let key: string;
    try {
      key = store
        .ids()
        .map((sid) => `${sid}\u0002${fingerprintKey(store.fingerprint(sid))}`)
        .join("\u0003");
    } catch {
      key = `unreadable-${Date.now()}-${Math.random()}`;
    }
    const cached = this.listings.get(id);
    if (cached && cached.key === key) return cached;
    const found = await store.discover();
    const listing: HarnessListing = {
      key,
      sessions: found.sessions,
      skipped: found.skipped.map((s) => ({ ...s, harness: id })),
    };
    this.listings.set(id, listing);
    return listing;
  }

  /** An exact id or unique prefix, across the stores or in `from`'s. */
  resolve(ref: string, from?: HarnessId): Located {
    return this.local(from).resolve(ref);
  }

  /** Load as Common, reusing the last load while the session's files are unchanged. */
  load(located: Located): LoadedAt {
    const key = `${located.harness}/${located.id}`;
    const version = this.version(located);
    const hit = this.loaded.get(key);
    if (hit && hit.version === version && version !== "-") {
      // Most recently used last.
      this.loaded.delete(key);
      this.loaded.set(key, hit);
      return hit;
    }
    const loaded: LoadedAt = { ...this.local().load(located), version };
    this.loaded.delete(key);
    this.loaded.set(key, loaded);
    while (this.loaded.size > this.keepLoaded) {
      const oldest = this.loaded.keys().next().value;
      if (oldest === undefined) break;
      this.loaded.delete(oldest);
    }
    return loaded;
  }

  label(id: HarnessId): string {
    return harnessOf(id).label;
  }
}
