// Real source: the installed opencode CLI writes a session; txcript reads it (support/source-suite.ts).
import { realSourceSuite } from "./support/source-suite.js";

await realSourceSuite("opencode");
