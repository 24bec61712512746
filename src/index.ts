/**
 * The library entry (`import … from "txcript"`): the canonical model, tool
 * normalization, timestamps, the contracts, the error classes, Common JSON,
 * Simple documents, the harness registry and convert(). The CLI is not part
 * of it.
 */

export * from "./common.js";
export {
  commonToJson,
  readCommon,
  renderCommon,
} from "./commonJson.js";
export { convert, parseToCommon, renderFromCommon } from "./convert.js";
export * from "./errors.js";
export {
  allHarnesses,
  type Harness,
  harness,
  type ResumeCommand,
  storedHarnesses,
} from "./harness/index.js";
export {
  parseSimple,
  renderSimple,
  type SimpleBody,
  simpleCodec,
  simpleText,
} from "./harness/simple.js";
export { stableUuid, TXCRIPT_NAMESPACE } from "./ids.js";
export { Checker, MAX_JSON_DEPTH, parseJson } from "./json.js";
export { checkPathComponent, isInside, pathComponentProblem, realPathInside } from "./paths.js";
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
