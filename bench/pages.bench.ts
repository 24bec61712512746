/**
 * Pages benchmark: a generated ~20 MB session (Common JSON) rendered as
 * HTML and Markdown and redacted, against a baseline measured in the same
 * run (JSON-serializing the same Common); then the HTML page loaded in
 * Debian's headless Chromium (time to the load event, and a search over
 * the whole page), against a baseline page holding the same messages as
 * escaped JSON, one <pre> per message. Prints medians and ratios; asserts nothing.
 */

import { existsSync } from "node:fs";
import { performance } from "node:perf_hooks";
import type { Message } from "../src/common.js";
import { renderHtml } from "../src/render/html.js";
import { renderMarkdown } from "../src/render/markdown.js";
import { redact } from "../src/render/redact.js";
import type { Common, Transcript } from "../src/transcript.js";
import { CHROMIUM, launch, openPage } from "../test/browser/chromium.js";
import { mb, median, report, timeMedian } from "./util.js";

const TARGET_BYTES = Number(process.env.TXCRIPT_BENCH_MB ?? 20) * 1024 * 1024;

/** Turns of prose, thinking, a shell call with output, a read and an edit, until the JSON reaches TARGET_BYTES. */
function session(): Transcript<Common> {
  const body: Message[] = [];
  const t0 = Date.parse("2026-08-01T00:00:00Z");
  let s = 0;
  const at = () => new Date(t0 + 1000 * s++).toISOString().replace(".000Z", "Z");
  const file = Array.from(
    { length: 120 },
    (_, i) => `export function f${i}(x: number): number {\n  return x * ${i} + 1; // step ${i}\n}`,
  ).join("\n");
  let bytes = 0;
  for (let i = 0; bytes < TARGET_BYTES; i++) {
    const output = Array.from(
      { length: 40 + (i % 7) * 60 },
      (_, k) => `test ${i}.${k} … ok (${k % 13} ms)`,
    ).join("\n");
    const turn: Message[] = [
      {
        role: "user",
        timestamp: at(),
        content: [
          {
            type: "text",
            text: `Step ${i}: run the suite and fix module \`m${i}\`.\nIt fails on CI.`,
          },
        ],
      },
      {
        role: "assistant",
        timestamp: at(),
        model: "claude-opus-5",
        usage: { input_tokens: 1000 + i, output_tokens: 200 },
        content: [
          {
            type: "thinking",
            text: `I should run the tests for m${i} first, then read the module.`.repeat(4),
          },
          {
            type: "text",
            text: `Running the **tests** for \`m${i}\`:\n\n- first the unit suite\n- then the build`,
          },
          {
            type: "tool_use",
            id: `b${i}`,
            tool: { name: "Bash", command: `npm test -- m${i}`, workdir: "/home/dev/app" },
          },
          {
            type: "tool_use",
            id: `r${i}`,
            tool: { name: "Read", file_path: `/home/dev/app/src/m${i}.ts` },
          },
        ],
      },
      {
        role: "user",
        timestamp: at(),
        content: [
          {
            type: "tool_result",
            tool_use_id: `b${i}`,
            content: output,
            ...(i % 5 === 0 ? { is_error: true as const } : {}),
          },
          { type: "tool_result", tool_use_id: `r${i}`, content: file },
        ],
      },
      {
        role: "assistant",
        timestamp: at(),
        content: [
          {
            type: "tool_use",
            id: `e${i}`,
            tool: {
              name: "Edit",
              file_path: `/home/dev/app/src/m${i}.ts`,
              old_string: "return x * 1 + 1;",
              new_string: "return x * 2 + 1;",
            },
          },
        ],
      },
      {
        role: "user",
        timestamp: at(),
        content: [{ type: "tool_result", tool_use_id: `e${i}`, content: "ok" }],
      },
      {
        role: "assistant",
        timestamp: at(),
        content: [
          {
            type: "text",
            text: `Fixed m${i}: the factor was wrong.\n\n\`\`\`ts\nreturn x * 2 + 1;\n\`\`\``,
          },
        ],
      },
    ];
    body.push(...turn);
    bytes += JSON.stringify(turn).length;
  }
  return {
    meta: {
      id: "bench",
      timestamp: "2026-08-01T00:00:00Z",
      title: "A 20 MB session",
      cwd: "/home/dev/app",
    },
    body,
  };
}

const transcript = session();
const json = JSON.stringify(transcript);
const input = { transcript, home: "/home/dev" };
const rows: Record<string, string | number>[] = [];
const step = (what: string) =>
  process.stderr.write(`… ${what} (${(performance.now() / 1000).toFixed(0)} s)\n`);
step(`generated ${mb(json.length)}`);
const base = await timeMedian(() => JSON.stringify(transcript), 5);
const html = renderHtml(input);
step("first render");
const tHtml = await timeMedian(() => renderHtml(input), 3, 0);
const tMd = await timeMedian(() => renderMarkdown(input), 3);
step("render timings");
const redactTimes: number[] = [];
for (let i = 0; i < 3; i++) {
  const t = performance.now();
  await redact(transcript, { home: "/home/dev", user: "dev" });
  redactTimes.push(performance.now() - t);
}
rows.push({
  session: `${mb(json.length)} Common JSON`,
  messages: transcript.body.length,
  page: mb(Buffer.byteLength(html)),
});
rows.push({ step: "baseline JSON.stringify", median_ms: base.toFixed(0) });
rows.push({ step: "renderHtml", median_ms: tHtml.toFixed(0), ratio: (tHtml / base).toFixed(1) });
rows.push({ step: "renderMarkdown", median_ms: tMd.toFixed(0), ratio: (tMd / base).toFixed(1) });
rows.push({
  step: "redact (secretlint + paths)",
  median_ms: median(redactTimes).toFixed(0),
  ratio: (median(redactTimes) / base).toFixed(1),
});

// The baseline: the same messages as escaped JSON, one <pre> per message (a
// single 20 MB <pre> is pathological for any browser's layout).
const esc = (x: string) => x.replace(/&/g, "&amp;").replace(/</g, "&lt;");
const plain = `<!doctype html><meta charset="utf-8"><title>baseline</title>${transcript.body.map((m) => `<pre>${esc(JSON.stringify(m, null, 1))}</pre>`).join("\n")}`;
step("redact timings");
if (!existsSync(CHROMIUM)) {
  rows.push({ skipped: `Chromium load: no ${CHROMIUM} (apt-get install chromium)` });
  report(rows);
  process.exit(0);
}
const chromium = await launch();
try {
  const load = async (page: string) => {
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      const o = await openPage(chromium, page);
      times.push(performance.now() - t);
      await o.page.close();
    }
    return median(times);
  };
  const tBase = await load(plain);
  step("baseline page loads");
  const tPage = await load(html);
  step("session page loads");
  rows.push({ step: "Chromium load: baseline <pre> page, same size", median_ms: tBase.toFixed(0) });
  rows.push({
    step: "Chromium load: the session page",
    median_ms: tPage.toFixed(0),
    ratio: (tPage / tBase).toFixed(1),
  });
  const o = await openPage(chromium, html);
  const searches: number[] = [];
  for (const term of ["needle-none", "m1234", "factor"]) {
    const t = performance.now();
    await o.page.locator("#q").fill(term);
    await o.page.waitForFunction(() => {
      const c = document.getElementById("qcount")?.textContent ?? "";
      return c !== "";
    });
    searches.push(performance.now() - t - 150);
    await o.page.locator("#q").fill("");
  }
  rows.push({
    step: "in-page search (3 terms, less the 150 ms debounce)",
    median_ms: median(searches).toFixed(0),
  });
  if (o.errors.length || o.requests.length)
    rows.push({ warning: `errors ${o.errors.length}, requests ${o.requests.length}` });
  await o.page.close();
} finally {
  await chromium.close();
}
report(rows);
