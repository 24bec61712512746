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
import type { Message } from "../src/common.js";
import { geminiCodec } from "../src/harness/gemini-cli/codec.js";
import { GeminiCliStore } from "../src/harness/gemini-cli/store.js";
import { geminiText } from "../src/harness/gemini-cli/text.js";
import { stableUuid } from "../src/ids.js";
import { timestampFromMillis } from "../src/time.js";
import type { Common, Transcript } from "../src/transcript.js";
import { mb, report, timeMedian } from "./util.js";

const SESSIONS = 300;
const TURNS = 40;

/** A session of `turns` prompts, each answered by a shell call, its output and a reply. */
function session(n: number, turns: number, outputBytes: number): Transcript<Common> {
  const t0 = Date.parse("2026-08-01T00:00:00Z") + n * 3_600_000;
  let s = 0;
  const at = () => timestampFromMillis(t0 + 1000 * s++);
  const body: Message[] = [];
  for (let i = 0; i < turns; i++) {
    body.push({
      role: "user",
      timestamp: at(),
      content: [
        { type: "text", text: `Step ${i}: run the suite and fix what fails in module ${i}.` },
      ],
    });
    body.push({
      role: "assistant",
      timestamp: at(),
      model: "gemini-2.5-pro",
      usage: {
        input_tokens: 900 + i,
        output_tokens: 120,
        cache_read_input_tokens: 20_000 + i * 100,
      },
      content: [
        { type: "thinking", text: `Plan ${i}: run the tests, read the failure, patch the module.` },
        {
          type: "tool_use",
          id: `call_${n}_${i}`,
          tool: { name: "Bash", command: `npm test -- module${i}`, workdir: "/home/dev/app" },
        },
      ],
    });
    body.push({
      role: "user",
      timestamp: at(),
      content: [
        {
          type: "tool_result",
          tool_use_id: `call_${n}_${i}`,
          content: `${"ok ".repeat(outputBytes / 3)}\n`,
        },
      ],
    });
    body.push({
      role: "assistant",
      timestamp: at(),
      model: "gemini-2.5-pro",
      content: [{ type: "text", text: `Module ${i} passes now.` }],
    });
  }
  return {
    meta: {
      id: stableUuid("bench", n),
      timestamp: timestampFromMillis(t0),
      cwd: `/home/dev/app${n % 10}`,
      title: `Session ${n}`,
    },
    body,
  };
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
    {
      op: "discover",
      median_ms: discover.toFixed(1),
      baseline_parse_all_ms: baseDiscover.toFixed(1),
      ratio: (discover / baseDiscover).toFixed(2),
    },
    {
      op: `load+toCommon ${mb(bigSize)}`,
      median_ms: load.toFixed(1),
      baseline_parse_ms: baseLoad.toFixed(1),
      ratio: (load / baseLoad).toFixed(2),
    },
    {
      op: "fromCommon+render 1600 msgs",
      median_ms: write.toFixed(1),
      baseline_stringify_ms: baseWrite.toFixed(1),
      ratio: (write / baseWrite).toFixed(2),
    },
    { peak_rss: mb(process.resourceUsage().maxRSS * 1024) },
  ]);
} finally {
  rmSync(home, { recursive: true, force: true });
}
