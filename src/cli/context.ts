/**
 * What the commands that read sessions share: the stores as the command
 * line configures them (roots from the `--<harness>-root` flags, see
 * roots.ts), and how a session reference (an id, a prefix, a file or `-`)
 * becomes a Common transcript, through the sessions service.
 */

import { existsSync, statSync } from "node:fs";
import type { Command } from "commander";
import type { Origin } from "../copies.js";
import { NotFoundError, TxcriptError } from "../errors.js";
import { assignDefined } from "../json.js";
import { Local, type Located } from "../local.js";
import {
  parseSessionRef,
  RangeSyntaxError,
  type SessionRef,
  selectMessages,
  sliceTranscript,
} from "../range.js";
import { Sessions } from "../sessions/sessions.js";
import { promptTitle } from "../strings.js";
import type { Common, HarnessId, TextForm, Transcript } from "../transcript.js";
import { archiveFor } from "./archive.js";
import { readDocument } from "./documents.js";
import { UsageError } from "./errors.js";
import { rootsFrom } from "./roots.js";

export function localFor(command: Command, from?: HarnessId): Local {
  const options: ConstructorParameters<typeof Local>[0] = {
    env: process.env,
    roots: rootsFrom(command),
  };
  assignDefined(options, "from", from);
  return new Local(options);
}

export interface Source {
  transcript: Transcript<Common>;
  /** Set when the source is a stored session. */
  found?: Located;
  /** The session a stored copy was made from (`continue`). */
  forkedFrom?: Origin;
  /** The stored session's main file. */
  path?: string;
  /** The document's path (or `<stdin>`) when the source is a document. */
  origin?: string;
  /** The document's form (given or detected) when the source is a document. */
  form?: TextForm;
  /** 0-based [start, end) of the selected messages. */
  start: number;
  end: number;
}

/** `-`, or an existing regular file: read as a document rather than looked up as an id. */
export function isDocument(ref: string): boolean {
  if (ref === "-") return true;
  try {
    return existsSync(ref) && statSync(ref).isFile();
  } catch {
    return false;
  }
}

/** Session ids carry no path separators nor file extensions; a reference with them names a file. */
function looksLikePath(ref: string): boolean {
  return /[/\\]/.test(ref) || /^[.~]/.test(ref) || /\.(jsonl?|db|zst|md|txt)$/i.test(ref);
}

/**
 * Resolve `<id|file|->[#range]`. A document is read in the text form named
 * by `--as`, else the one detected; anything else is a stored session id or prefix.
 */
export async function resolveSource(
  command: Command,
  text: string,
  options: {
    from?: HarnessId;
    documentForm?: TextForm;
    allowDocuments: boolean;
    /** Name an untitled document by its first prompt, as every stored harness names its sessions (view, export). */
    titleDocuments?: boolean;
  },
): Promise<Source> {
  // A file whose own name contains '#' wins over the range syntax.
  let parsed: SessionRef;
  try {
    parsed = options.allowDocuments && isDocument(text) ? { ref: text } : parseSessionRef(text);
  } catch (error) {
    if (error instanceof RangeSyntaxError) throw new UsageError(error.message);
    throw error;
  }
  let transcript: Transcript<Common>;
  let found: Located | undefined;
  let forkedFrom: Origin | undefined;
  let origin: string | undefined;
  let form: TextForm | undefined;
  let path: string | undefined;
  if (options.allowDocuments && isDocument(parsed.ref)) {
    const doc = readDocument(parsed.ref, options.documentForm, "--as");
    origin = doc.origin;
    form = doc.form;
    transcript = doc.transcript;
    if (options.titleDocuments && transcript.meta.title === undefined) {
      const title = promptTitle(transcript.body);
      if (title !== undefined) transcript = { ...transcript, meta: { ...transcript.meta, title } };
    }
  } else {
    // Resolving and loading read the stores only: the index is never opened for them.
    const sessions = new Sessions({
      env: process.env,
      roots: rootsFrom(command),
      backend: await archiveFor(command),
    });
    try {
      found = await sessions.resolve(parsed.ref, options.from);
    } catch (error) {
      // `view sesion.jsonl`: a mistyped file name is not an unknown session id.
      if (error instanceof NotFoundError && looksLikePath(parsed.ref)) {
        const directory = existsSync(parsed.ref);
        throw new TxcriptError(
          undefined,
          directory
            ? "cannot read: is a directory, not a session file"
            : "no such file (and no session id matches it)",
          { file: parsed.ref, cause: error },
        );
      }
      throw error;
    }
    let loaded: Awaited<ReturnType<Sessions["load"]>>;
    try {
      loaded = await sessions.load(found);
      forkedFrom = await sessions.lineage(found);
    } finally {
      sessions.close();
    }
    transcript = loaded.transcript;
    path = loaded.path;
  }
  const label = found ? `session ${found.id}` : (origin ?? "the document");
  const { start, end } = selectMessages(transcript.body, parsed.range, label);
  const source: Source = { transcript, start, end };
  if (found) source.found = found;
  if (forkedFrom) source.forkedFrom = forkedFrom;
  assignDefined(source, "path", path);
  assignDefined(source, "origin", origin);
  assignDefined(source, "form", form);
  return source;
}

/** The selected messages as a transcript of their own. */
export function selected(source: Source): Transcript<Common> {
  return sliceTranscript(source.transcript, source);
}
