/**
 * The persistent index's library entry: open it, refresh it from the
 * stores, and list, search or total usage from it. Importing this module
 * opens nothing; `SessionIndex.open` does.
 */

export { SCHEMA_VERSION } from "./schema.js";
export {
  type Hit,
  type QueryRequest,
  type Refreshed,
  SessionIndex,
  USAGE_BUCKET_MS,
  type UsageBucket,
  type UsageFilter,
} from "./session-index.js";
export { ftsExpression } from "./terms.js";
export {
  isKind,
  KINDS,
  type Kind,
} from "./text.js";
