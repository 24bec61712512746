/**
 * A session document named on the command line (a file, or `-`): its
 * format detected from its first bytes (src/detect.ts) unless the user
 * named one, and read as Common. When the named form does not fit, the
 * error says what the file is and what to type instead.
 */

import { parseBytesToCommon } from "../convert.js";
import { type Detected, describeForm, detectForm } from "../detect.js";
import { TxcriptError } from "../errors.js";
import { antigravityCodec } from "../harness/antigravity/index.js";
import { loadConversationFileFor } from "../harness/antigravity/store-file.js";
import { codexCodec } from "../harness/codex/index.js";
import { readRolloutLines } from "../harness/codex/store.js";
import { parseCodexLines } from "../harness/codex/text.js";
import { sampleOf } from "../sniff.js";
import { timestampFromMillis } from "../time.js";
import type { Common, TextForm, Transcript } from "../transcript.js";
import { type Input, readInput } from "./input.js";

export interface Document {
  transcript: Transcript<Common>;
  /** The path, or `<stdin>`. */
  origin: string;
  form: TextForm;
}

/** The time of import, in whole seconds: a Simple document with no time at all starts then. */
function importTime(): string {
  return timestampFromMillis(Math.floor(Date.now() / 1000) * 1000);
}

/** A file that only a harness's store can read (not its text form). */
function readStoreFile(input: Input, detected: Detected): Transcript<Common> {
  if (input.origin === "<stdin>") {
    throw new TxcriptError(
      undefined,
      `this is ${describeForm(detected.form, detected.as)}, which is read from a file, not stdin: give its path`,
      { file: input.origin },
    );
  }
  if (detected.form === "antigravity")
    return loadConversationFileFor(input.origin, (t) => antigravityCodec.toCommon(t));
  if (detected.form === "codex") {
    return codexCodec.toCommon(parseCodexLines(readRolloutLines(input.origin), input.origin));
  }
  throw new TxcriptError(undefined, `${describeForm(detected.form, detected.as)} cannot be read`, {
    file: input.origin,
  });
}

function read(input: Input, form: TextForm, detected: Detected | undefined): Transcript<Common> {
  if (detected?.form === form && detected.as === "store-file")
    return readStoreFile(input, detected);
  return parseBytesToCommon(input.bytes, form, input.origin, { undated: importTime() });
}

/**
 * Read `path` as a session. `named` is the form the user gave (`--as`,
 * `--from`; `flag` is its spelling for the hint); without one the detected
 * form is used, and an undetectable file is refused with what txcript reads.
 */
export function readDocument(path: string, named: TextForm | undefined, flag: string): Document {
  const input = readInput(path);
  const detected = detectForm(sampleOf(input.bytes));
  const origin = input.origin;
  if (named !== undefined) {
    try {
      return { transcript: read(input, named, detected), origin, form: named };
    } catch (error) {
      if (!(error instanceof TxcriptError) || detected === undefined || detected.form === named)
        throw error;
      throw new TxcriptError(
        undefined,
        `this is ${describeForm(detected.form, detected.as)}, not ${describeForm(named)}; use ${flag} ${detected.form} (or leave ${flag} out)`,
        { file: origin, cause: error },
      );
    }
  }
  if (detected === undefined) {
    if (input.bytes.length === 0)
      throw new TxcriptError(undefined, "the file is empty", { file: origin });
    throw new TxcriptError(
      undefined,
      `not a session txcript recognizes (it reads Simple and Common JSON, agy databases and their text dumps, Claude Code and Codex JSONL); if it is one, name its form with ${flag}`,
      { file: origin },
    );
  }
  return { transcript: read(input, detected.form, detected), origin, form: detected.form };
}
