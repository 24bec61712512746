/**
 * The Cursor registry entry: codec, text codec (the agent transcript's
 * JSON lines, or a chat store's blobs under a header line) and a read-only
 * store over `~/.cursor`. No resume command: txcript writes no Cursor
 * session (see `WRITE_REFUSAL`).
 */

import { HARNESS_LABELS, type Harness } from "../../transcript.js";
import type { CursorBody } from "./body.js";
import { cursorCodec } from "./codec.js";
import { CursorStore } from "./store.js";
import { cursorText } from "./text.js";

export type { CursorBody } from "./body.js";

export { CursorStore } from "./store.js";

export const cursor: Harness<"cursor", CursorBody> = {
  id: "cursor",
  label: HARNESS_LABELS.cursor,
  codec: cursorCodec,
  text: cursorText,
  store: (options) => new CursorStore(options),
};
