/**
 * Grok's store, read-only: `$GROK_HOME/sessions/<cwd group>/<uuid>/`, one
 * session a folder (`summary.json`, `updates.jsonl`, `chat_history.jsonl`).
 * txcript does not write or delete Grok sessions: see `save`.
 */

import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { isJsonObject, type JsonObject, type Meta } from "../../common.js";
import { NotFoundError, ParseError, UnsupportedError } from "../../errors.js";
import { isRegularFile } from "../../fsx.js";
import { assignDefined, jsonFromText } from "../../json.js";
import { checkLinkInside, checkPathComponent } from "../../paths.js";
import { EPOCH, timestampFromMillis } from "../../time.js";
import type {
  Discovered,
  DiscoverOptions,
  Discovery,
  Fingerprint,
  Saved,
  Store,
  StoreOptions,
  Transcript,
} from "../../transcript.js";
import { OneRootStore } from "../shared/one-root.js";
import { deleteRefusal, discoverEach, listedFingerprint } from "../shared/store-read-only.js";
import { type GrokBody, messageCount } from "./body.js";
import { grokMeta, grokParent } from "./meta.js";
import {
  GrokProbe,
  type GrokSession,
  grokRoot,
  grokSessions,
  HISTORY,
  SUMMARY,
  sessionFingerprint,
  UPDATES,
} from "./probe.js";
import { jsonLines } from "./text.js";

/** Why `continue --with grok` refuses, in one line. */
const WRITE_REFUSAL =
  "txcript reads Grok CLI sessions but does not write them: how Grok resumes a session from its files is only partly known, and no Grok binary proved a written one resumes";

/** A file's lines when it is there; none when it is not. */
function linesOf(path: string): JsonObject[] {
  return isRegularFile(path) ? jsonLines(readFileSync(path, "utf8"), path) : [];
}

/** `summary.json` when it is there (a JSON object); empty when it is not. */
function summaryOf(path: string): JsonObject {
  if (!isRegularFile(path)) return {};
  let value: unknown;
  try {
    value = jsonFromText(readFileSync(path, "utf8"));
  } catch {
    throw new ParseError("grok", "not a JSON document", { file: path });
  }
  if (!isJsonObject(value)) throw new ParseError("grok", "expected a JSON object", { file: path });
  return value;
}

/**
 * The working directory a cwd group stands for: its `.cwd` file when it
 * has one (Grok writes it when the name would be too long), else the
 * folder's name percent-decoded (kept as it is when that fails).
 */
function groupCwd(group: string): string | undefined {
  const file = join(group, ".cwd");
  if (isRegularFile(file)) {
    const text = readFileSync(file, "utf8").trim();
    if (text !== "") return text;
  }
  const name = basename(group);
  try {
    return decodeURIComponent(name) || undefined;
  } catch {
    return name;
  }
}

export class GrokStore extends OneRootStore implements Store<GrokBody> {
  readonly harness = "grok" as const;

  constructor(options: StoreOptions = {}) {
    super(grokRoot(options));
  }

  scan(): Fingerprint[] {
    return new GrokProbe({ root: this.root }).scan();
  }

  ids(): string[] {
    return [...grokSessions(this.root).keys()];
  }

  private session(id: string): GrokSession {
    checkPathComponent(id, "grok");
    const s = grokSessions(this.root).get(id);
    if (s === undefined)
      throw new NotFoundError("grok", `no Grok session ${id} in ${join(this.root, "sessions")}`);
    return s;
  }

  private read(s: GrokSession): Transcript<GrokBody> {
    // A link leading out of the store is not followed, folder or file.
    for (const path of [s.group, s.dir, ...[SUMMARY, UPDATES, HISTORY].map((n) => join(s.dir, n))])
      checkLinkInside(this.root, path, "grok");
    const body: GrokBody = {
      summary: summaryOf(join(s.dir, SUMMARY)),
      updates: linesOf(join(s.dir, UPDATES)),
      history: linesOf(join(s.dir, HISTORY)),
    };
    // Grok finds a session by its folder's name, whatever the summary says.
    const meta: Meta = { ...grokMeta(body.summary, s.id), id: s.id };
    if (meta.cwd === undefined) {
      const cwd = groupCwd(s.group);
      assignDefined(meta, "cwd", cwd);
    }
    if (meta.timestamp === EPOCH) {
      // updates.jsonl's time, else (a session of chat history only) the first file there is.
      const first = sessionFingerprint(s).files.find((f) => f.size >= 0);
      meta.timestamp = timestampFromMillis(first?.mtime_ms ?? 0);
    }
    return { meta, body };
  }

  load(id: string): Transcript<GrokBody> {
    return this.read(this.session(id));
  }

  async discover(options: DiscoverOptions = {}): Promise<Discovery> {
    const sessions = [...grokSessions(this.root).values()];
    return discoverEach(
      sessions,
      (s) => join(s.dir, UPDATES),
      (s, path): Discovered => {
        const t = this.read(s);
        const fingerprint = sessionFingerprint(s);
        const newest = Math.max(...fingerprint.files.map((f) => f.mtime_ms));
        const found: Discovered = {
          harness: "grok",
          id: s.id,
          path: isRegularFile(path) ? path : join(s.dir, HISTORY),
          meta: t.meta,
          updated: timestampFromMillis(newest),
          message_count: messageCount(t.body),
          fingerprint,
        };
        const parent = grokParent(t.body.summary);
        assignDefined(found, "parent_id", parent);
        return found;
      },
      options,
    );
  }

  fingerprint(id: string): Fingerprint | undefined {
    return listedFingerprint(
      id,
      () => this.ids(),
      () => sessionFingerprint(this.session(id)),
    );
  }

  save(): Saved {
    throw new UnsupportedError("grok", WRITE_REFUSAL);
  }

  delete(): string[] {
    throw deleteRefusal("grok", "Grok CLI sessions");
  }
}
