// Real source: the installed codex CLI writes a session; txcript reads it (support/source-suite.ts).
import { realSourceSuite } from "./support/source-suite.js";

await realSourceSuite("codex");
