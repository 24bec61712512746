/**
 * Gemini CLI harness benchmark: discovery over a generated `.gemini` (300
 * sessions in 10 projects), loading and reading a large session, and
 * writing one, each against a baseline measured in the same run (reading
 * the same bytes and JSON-parsing every line; JSON-serializing the same
 * Common). Prints medians, ratios and memory; asserts nothing.
 */

import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { geminiCodec } from "../src/harness/gemini-cli/codec.js";
import { GeminiCliStore } from "../src/harness/gemini-cli/store.js";
import { geminiText } from "../src/harness/gemini-cli/text.js";
import type { Common, Transcript } from "../src/transcript.js";
import { benchRow, codingSession, mb, report, timeMedian } from "./util.js";

const SESSIONS = 300;
const TURNS = 40;

/** A session of `turns` prompts, each answered by a shell call, its output and a reply. */
function session(n: number, turns: number, outputBytes: number): Transcript<Common> {
  return codingSession(n, turns, outputBytes, {
    model: "gemini-2.5-pro",
    cwd: `/home/dev/app${n % 10}`,
  });
}

const home = mkdtempSync(join(tmpdir(), "txcript-gemini-bench-"));
try {
  const store = new GeminiCliStore({ root: home, env: {} });
  for (let n = 0; n < SESSIONS; n++) store.save(geminiCodec.fromCommon(session(n, TURNS, 2_000)));
  const files: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.startsWith("session-")) files.push(p);
    }
  };
  walk(join(home, "tmp"));
  const bytes = files.reduce((sum, f) => sum + statSync(f).size, 0);

  // Discovery vs reading the same files and JSON-parsing every line.
  const parseAll = () => {
    for (const f of files)
      for (const line of readFileSync(f, "utf8").split("\n")) if (line) JSON.parse(line);
  };
  const baseDiscover = await timeMedian(parseAll, 5);
  let found = 0;
  const discover = await timeMedian(async () => {
    found = (await store.discover()).sessions.length;
  }, 5);

  // One large session (~25 MB): load + toCommon vs parsing its lines.
  const big = geminiCodec.fromCommon(session(9999, 400, 60_000));
  const bigPath = store.save(big).path;
  const bigSize = statSync(bigPath).size;
  const baseLoad = await timeMedian(() => {
    for (const line of readFileSync(bigPath, "utf8").split("\n")) if (line) JSON.parse(line);
  }, 5);
  const load = await timeMedian(() => {
    geminiCodec.toCommon(store.load(big.meta.id));
  }, 5);

  // Writing: fromCommon + render vs JSON.stringify of the same Common.
  const common = session(1, 400, 2_000);
  const baseWrite = await timeMedian(() => {
    JSON.stringify(common);
  }, 7);
  const write = await timeMedian(() => {
    geminiText.render(geminiCodec.fromCommon(common));
  }, 7);

  report([
    { store: `${found} sessions`, size: mb(bytes) },
    benchRow("discover", discover, "baseline_parse_all_ms", baseDiscover),
    benchRow(`load+toCommon ${mb(bigSize)}`, load, "baseline_parse_ms", baseLoad),
    benchRow("fromCommon+render 1600 msgs", write, "baseline_stringify_ms", baseWrite),
    { peak_rss: mb(process.resourceUsage().maxRSS * 1024) },
  ]);
} finally {
  rmSync(home, { recursive: true, force: true });
}
