// Real source: the installed gemini_cli CLI writes a session; txcript reads it (support/source-suite.ts).
import { realSourceSuite } from "./support/source-suite.js";

await realSourceSuite("gemini_cli");
