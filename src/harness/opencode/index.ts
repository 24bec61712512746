/**
 * The OpenCode registry entry: the OpenCode family's codec, text codec (the
 * `opencode export` document) and store (the shared `opencode.db` and the
 * legacy `storage/` JSON), all in ../shared/opencode/ and given OpenCode's
 * flavor here; and `opencode --session <id>`, run in the session's
 * directory because OpenCode opens the project it is started in.
 */

import { join } from "node:path";
import { HARNESS_LABELS, type Harness } from "../../transcript.js";
import type { OpenCodeBody } from "../shared/opencode/body.js";
import { familyCodec } from "../shared/opencode/codec.js";
import type { OpenCodeFlavor } from "../shared/opencode/flavor.js";
import { MIGRATIONS, SCHEMA, SCHEMA_VERSION } from "../shared/opencode/schema.js";
import { OpenCodeFamilyStore, type OpenCodeStoreOptions } from "../shared/opencode/store.js";
import { familyText } from "../shared/opencode/text.js";
import { resumeIn } from "../shared/resume.js";
import { OPENCODE_PLACE } from "./probe.js";

export type { OpenCodeBody } from "../shared/opencode/body.js";

/** OpenCode's parameters: its place, the schema 1.18.33 creates, its `build` agent. */
const OPENCODE: OpenCodeFlavor = {
  ...OPENCODE_PLACE,
  schema: { version: SCHEMA_VERSION, statements: SCHEMA, migrations: MIGRATIONS },
  agent: "build",
};

export const openCodeCodec = familyCodec(OPENCODE);
export const openCodeText = familyText("opencode");

/** OpenCode's store: the family's, in OpenCode's data folder. */
export class OpenCodeStore extends OpenCodeFamilyStore {
  constructor(options: OpenCodeStoreOptions = {}) {
    super(OPENCODE, options);
  }
}

export const openCode: Harness<"opencode", OpenCodeBody> = {
  id: "opencode",
  label: HARNESS_LABELS.opencode,
  codec: openCodeCodec,
  text: openCodeText,
  store: (options) => new OpenCodeStore(options),
  resume: (saved, meta) =>
    resumeIn(["opencode", "--session", saved.id], meta.cwd === "" ? undefined : meta.cwd),
  // `$XDG_DATA_HOME/opencode` holds opencode.db; a fresh one gets OpenCode's
  // schema (docs/formats/opencode.md, "Store").
  outHome: (dir) => ({ root: join(dir, "opencode"), env: { XDG_DATA_HOME: dir } }),
};
