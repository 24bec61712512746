/**
 * Gemini CLI 0.61.0's default model is "auto": before each main request it
 * asks a routing classifier (`generateContent`, no tools, a JSON schema)
 * with only a few recent non-tool turns, and `BaseLlmClient.generateJson`
 * retries a reply that is empty or not JSON (5 attempts, 5–30 s back-off:
 * about 100 s lost). The suite's mock answers that request with one JSON
 * object (server/index.ts `GEMINI_JSON`), so a resume routes once; naming
 * a model (`-m`) bypasses routing altogether (its `OverrideStrategy`).
 * docs/formats/gemini-cli.md, "Model routing".
 */

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockServer, type Recorded, startMockServer } from "./server/index.js";
import { CLIS, cliEnv, knownHarnesses, run, sandbox, txcript } from "./support/cli.js";
import { promptArgs } from "./support/sources.js";

const known = await knownHarnesses();
const PROMPT = "One more thing, please.";
const ANSWER = "Done with one more thing.";

/** The routing classifier's request: no tools, the router's system prompt. */
const isRouting = (q: Recorded) =>
  q.api === "gemini" && !q.scripted && JSON.stringify(q.body).includes("Task Routing AI");

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer();
});
afterAll(async () => {
  await server?.close();
});

describe.skipIf(!known.includes("gemini_cli"))("Gemini CLI's model routing on resume", () => {
  it.each([
    ["the default auto model", [] as string[], 1],
    ["a named model (-m gemini-2.5-pro)", ["-m", "gemini-2.5-pro"], 0],
  ] as const)(
    "%s: routing requests answered once, never retried",
    async (_label, extra, routed) => {
      const box = sandbox("gemini-routing");
      try {
        const env = cliEnv("gemini_cli", box.home, server.url);
        const doc = join(box.root, "doc.json");
        mkdirSync(join(box.project, "src"), { recursive: true });
        const messages = Array.from({ length: 12 }, (_, i) => [
          { role: "user", content: `Question ${i} about src/${i}.ts` },
          { role: "assistant", content: `Answer ${i}: nothing to change in src/${i}.ts.` },
        ]).flat();
        writeFileSync(doc, JSON.stringify({ id: "routing-doc", cwd: box.project, messages }));
        const cont = await txcript(
          ["continue", doc, "--with", "gemini_cli", "--no-resume"],
          box.home,
        );
        const id = cont.stdout.split("\n")[0]?.trim() ?? "";
        server.setScript([{ prompt: PROMPT, steps: [{ text: ANSWER }] }]);
        const mark = server.requests.length;
        const r = await run(
          CLIS.gemini_cli.bin,
          [...extra, ...promptArgs("gemini_cli", PROMPT, id, false)],
          { cwd: box.project, env, timeoutMs: 240_000 },
        );
        expect(r.status, r.stderr.slice(-2000)).toBe(0);
        expect(server.unexpected).toEqual([]);
        const sent = server.requests.slice(mark);
        const routing = sent.filter(isRouting);
        expect(routing.length).toBe(routed);
        // The router sees only the last few turns (4 non-tool turns for this model family).
        for (const q of routing) {
          const seen = JSON.stringify(q.body);
          expect(seen).toContain("Answer 11: nothing to change");
          expect(seen).not.toContain("Answer 0: nothing to change");
        }
        // The main request still carries the whole history, whatever the router saw.
        const main = sent.find((q) => q.scripted);
        const text = JSON.stringify(main?.body);
        for (let i = 0; i < 12; i++) expect(text).toContain(`Answer ${i}: nothing to change`);
      } finally {
        box.dispose();
      }
    },
    300_000,
  );
});
