/**
 * A conversation database named by path (a file given on the command
 * line), read through its store when it is in one's `conversations/`
 * folder, else its rows alone.
 */

import { basename, dirname, resolve } from "node:path";
import { readSnapshot } from "../../sqlite.js";
import type { Transcript } from "../../transcript.js";
import type { AntigravityBody } from "./body.js";
import { AntigravityStore } from "./store.js";
import { checkFile } from "./store-discover.js";
import { HARNESS, readShownDatabase } from "./store-rows.js";
import { listingRows, summarize } from "./summary.js";

/**
 * Read a conversation database named by path for one reading, as
 * `AntigravityStore.loadFor` gives it: through its store (brain logs,
 * annotation and lane included) when it is in one's `conversations/`
 * folder, else its rows alone.
 */
export function loadConversationFileFor<T>(
  path: string,
  read: (transcript: Transcript<AntigravityBody>) => T,
): T {
  const { id, store } = conversationFile(path);
  if (store) return store.loadFor(id, read);
  return readSnapshot(
    path,
    (conn) => {
      const body = readShownDatabase(conn, path, id);
      return read({ meta: summarize(listingRows(body)).meta, body });
    },
    { harness: HARNESS, wal: checkFile(path) },
  );
}

/** The id a database file names, and the store it belongs to, if any. */
function conversationFile(path: string): { id: string; store?: AntigravityStore } {
  const id = basename(path).replace(/\.db$/i, "");
  const dir = dirname(resolve(path));
  if (basename(dir) === "conversations" && basename(path).endsWith(".db")) {
    return { id, store: new AntigravityStore({ root: dirname(dir), env: {} }) };
  }
  return { id };
}
