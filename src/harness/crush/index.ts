/**
 * The Crush registry entry: codec, text codec (the session's rows as one
 * JSON document), the store over each project's `crush.db`, and the resume
 * line: `crush --data-dir <the database's folder> --session <id>` in the
 * project's directory (Crush's own flags, internal/cmd/root.go). `--out`
 * is refused: `projects.json` names data directories by absolute path.
 */

import { dirname } from "node:path";
import { HARNESS_LABELS, type Harness } from "../../transcript.js";
import { resumeIn } from "../shared/resume.js";
import type { CrushBody } from "./body.js";
import { crushCodec } from "./codec.js";
import { CrushStore } from "./store.js";
import { crushText } from "./text.js";

export const crush: Harness<"crush", CrushBody> = {
  id: "crush",
  label: HARNESS_LABELS.crush,
  codec: crushCodec,
  text: crushText,
  store: (options) => new CrushStore(options),
  resume: (saved, meta) =>
    resumeIn(
      ["crush", "--data-dir", dirname(saved.path), "--session", saved.id],
      meta.cwd === "" ? undefined : meta.cwd,
    ),
  outRefusal:
    "Crush finds a project's sessions through projects.json, which names each data directory by its absolute path, so a copy under --out would be lost once the folder moved; continue without --out",
};
