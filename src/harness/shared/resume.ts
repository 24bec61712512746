/**
 * A harness's resume command: its argv, run in the session's working
 * directory when the session names one (harnesses scope sessions by the
 * directory they start in). Pure.
 */

import type { ResumeCommand } from "../../transcript.js";

export function resumeIn(argv: ResumeCommand["argv"], cwd: string | undefined): ResumeCommand {
  return cwd === undefined ? { argv } : { argv, cwd };
}
