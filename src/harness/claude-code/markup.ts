/**
 * The tag markup Claude Code records slash commands in, on `user` lines
 * (older CLIs) or `system`/`local_command` lines (newer):
 * `<command-name>/x</command-name>`, `<command-message>`, `<command-args>`
 * for the command, `<local-command-stdout>` / `<local-command-stderr>` for
 * what it printed, `<local-command-caveat>` for fixed boilerplate.
 *
 * Only a string that is *entirely* markup counts, so prose that quotes a tag
 * stays prose. Output envelopes are read from the first opening tag to the
 * last closing tag, which makes reading the exact inverse of writing without
 * any escaping, whatever the payload contains.
 */

export interface CommandMarkup {
  /** With its leading slash: `/review`. */
  name: string;
  /** Absent when the command had no arguments (an empty `<command-args>` reads as absent). */
  args?: string;
}

export type Markup =
  | { kind: "command"; command: CommandMarkup }
  | { kind: "output"; text: string; isError: boolean }
  | { kind: "caveat" };

const COMMAND_TAGS = ["command-name", "command-message", "command-args"] as const;
type CommandTag = (typeof COMMAND_TAGS)[number];

/** Classify a user or system string; undefined when it is ordinary text. */
export function readMarkup(text: string): Markup | undefined {
  const t = text.trim();
  if (!t.startsWith("<")) return undefined;
  for (const [tag, isError] of [
    ["local-command-stdout", false],
    ["local-command-stderr", true],
  ] as const) {
    const inner = envelope(t, tag);
    if (inner !== undefined) return { kind: "output", text: inner, isError };
  }
  if (envelope(t, "local-command-caveat") !== undefined) return { kind: "caveat" };
  const fields = readCommandFields(t);
  const name = fields?.["command-name"]?.trim();
  if (fields === undefined || name === undefined || name === "") return undefined;
  const command: CommandMarkup = { name: name.startsWith("/") ? name : `/${name}` };
  const args = fields["command-args"];
  if (args !== undefined && args !== "") command.args = args;
  return { kind: "command", command };
}

/** The inner text when `t` is exactly `<tag>...</tag>`. */
function envelope(t: string, tag: string): string | undefined {
  const open = `<${tag}>`;
  const close = `</${tag}>`;
  if (!t.startsWith(open) || !t.endsWith(close) || t.length < open.length + close.length) {
    return undefined;
  }
  return t.slice(open.length, t.length - close.length);
}

/**
 * A sequence of command elements in any order, whitespace between them and
 * nothing else. An element ends at the first matching closing tag that is
 * followed by the end or by the next element's opening tag.
 */
function readCommandFields(t: string): Partial<Record<CommandTag, string>> | undefined {
  const fields: Partial<Record<CommandTag, string>> = {};
  let pos = 0;
  while (pos < t.length) {
    const tag = COMMAND_TAGS.find((name) => t.startsWith(`<${name}>`, pos));
    if (tag === undefined || fields[tag] !== undefined) return undefined;
    const start = pos + tag.length + 2;
    const close = `</${tag}>`;
    let end = t.indexOf(close, start);
    for (; end !== -1; end = t.indexOf(close, end + 1)) {
      const after = skipSpace(t, end + close.length);
      if (after === t.length || COMMAND_TAGS.some((name) => t.startsWith(`<${name}>`, after))) {
        break;
      }
    }
    if (end === -1) return undefined;
    fields[tag] = t.slice(start, end);
    pos = skipSpace(t, end + close.length);
  }
  return fields;
}

function skipSpace(t: string, pos: number): number {
  let i = pos;
  while (i < t.length && /\s/.test(t.charAt(i))) i++;
  return i;
}

/** The markup Claude Code writes for a command (name, message, args, in its order). */
export function commandMarkup(command: CommandMarkup): string {
  const bare = command.name.replace(/^\//, "");
  return (
    `<command-name>${command.name}</command-name>\n` +
    `<command-message>${bare}</command-message>\n` +
    `<command-args>${command.args ?? ""}</command-args>`
  );
}

export function outputMarkup(text: string, isError: boolean): string {
  const tag = isError ? "local-command-stderr" : "local-command-stdout";
  return `<${tag}>${text}</${tag}>`;
}
