/**
 * Continues one Simple document into a store at an agreed moment, so that
 * several racers hit the save together. Prints `ok <id>` or `error <class>:
 * <message>`.
 * Usage: racer.ts <harness> <root> <document file> <start at, epoch ms>
 */

import { readFileSync } from "node:fs";
import { parseToCommon } from "../../../src/convert.js";
import { continueInto } from "../../../src/local.js";
import type { HarnessId } from "../../../src/transcript.js";

const [harness, root, file, at] = process.argv.slice(2) as [HarnessId, string, string, string];
const transcript = parseToCommon(readFileSync(file, "utf8"), "simple", file);
while (Date.now() < Number(at)) {
  // spin: a timer would add its own jitter
}
try {
  const { saved } = continueInto(transcript, harness, { env: {}, root });
  process.stdout.write(`ok ${saved.id}\n`);
} catch (error) {
  const e = error as Error;
  process.stdout.write(`error ${e.name}: ${e.message}\n`);
}
