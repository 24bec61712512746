/**
 * The resume line every door prints after a continue: the harness's
 * command, after `cd <its directory> &&` when it names one, each word
 * quoted as a POSIX shell reads it. One quoting, so the line a user copies
 * from the CLI and the one an MCP client shows are the same.
 */

import type { ResumeCommand } from "../transcript.js";

/**
 * One argument as a POSIX shell word: bare when it is made of characters
 * no shell treats specially, else single-quoted. (shell-quote's `quote`
 * also backslashes `=`, which makes `--conversation=<id>` hard to read.)
 */
export function shellWord(arg: string): string {
  if (/^[A-Za-z0-9_\-./:=@%+,]+$/.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/**
 * `cd <cwd> && <VAR=value…> <argv…>`, or the command alone; `mkdir` first
 * makes a missing directory. Each assignment quotes its value only, so a
 * shell still reads it as an assignment.
 */
export function resumeLine(resume: ResumeCommand, options: { mkdir?: boolean } = {}): string {
  const cwd = resume.cwd;
  const cd =
    cwd === undefined
      ? ""
      : `${options.mkdir ? `mkdir -p ${shellWord(cwd)} && ` : ""}cd ${shellWord(cwd)} && `;
  const assignments = Object.entries(resume.env ?? {}).map(
    ([name, value]) => `${name}=${shellWord(value)} `,
  );
  return cd + assignments.join("") + resume.argv.map(shellWord).join(" ");
}
