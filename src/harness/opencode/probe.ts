/**
 * Where OpenCode keeps its store: `opencode.db` in `$XDG_DATA_HOME/opencode`
 * (`$TXCRIPT_OPENCODE_ROOT` first). The probe is the family's
 * (shared/opencode/probe.ts).
 */

import type { StoreOptions } from "../../transcript.js";
import type { OpenCodePlace } from "../shared/opencode/flavor.js";
import { OpenCodeFamilyProbe } from "../shared/opencode/probe.js";

export const OPENCODE_PLACE: OpenCodePlace = {
  harness: "opencode",
  name: "OpenCode",
  dataDir: "opencode",
  database: "opencode.db",
  rootVariable: "TXCRIPT_OPENCODE_ROOT",
  gitCache: "opencode",
};

export class OpenCodeProbe extends OpenCodeFamilyProbe {
  constructor(options: StoreOptions = {}) {
    super(OPENCODE_PLACE, options);
  }
}
