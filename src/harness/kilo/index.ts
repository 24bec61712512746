/**
 * The Kilo Code CLI registry entry. Kilo is built on OpenCode and keeps
 * OpenCode's rows in its own `kilo.db`: the codec, text codec and store are
 * the OpenCode family's (../shared/opencode/), given Kilo's flavor here
 * (its place, its schema, its `code` agent); and `kilo --session <id>`,
 * run in the session's directory, as OpenCode's.
 */

import { join } from "node:path";
import { HARNESS_LABELS, type Harness } from "../../transcript.js";
import type { OpenCodeBody } from "../shared/opencode/body.js";
import { familyCodec } from "../shared/opencode/codec.js";
import type { OpenCodeFlavor } from "../shared/opencode/flavor.js";
import { OpenCodeFamilyStore, type OpenCodeStoreOptions } from "../shared/opencode/store.js";
import { familyText } from "../shared/opencode/text.js";
import { resumeIn } from "../shared/resume.js";
import { KILO_PLACE } from "./probe.js";
import { KILO_SCHEMA } from "./schema.js";

/** Kilo's parameters: its place, the schema 7.7.7 creates, its `code` agent (Kilo has no `build`). */
const KILO: OpenCodeFlavor = { ...KILO_PLACE, schema: KILO_SCHEMA, agent: "code" };

const kiloCodec = familyCodec(KILO);
const kiloText = familyText("kilo");

/** Kilo's store: the OpenCode family's, in Kilo's data folder. */
class KiloStore extends OpenCodeFamilyStore {
  constructor(options: OpenCodeStoreOptions = {}) {
    super(KILO, options);
  }
}

export const kilo: Harness<"kilo", OpenCodeBody> = {
  id: "kilo",
  label: HARNESS_LABELS.kilo,
  codec: kiloCodec,
  text: kiloText,
  store: (options) => new KiloStore(options),
  resume: (saved, meta) =>
    resumeIn(["kilo", "--session", saved.id], meta.cwd === "" ? undefined : meta.cwd),
  // `$XDG_DATA_HOME/kilo` holds kilo.db; KILO_DB=kilo.db pins the file
  // name against a KILO_DB the user's shell may set elsewhere.
  outHome: (dir) => ({ root: join(dir, "kilo"), env: { XDG_DATA_HOME: dir, KILO_DB: "kilo.db" } }),
};
