/**
 * The Kilo Code CLI registry entry. Kilo is built on OpenCode and keeps
 * OpenCode's rows in its own `kilo.db`: the codec, text codec and store are
 * the OpenCode family's (../shared/opencode/), given Kilo's flavor here
 * (its place, its schema, its `code` agent); and `kilo --session <id>`,
 * run in the session's directory, as OpenCode's.
 */

import type { Harness } from "../../transcript.js";
import type { OpenCodeBody } from "../shared/opencode/body.js";
import type { OpenCodeFlavor } from "../shared/opencode/flavor.js";
import { familyHarness } from "../shared/opencode/harness.js";
import { OpenCodeFamilyStore } from "../shared/opencode/store.js";
import { KILO_PLACE } from "./probe.js";
import { KILO_SCHEMA } from "./schema.js";

/** Kilo's parameters: its place, the schema 7.7.7 creates, its `code` agent (Kilo has no `build`). */
const KILO: OpenCodeFlavor = { ...KILO_PLACE, schema: KILO_SCHEMA, agent: "code" };

export const kilo: Harness<"kilo", OpenCodeBody> = familyHarness(
  "kilo",
  KILO,
  (options) => new OpenCodeFamilyStore(KILO, options),
  // `$XDG_DATA_HOME/kilo` holds kilo.db; KILO_DB=kilo.db pins the file
  // name against a KILO_DB the user's shell may set elsewhere.
  { KILO_DB: "kilo.db" },
);
