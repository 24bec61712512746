/**
 * The OpenCode registry entry: the OpenCode family's codec, text codec (the
 * `opencode export` document) and store (the shared `opencode.db` and the
 * legacy `storage/` JSON), all in ../shared/opencode/ and given OpenCode's
 * flavor here; and `opencode --session <id>`, run in the session's
 * directory because OpenCode opens the project it is started in.
 */

import type { Harness } from "../../transcript.js";
import type { OpenCodeBody } from "../shared/opencode/body.js";
import type { OpenCodeFlavor } from "../shared/opencode/flavor.js";
import { familyHarness } from "../shared/opencode/harness.js";
import { MIGRATIONS, SCHEMA, SCHEMA_VERSION } from "../shared/opencode/schema.js";
import { OpenCodeFamilyStore, type OpenCodeStoreOptions } from "../shared/opencode/store.js";
import { OPENCODE_PLACE } from "./probe.js";

export type { OpenCodeBody } from "../shared/opencode/body.js";

/** OpenCode's parameters: its place, the schema 1.18.33 creates, its `build` agent. */
const OPENCODE: OpenCodeFlavor = {
  ...OPENCODE_PLACE,
  schema: { version: SCHEMA_VERSION, statements: SCHEMA, migrations: MIGRATIONS },
  agent: "build",
};

/** OpenCode's store: the family's, in OpenCode's data folder. */
export class OpenCodeStore extends OpenCodeFamilyStore {
  constructor(options: OpenCodeStoreOptions = {}) {
    super(OPENCODE, options);
  }
}

// A fresh opencode.db gets OpenCode's schema (docs/formats/opencode.md, "Store").
export const openCode: Harness<"opencode", OpenCodeBody> = familyHarness(
  "opencode",
  OPENCODE,
  (options) => new OpenCodeStore(options),
);
export const openCodeCodec = openCode.codec;
export const openCodeText = openCode.text;
