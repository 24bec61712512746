// Real source: the installed qwen_code CLI writes a session; txcript reads it (support/source-suite.ts).
import { realSourceSuite } from "./support/source-suite.js";

await realSourceSuite("qwen_code");
