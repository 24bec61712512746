/**
 * Qwen Code's tool calls <-> canonical tools: Gemini CLI's mapping
 * (../shared/gemini-tools.ts) in Qwen Code's dialect, read from its
 * tool-names.ts and the tools' schemas (0.24.4):
 * - `run_shell_command {command, description?, directory?, is_background?,
 *   timeout? (ms)}` -> Bash;
 * - `read_file {file_path, offset? (0-based, needs limit), limit?}` -> Read
 *   (`pages`, or a null offset, stay Raw);
 * - `write_file {file_path, content}` -> Write (`record_as_artifact` stays Raw);
 * - `edit {file_path, old_string, new_string, replace_all?}` -> Edit.
 */

import { toolMap } from "../shared/gemini-tools.js";

export const SHELL = "run_shell_command";

export const { callToTool, toolToCall } = toolMap({
  shell: SHELL,
  shellDir: "directory",
  shellTimeout: "timeout",
  read: "read_file",
  readRange: "offset",
  write: "write_file",
  edit: "edit",
  editAll: "replace_all",
});
