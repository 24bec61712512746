/**
 * The library entry (`import … from "txcript"`): the canonical model, tool
 * normalization, timestamps, the contracts, the error classes, Common JSON,
 * Simple documents, the harness registry, convert(), the machine's sessions
 * (Local), ranges and the view projections. The CLI is not part of it.
 */

export * from "./common.js";
export {
  commonToJson,
  readCommon,
  renderCommon,
} from "./common-json.js";
export { convert, parseToCommon, renderFromCommon } from "./convert.js";
export * from "./errors.js";
export {
  allHarnesses,
  type CommonStore,
  commonToText,
  type Harness,
  type Harnesses,
  harness,
  openStore,
  type ResumeCommand,
  storedHarnesses,
  textToCommon,
} from "./harness/index.js";
export {
  parseSimple,
  renderSimple,
  type SimpleBody,
  simple,
  simpleCodec,
  simpleText,
} from "./harness/simple.js";
export { stableUuid, TXCRIPT_NAMESPACE } from "./ids.js";
export { Checker, MAX_JSON_DEPTH, parseJson } from "./json.js";
export {
  type Continued,
  type ContinueOptions,
  continueInto,
  type Listing,
  type ListOptions,
  type Loaded,
  Local,
  type LocalOptions,
  resumeCommand,
} from "./local.js";
export { checkPathComponent, isInside, pathComponentProblem, realPathInside } from "./paths.js";
export {
  closeOverToolPairs,
  type MessageRange,
  parseRange,
  parseSessionRef,
  resolveRange,
} from "./range.js";
export {
  type IndexEntry,
  type PathOptions,
  type Redaction,
  type RedactOptions,
  type RenderInput,
  redact,
  renderHtml,
  renderIndexHtml,
  renderMarkdown,
} from "./render/index.js";
export { renderText, type ViewInput } from "./render/text.js";
export {
  compareTimestamps,
  EPOCH,
  type EpochTime,
  formatTimestamp,
  normalizeTimestamp,
  nowTimestamp,
  parseTimestamp,
  timestampFromMillis,
  timestampMillis,
  timestampToEpoch,
} from "./time.js";
export * from "./transcript.js";
