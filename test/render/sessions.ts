/**
 * Sessions for the page tests: every harness's reading of the realistic
 * cross-harness session (through its own text form, so each harness's
 * quirks show), the real agy 1.2.0 sample (GENERIC run_command), Codex's
 * tool fixture, and a hostile transcript. Deterministic.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Block, Message } from "../../src/common.js";
import { parseToCommon, renderFromCommon } from "../../src/convert.js";
import { toCommon as agyToCommon, antigravityMeta } from "../../src/harness/antigravity/codec.js";
import { type Common, HARNESS_IDS, type HarnessId, type Transcript } from "../../src/transcript.js";
import { sourceSession } from "../cross/session.js";
import { toolsSession120 } from "../support/agy-fixtures.js";
import { ROOT } from "../support/cli.js";

export { sourceSession };

/** The cross-harness session as `id` reads it back from its own text form. */
export function throughHarness(id: HarnessId): Transcript<Common> {
  return parseToCommon(renderFromCommon(sourceSession(), id), id, `${id} document`);
}

/** One page-worthy session per harness, plus the native samples. */
export function pageSessions(): {
  name: string;
  harness: string;
  transcript: Transcript<Common>;
}[] {
  const out = HARNESS_IDS.map((id) => ({
    name: `${id} (cross session)`,
    harness: id,
    transcript: throughHarness(id),
  }));
  const body = toolsSession120();
  out.push({
    name: "antigravity 1.2.0 sample",
    harness: "antigravity",
    transcript: agyToCommon({ meta: antigravityMeta(body), body }),
  });
  out.push({
    name: "codex tools fixture",
    harness: "codex",
    transcript: parseToCommon(
      readFileSync(join(ROOT, "test", "fixtures", "codex", "tools.jsonl"), "utf8"),
      "codex",
    ),
  });
  out.push({
    name: "simple full example",
    harness: "simple",
    transcript: parseToCommon(
      readFileSync(join(ROOT, "test", "fixtures", "common", "full.simple.json"), "utf8"),
      "simple",
    ),
  });
  return out;
}

const at = "2026-09-01T10:00:00Z";
const msg = (role: Message["role"], ...content: Block[]): Message => ({
  role,
  content,
  timestamp: at,
});
const text = (t: string): Block => ({ type: "text", text: t });

/** Everything a hostile transcript can try: script tags, handlers, javascript: links, remote images. */
export function hostileSession(): Transcript<Common> {
  const payload = `<script>window.__pwned=1;alert(1)</script><img src=x onerror="window.__pwned=2">`;
  return {
    meta: {
      id: 'hostile"><script>alert(1)</script>',
      timestamp: at,
      title: `</title><script>window.__pwned=3</script>`,
      cwd: "/home/eve/x",
    },
    body: [
      msg(
        "user",
        text(
          `${payload}\n[click](javascript:window.__pwned=4) [data](data:text/html,<script>alert(1)</script>) <a href="javascript:alert(1)">raw</a>\n![remote](http://127.0.0.1:9/track.png)`,
        ),
      ),
      msg(
        "assistant",
        text(
          `Here:\n\n${payload}\n\n[x](javascript:alert(1)) [bad](file:///%E0%A4%A) [ok](file:///home/eve/x/a.ts)\n\n<svg onload="window.__pwned=5"></svg>\n\n\`\`\`html\n${payload}\n\`\`\``,
        ),
        { type: "thinking", text: `<iframe src="javascript:alert(1)"></iframe>${payload}` },
        {
          type: "tool_use",
          id: `x"><script>alert(1)</script>`,
          tool: { name: "Raw", tool_name: `<img src=x onerror=alert(1)>`, input: { q: payload } },
        },
        {
          type: "tool_use",
          id: "b",
          tool: { name: "Bash", command: payload, workdir: `"><script>alert(1)</script>` },
        },
        {
          type: "image",
          source: { type: "base64", media_type: `image/png" onerror="alert(1)`, data: "AAAA" },
        },
        {
          type: "image",
          source: {
            type: "base64",
            media_type: "image/svg+xml",
            data: Buffer.from(
              `<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>`,
            ).toString("base64"),
          },
        },
        {
          type: "artifact",
          artifact: { id: "a", name: payload, source: { type: "text", text: payload } },
        },
      ),
      msg(
        "user",
        { type: "tool_result", tool_use_id: `x"><script>alert(1)</script>`, content: payload },
        { type: "tool_result", tool_use_id: "b", content: { html: payload }, is_error: true },
        { type: "tool_result", tool_use_id: "nowhere", content: payload },
      ),
    ],
  };
}
