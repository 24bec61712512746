/**
 * Where Kilo Code's CLI keeps its store: `kilo.db` in `$XDG_DATA_HOME/kilo`
 * (`$TXCRIPT_KILO_ROOT` first; `KILO_DB` names another file, absolute or
 * under that folder). The probe is the OpenCode family's
 * (shared/opencode/probe.ts).
 */

import type { StoreOptions } from "../../transcript.js";
import type { OpenCodePlace } from "../shared/opencode/flavor.js";
import { OpenCodeFamilyProbe } from "../shared/opencode/probe.js";

export const KILO_PLACE: OpenCodePlace = {
  harness: "kilo",
  name: "Kilo",
  dataDir: "kilo",
  database: "kilo.db",
  rootVariable: "TXCRIPT_KILO_ROOT",
  databaseVariable: "KILO_DB",
  gitCache: "kilo",
};

export class KiloProbe extends OpenCodeFamilyProbe {
  constructor(options: StoreOptions = {}) {
    super(KILO_PLACE, options);
  }
}
