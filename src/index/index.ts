/**
 * The persistent index's library entry: open it, refresh it from the
 * stores, and list, search or total usage from it. Importing this module
 * opens nothing; `SessionIndex.open` does.
 */

export { cacheDir, INDEX_FILE } from "./open.js";
export { APPLICATION_ID, SCHEMA_VERSION } from "./schema.js";
export {
  type Filter,
  type Hit,
  type IndexedId,
  type IndexOptions,
  type ListRequest,
  type QueryRequest,
  type Refreshed,
  type RefreshOptions,
  SessionIndex,
  type SessionUsage,
  USAGE_BUCKET_MS,
  type UsageBucket,
  type UsageFilter,
} from "./session-index.js";
export { ftsExpression, MAX_TERMS, parseTerms, type Term } from "./terms.js";
export {
  type Chunk,
  chunksOf,
  isKind,
  KINDS,
  type Kind,
  MAX_CHUNK_CHARS,
  type UsageCounts,
  type UsageRow,
  type UsageTotals,
  usageOf,
  usageRowsOf,
} from "./text.js";
export { parseWhen } from "./when.js";
