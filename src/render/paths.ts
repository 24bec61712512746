/**
 * How local paths appear on a page. By default no absolute local path is
 * shown: paths under the session's cwd become relative to it, the home
 * directory becomes `~`, and free text gets the same treatment so a pasted
 * `pwd` or an error message does not leak the user name. `showPaths` keeps
 * everything as recorded. Pure: home and cwd are given, never read here.
 */

export interface PathOptions {
  /** Keep absolute paths as recorded. */
  showPaths?: boolean;
  /** The home directory to show as `~` (the CLI passes the user's). */
  home?: string;
  /** The session's working directory; paths below it are shown relative. */
  cwd?: string;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function trimSlash(p: string): string {
  return p.length > 1 ? p.replace(/\/+$/, "") : p;
}

export interface PathStyle {
  /** A path from a tool call: relative to cwd, `~`-prefixed, or as is. */
  path(p: string): string;
  /** Free text with the cwd and home prefixes rewritten. */
  text(s: string): string;
  /** The session cwd as the header shows it. */
  cwd(p: string): string;
}

const identity: PathStyle = { path: (p) => p, text: (s) => s, cwd: (p) => p };

export function pathStyle(options: PathOptions): PathStyle {
  if (options.showPaths) return identity;
  const home = options.home && options.home !== "/" ? trimSlash(options.home) : undefined;
  const cwd = options.cwd && options.cwd !== "/" ? trimSlash(options.cwd) : undefined;
  const tilde = (p: string) =>
    home !== undefined && (p === home || p.startsWith(`${home}/`)) ? `~${p.slice(home.length)}` : p;
  const underCwd = (p: string) =>
    cwd !== undefined && (p === cwd || p.startsWith(`${cwd}/`))
      ? p === cwd
        ? "."
        : p.slice(cwd.length + 1)
      : undefined;
  // Longest prefix first, so the cwd (often inside home) wins over home.
  const prefixes = [cwd, home].filter((p): p is string => p !== undefined);
  const pattern =
    prefixes.length > 0
      ? new RegExp(`(${prefixes.map(escapeRegExp).join("|")})(?=$|[/\\s"'\`:;,)\\]}>])(/)?`, "g")
      : undefined;
  return {
    path: (p) => underCwd(p) ?? tilde(p),
    text: (s) =>
      pattern === undefined
        ? s
        : s.replace(pattern, (_m, prefix: string, slash: string | undefined) => {
            if (prefix === cwd) return slash ? "./" : ".";
            return `~${slash ?? ""}`;
          }),
    cwd: (p) => {
      const t = tilde(trimSlash(p));
      if (t.startsWith("~") || t === "/") return t;
      // Outside home: the last component only, so no local layout leaks.
      const last = t.split("/").filter(Boolean).pop();
      return last ? `…/${last}` : t;
    },
  };
}
