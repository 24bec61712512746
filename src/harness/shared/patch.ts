/**
 * Codex's `apply_patch` envelope, which OpenCode's `apply_patch` tool takes
 * too: reading it into file operations (and into Write or Edit when it is
 * exactly one), and writing the two shapes txcript maps to typed tools (a
 * single Add File for Write, a single one-hunk Update File for Edit). Pure
 * string work.
 *
 * The grammar, in Codex's terms:
 *   *** Begin Patch
 *   *** Add File: <path>      then lines "+<text>"
 *   *** Delete File: <path>
 *   *** Update File: <path>   then optional "*** Move to: <path>", then hunks:
 *       "@@ <optional anchor>", lines " ctx" / "-old" / "+new", optional "*** End of File"
 *   *** End Patch
 * Hand-written: no maintained JavaScript parser for this envelope exists.
 */

import type { Tool } from "../../common.js";

interface HunkLine {
  sign: " " | "-" | "+";
  text: string;
}
interface Hunk {
  /** Text after "@@", trimmed; "" for a bare "@@" or an implicit first hunk. */
  anchor: string;
  lines: HunkLine[];
  endOfFile: boolean;
}
type PatchOp =
  | { kind: "add"; path: string; lines: string[] }
  | { kind: "delete"; path: string }
  | { kind: "update"; path: string; moveTo: string | undefined; hunks: Hunk[] };

const BEGIN = "*** Begin Patch";
const END = "*** End Patch";
const ADD = "*** Add File: ";
const DELETE = "*** Delete File: ";
const UPDATE = "*** Update File: ";
const MOVE = "*** Move to: ";
const EOF_MARK = "*** End of File";

/** Parse a patch; undefined when it does not follow the grammar (it then stays Raw). */
function parsePatch(text: string): PatchOp[] | undefined {
  const lines = text.split("\n");
  // A trailing newline (or trailing blank lines) after the end marker is usual.
  while (lines.length > 0 && (lines.at(-1) ?? "").trim() === "") lines.pop();
  if (lines.length < 2 || lines[0]?.trim() !== BEGIN || lines[lines.length - 1]?.trim() !== END) {
    return undefined;
  }
  const body = lines.slice(1, -1);
  const ops: PatchOp[] = [];
  let i = 0;
  const path = (line: string, prefix: string): string | undefined => {
    const p = line.slice(prefix.length).trim();
    return p === "" ? undefined : p;
  };
  while (i < body.length) {
    const line = body[i] ?? "";
    if (line.startsWith(ADD)) {
      const p = path(line, ADD);
      if (p === undefined) return undefined;
      i++;
      const added: string[] = [];
      while (i < body.length && !(body[i] ?? "").startsWith("*** ")) {
        const l = body[i] ?? "";
        if (!l.startsWith("+")) return undefined;
        added.push(l.slice(1));
        i++;
      }
      ops.push({ kind: "add", path: p, lines: added });
    } else if (line.startsWith(DELETE)) {
      const p = path(line, DELETE);
      if (p === undefined) return undefined;
      ops.push({ kind: "delete", path: p });
      i++;
    } else if (line.startsWith(UPDATE)) {
      const p = path(line, UPDATE);
      if (p === undefined) return undefined;
      i++;
      let moveTo: string | undefined;
      if (i < body.length && (body[i] ?? "").startsWith(MOVE)) {
        moveTo = path(body[i] ?? "", MOVE);
        if (moveTo === undefined) return undefined;
        i++;
      }
      const hunks: Hunk[] = [];
      let hunk: Hunk | undefined;
      while (i < body.length) {
        const l = body[i] ?? "";
        if (l.startsWith("@@")) {
          hunk = { anchor: l.slice(2).trim(), lines: [], endOfFile: false };
          hunks.push(hunk);
        } else if (l.trim() === EOF_MARK) {
          if (!hunk) return undefined;
          hunk.endOfFile = true;
        } else if (l.startsWith("*** ")) {
          break;
        } else {
          // Codex lets the first hunk of a file omit its "@@" line.
          if (!hunk) {
            hunk = { anchor: "", lines: [], endOfFile: false };
            hunks.push(hunk);
          }
          if (hunk.endOfFile) return undefined;
          const sign = l[0];
          if (l === "") hunk.lines.push({ sign: " ", text: "" });
          else if (sign === " " || sign === "-" || sign === "+") {
            hunk.lines.push({ sign, text: l.slice(1) });
          } else return undefined;
        }
        i++;
      }
      if (hunks.length === 0 || hunks.some((h) => h.lines.length === 0)) return undefined;
      ops.push({ kind: "update", path: p, moveTo, hunks });
    } else {
      return undefined;
    }
  }
  return ops.length > 0 ? ops : undefined;
}

/** A path the envelope can carry unchanged: one line, no surrounding blanks. */
function patchablePath(path: string): boolean {
  return path !== "" && path === path.trim() && !/[\r\n]/.test(path);
}

/** Content of an Add File: every line ends with "\n". */
function addedContent(lines: readonly string[]): string {
  return lines.map((l) => `${l}\n`).join("");
}

/** Whether `content` survives an Add File exactly: empty, or "\n"-terminated lines without "\r". */
function addable(content: string): boolean {
  return content === "" || (content.endsWith("\n") && !content.includes("\r"));
}

function renderAddPatch(path: string, content: string): string {
  const lines = content === "" ? [] : content.slice(0, -1).split("\n");
  return [BEGIN, `${ADD}${path}`, ...lines.map((l) => `+${l}`), END].join("\n");
}

/** One bare "@@" hunk replacing the old lines with the new ones, no context lines. */
function renderUpdatePatch(path: string, oldText: string, newText: string): string {
  return [
    BEGIN,
    `${UPDATE}${path}`,
    "@@",
    ...oldText.split("\n").map((l) => `-${l}`),
    ...newText.split("\n").map((l) => `+${l}`),
    END,
  ].join("\n");
}

/**
 * A Write or Edit as an `apply_patch` envelope, when the envelope carries it
 * exactly (the inverse of patchToTool); undefined otherwise. Codex and Cline
 * both write their file changes this way.
 */
export function toolToPatch(tool: Tool): string | undefined {
  if (tool.name === "Write")
    return patchablePath(tool.file_path) && addable(tool.content)
      ? renderAddPatch(tool.file_path, tool.content)
      : undefined;
  if (
    tool.name === "Edit" &&
    patchablePath(tool.file_path) &&
    tool.replace_all !== true &&
    !tool.old_string.includes("\r") &&
    !tool.new_string.includes("\r")
  )
    return renderUpdatePatch(tool.file_path, tool.old_string, tool.new_string);
  return undefined;
}

/** Old and new text of a hunk (context lines count in both), joined with "\n". */
function hunkTexts(hunk: Hunk): { old: string; new: string } {
  const pick = (keep: string) =>
    hunk.lines
      .filter((l) => l.sign === " " || l.sign === keep)
      .map((l) => l.text)
      .join("\n");
  return { old: pick("-"), new: pick("+") };
}

/** Write, Edit or Raw from an `apply_patch` envelope. */
export function patchToTool(patch: string): Tool {
  const ops = parsePatch(patch);
  const op = ops?.length === 1 ? ops[0] : undefined;
  if (op?.kind === "add") {
    return { name: "Write", file_path: op.path, content: addedContent(op.lines) };
  }
  if (op?.kind === "update" && op.moveTo === undefined && op.hunks.length === 1) {
    const [hunk] = op.hunks;
    // An anchored hunk ("@@ def f():") locates its lines by that anchor, which Edit cannot hold.
    if (hunk && hunk.anchor === "" && !hunk.endOfFile) {
      const texts = hunkTexts(hunk);
      return { name: "Edit", file_path: op.path, old_string: texts.old, new_string: texts.new };
    }
  }
  return { name: "Raw", tool_name: "apply_patch", input: patch };
}
