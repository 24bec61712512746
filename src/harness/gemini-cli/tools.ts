/**
 * Gemini CLI tool calls <-> canonical tools.
 *
 * Reading: a call becomes a typed tool only when its arguments fit exactly:
 * - `run_shell_command {command, description?, dir_path?, is_background?}`
 *   -> Bash (`dir_path` as workdir, `is_background` as run_in_background);
 * - `read_file {file_path, start_line?, end_line?}` -> Read (offset =
 *   start_line, limit = end_line - start_line + 1, all 1-based inclusive;
 *   an end_line alone is a limit from line 1);
 * - `write_file {file_path, content}` -> Write;
 * - `replace {file_path, old_string, new_string, allow_multiple?}` -> Edit.
 *   The CLI's schema requires an `instruction`, which no Edit field holds,
 *   so a call that carries one stays Raw (lossless) rather than losing it.
 * Older argument spellings (`directory`, `absolute_path`, 0-based `offset`,
 * `expected_replacements`), extra keys (`delay_ms`) and every other tool stay
 * Raw; canonical names txcript wrote (`Bash`, `Read`, …) come back typed.
 *
 * The mapping itself is shared with Qwen Code (../shared/gemini-tools.ts);
 * this is Gemini CLI's dialect of it.
 *
 * Writing is the inverse: the native name where the tool fits it exactly,
 * else the canonical name with its canonical input (a Bash with a timeout,
 * MultiEdit), which the CLI replays as plain history.
 */

import { toolMap } from "../shared/gemini-tools.js";

export const SHELL = "run_shell_command";

const GEMINI_TOOLS = toolMap({
  shell: SHELL,
  shellDir: "dir_path",
  read: "read_file",
  readRange: "lines",
  write: "write_file",
  edit: "replace",
  editAll: "allow_multiple",
});

/** A Gemini function call as a canonical tool. */
export const callToTool = GEMINI_TOOLS.callToTool;

/** A canonical tool as a Gemini function call (name and args). */
export const toolToCall = GEMINI_TOOLS.toolToCall;
