/**
 * Amp's store, read-only: `~/.local/share/amp/threads/T-<uuid>.json`, one
 * thread per file. txcript does not write or delete Amp threads: see
 * `save`.
 */

import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { isJsonObject } from "../../common.js";
import { NotFoundError, UnsupportedError } from "../../errors.js";
import { checkPathComponent } from "../../paths.js";
import { EPOCH, timestampFromMillis } from "../../time.js";
import type {
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
import type { AmpBody } from "./body.js";
import {
  AmpProbe,
  ampRoot,
  THREAD_SUFFIX,
  THREADS_DIR,
  threadFingerprint,
  threadNames,
} from "./probe.js";
import { parseAmp } from "./text.js";

/** Why `continue --with amp` refuses, in one line. */
const WRITE_REFUSAL =
  "txcript reads Amp threads but does not write them: Amp keeps its threads on its server, and current Amp CLIs neither read nor resume local thread files";

export class AmpStore extends OneRootStore implements Store<AmpBody> {
  readonly harness = "amp" as const;
  readonly threadsDir: string;

  constructor(options: StoreOptions = {}) {
    super(ampRoot(options));
    this.threadsDir = join(this.root, THREADS_DIR);
  }

  scan(): Fingerprint[] {
    return new AmpProbe({ root: this.root }).scan();
  }

  ids(): string[] {
    return threadNames(this.threadsDir).map((n) => n.slice(0, -THREAD_SUFFIX.length));
  }

  load(id: string): Transcript<AmpBody> {
    checkPathComponent(id, "amp");
    const path = join(this.threadsDir, `${id}${THREAD_SUFFIX}`);
    if (!statSync(path, { throwIfNoEntry: false })?.isFile())
      throw new NotFoundError("amp", `no Amp thread ${id} in ${this.threadsDir}`);
    const t = parseAmp(readFileSync(path, "utf8"), path);
    // Amp finds a thread by its file's name, whatever the document says.
    const meta = { ...t.meta, id };
    if (meta.timestamp === EPOCH) meta.timestamp = timestampFromMillis(statSync(path).mtimeMs);
    return { meta, body: t.body };
  }

  async discover(options: DiscoverOptions = {}): Promise<Discovery> {
    return discoverEach(
      this.ids(),
      (id) => join(this.threadsDir, `${id}${THREAD_SUFFIX}`),
      (id, path) => {
        const t = this.load(id);
        const fingerprint = threadFingerprint(path);
        const messages = Array.isArray(t.body.thread.messages) ? t.body.thread.messages : [];
        return {
          harness: "amp",
          id,
          path,
          meta: t.meta,
          updated: timestampFromMillis(fingerprint.files[0]?.mtime_ms ?? 0),
          message_count: messages.filter(
            (m) => isJsonObject(m) && (m.role === "user" || m.role === "assistant"),
          ).length,
          fingerprint,
        };
      },
      options,
    );
  }

  fingerprint(id: string): Fingerprint | undefined {
    return listedFingerprint(
      id,
      () => this.ids(),
      () => threadFingerprint(join(this.threadsDir, `${id}${THREAD_SUFFIX}`)),
    );
  }

  save(): Saved {
    throw new UnsupportedError("amp", WRITE_REFUSAL);
  }

  delete(): string[] {
    throw deleteRefusal("amp", "Amp threads");
  }
}
