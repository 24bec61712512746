/**
 * The Antigravity codec: agy's protobuf trajectory steps to and from the
 * canonical model, with no I/O. It pairs the reader (read.ts, toCommon) and
 * the writer (write.ts, fromCommon); meta.ts holds Meta and lineage, and
 * tools.ts the native tool mapping both use. The decisions and their
 * provenance are in docs/formats/antigravity.md.
 */

import type { Codec } from "../../transcript.js";
import type { AntigravityBody } from "./body.js";
import { toCommon } from "./read.js";
import { fromCommon } from "./write.js";

export {
  antigravityLineage,
  antigravityMeta,
} from "./meta.js";
export { toCommon } from "./read.js";
export { nativeTool } from "./tools.js";
export { fromCommon } from "./write.js";

export const antigravityCodec: Codec<AntigravityBody> = { toCommon, fromCommon };
