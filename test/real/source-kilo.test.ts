// Real source: the installed kilo CLI (Kilo Code, built on OpenCode) writes a session; txcript reads it (support/source-suite.ts).
import { realSourceSuite } from "./support/source-suite.js";

await realSourceSuite("kilo");
