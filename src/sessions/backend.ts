/**
 * A memory behind the sessions service other than the local index: a
 * shared archive (src/archive/, PostgreSQL) answers `list`, `query`,
 * `usage`, `resolve` and `load` with the same types the index and the
 * stores do, so every door's output keeps its schema. `Sessions` takes one
 * as `SessionsOptions.backend`; a door (the CLI's `--archive`, `txcript
 * serve`) builds it and hands it over, and never calls it directly.
 *
 * Contract: every method answers as of the backend's own data (no local
 * refresh); errors are TxcriptErrors with one line that never carries a
 * password; `close()` returns at once and may finish in the background.
 */

import type {
  Hit,
  IndexedId,
  ListRequest,
  QueryRequest,
  UsageBucket,
  UsageFilter,
} from "../index/session-index.js";
import type { Loaded, Located } from "../local.js";
import type { Discovered, HarnessId } from "../transcript.js";

export interface SessionsBackend {
  /** What the backend is, for messages (an archive's URL, its password hidden). */
  readonly label: string;
  /** Sessions, newest activity first (then id, then harness). */
  list(request: ListRequest): Promise<Discovered[]>;
  /** Hits of `terms` (the one query parser, index/terms.ts), best first, after offset, at most limit. */
  query(terms: string, request: QueryRequest): Promise<{ hits: Hit[]; total: number }>;
  /** Tokens per session, model and 15-minute span (index/read.ts `UsageBucket`). */
  usageBuckets(filter: UsageFilter): Promise<UsageBucket[]>;
  /** Ids and titles, newest first. */
  ids(from?: HarnessId): Promise<IndexedId[]>;
  /** An exact id, else a unique prefix of one (NotFoundError, AmbiguousIdError). */
  resolve(ref: string, from?: HarnessId): Promise<Located>;
  /** The session's Common transcript (UnsupportedError when only its metadata was archived). */
  load(located: Located): Promise<Loaded>;
  close(): void;
}
