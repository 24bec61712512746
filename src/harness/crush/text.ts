/**
 * Crush's text form. Crush has no session file (its sessions are rows of a
 * SQLite database, and `crush session show --json` prints a view, not the
 * rows), so txcript's text form is the rows themselves: one JSON object
 * with the `sessions` row under `crush_session`, the project directory
 * under `cwd` when known, and the `messages` rows, in order, each with
 * its `parts` column as the JSON text Crush stored. Two-space JSON and a
 * final newline; a round trip is byte-exact. Pure.
 */

import { isJsonObject, type JsonObject } from "../../common.js";
import { ParseError } from "../../errors.js";
import { assignDefined, parseJson } from "../../json.js";
import { firstKey } from "../../sniff.js";
import type { Recognized, Sample, TextCodec, Transcript } from "../../transcript.js";
import type { CrushBody } from "./body.js";
import { crushTranscript } from "./meta.js";

const SESSION_KEY = "crush_session";

function parseCrush(text: string, origin?: string): Transcript<CrushBody> {
  const value = parseJson(text, "crush", origin);
  const fail = (problem: string, at?: string) =>
    new ParseError("crush", problem, { file: origin, at });
  if (!isJsonObject(value) || !isJsonObject(value[SESSION_KEY]))
    throw fail(`not a Crush session (an object with its sessions row under "${SESSION_KEY}")`);
  const session = value[SESSION_KEY];
  const rows = value.messages;
  if (!Array.isArray(rows)) throw fail('expected a "messages" list of message rows');
  const messages: JsonObject[] = [];
  rows.forEach((row, i) => {
    if (!isJsonObject(row)) throw fail("a message row is not an object", `messages[${i}]`);
    messages.push(row);
  });
  if (typeof session.id !== "string" || session.id === "")
    throw fail("the session row has no id", SESSION_KEY);
  const body: CrushBody = { session, messages };
  if (value.cwd !== undefined) {
    if (typeof value.cwd !== "string") throw fail('"cwd" is not a string', "cwd");
    body.cwd = value.cwd;
  }
  return crushTranscript(body);
}

function renderCrush(t: Transcript<CrushBody>): string {
  const { session, messages, cwd } = t.body;
  const doc: JsonObject = { [SESSION_KEY]: session };
  assignDefined(doc, "cwd", cwd);
  doc.messages = messages;
  return `${JSON.stringify(doc, null, 2)}\n`;
}

function detectCrush(sample: Sample): Recognized | undefined {
  return firstKey(sample) === SESSION_KEY ? "text" : undefined;
}

export const crushText: TextCodec<CrushBody> = {
  parse: parseCrush,
  render: renderCrush,
  detect: detectCrush,
};
