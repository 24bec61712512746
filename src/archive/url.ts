/**
 * The archive's address: a `postgres://` or `postgresql://` URL, given on
 * the command line or in TXCRIPT_ARCHIVE, and the one way it is shown to
 * anyone (`redactUrl`): the password never leaves this module in a message.
 * Pure.
 */

import { InvalidRequestError } from "../errors.js";

/** What stands in for a password wherever a URL is shown. */
const HIDDEN = "***";

/** The URL with its password (and any `password=` parameter) replaced; unparsable text is hidden whole. */
export function redactUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return "<the archive URL>";
  }
  if (url.password !== "") url.password = HIDDEN;
  for (const key of [...url.searchParams.keys()]) {
    if (/pass|secret|key/i.test(key)) url.searchParams.set(key, HIDDEN);
  }
  return url.toString();
}

/** Hide `url`'s password wherever it appears in `text` (a driver's message may quote it). */
export function hideSecrets(text: string, url: string): string {
  let out = text;
  try {
    const parsed = new URL(url);
    const secrets = [parsed.password, decodeURIComponent(parsed.password)];
    for (const [key, value] of parsed.searchParams)
      if (/pass|secret|key/i.test(key)) secrets.push(value);
    for (const secret of secrets) if (secret.length > 0) out = out.split(secret).join(HIDDEN);
  } catch {
    // an unparsable URL is never quoted: the caller names it by redactUrl
  }
  return out.split(url).join(redactUrl(url));
}

/** Check that `text` is a PostgreSQL URL; throws a one-line error naming it (redacted). */
export function checkArchiveUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InvalidRequestError(
      undefined,
      "the archive must be a postgres://user@host/database URL",
    );
  }
  if (url.protocol !== "postgres:" && url.protocol !== "postgresql:")
    throw new InvalidRequestError(
      undefined,
      `the archive must be a postgres:// URL, not ${redactUrl(text)}`,
    );
  return text;
}

/** How `--archive` was given: the URL, and whether its password sits on the command line. */
export interface ArchiveAddress {
  url: string;
  /** A password in a URL typed on the command line: other users see it in the process list. */
  passwordInArguments: boolean;
}

/**
 * What `--archive VALUE` names: a `postgres://` URL, or the name of an
 * environment variable that holds one (`--archive TXCRIPT_ARCHIVE`), which
 * keeps the URL and its password out of the process list.
 */
export function archiveAddress(
  value: string,
  env: Readonly<Record<string, string | undefined>>,
): ArchiveAddress {
  if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(value)) {
    const url = env[value];
    if (url === undefined || url === "")
      throw new InvalidRequestError(
        undefined,
        `--archive ${value}: the environment variable ${value} is not set (give a postgres:// URL or the name of a variable holding one)`,
      );
    return { url: checkArchiveUrl(url), passwordInArguments: false };
  }
  const url = checkArchiveUrl(value);
  return { url, passwordInArguments: new URL(url).password !== "" };
}
