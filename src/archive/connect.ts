/**
 * Connections to the archive: a `pg` pool over the URL (TLS settings pass
 * through the URL's own `sslmode`, `sslrootcert`, ... parameters, as `pg`
 * reads them), and every driver failure as one line that names the archive
 * by its redacted URL and never quotes a password.
 */

import pg from "pg";
import { ArchiveError, describeCause, TxcriptError, UnsupportedError } from "../errors.js";
import { hideSecrets, redactUrl } from "./url.js";

/** How long a connection attempt may take before the host is called unreachable. */
const CONNECT_TIMEOUT_MS = 10_000;

export type Pool = pg.Pool;
export type Client = pg.PoolClient;

/**
 * The URL as `pg` should read it. A postgres URL is libpq's, so its
 * `sslmode=prefer|require|verify-ca` keeps libpq's meaning (docs/archive.md);
 * `pg` 8 reads those as verify-full and prints a ten-line warning on every
 * run unless asked for libpq's semantics.
 */
export function driverUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  const mode = parsed.searchParams.get("sslmode");
  if (mode === null || !["prefer", "require", "verify-ca"].includes(mode)) return url;
  if (parsed.searchParams.has("uselibpqcompat")) return url;
  parsed.searchParams.set("uselibpqcompat", "true");
  return parsed.toString();
}

export function openPool(url: string): Pool {
  const pool = new pg.Pool({
    connectionString: driverUrl(url),
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    max: 4,
    // An idle pool never keeps the process alive: a door may forget to end it.
    allowExitOnIdle: true,
    application_name: "txcript",
  });
  // An idle connection the server drops must not crash the process; the next query reports it.
  pool.on("error", () => {});
  return pool;
}

function code(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || !("code" in error)) return undefined;
  return typeof error.code === "string" ? error.code : undefined;
}

/** A driver failure as an ArchiveError: one line, the URL redacted, the password nowhere. */
function archiveFailure(url: string, error: unknown, doing: string): TxcriptError {
  if (error instanceof ArchiveError) return error;
  // txcript's own failures (a session that cannot be read) keep their words;
  // a schema this txcript cannot use is about the archive, so it is named.
  if (error instanceof TxcriptError && !(error instanceof UnsupportedError)) return error;
  const where = redactUrl(url);
  const c = code(error);
  let detail: string;
  switch (c) {
    case "28P01":
    case "28000":
      detail = "the server refused the user name or password";
      break;
    case "3D000":
      detail = "no such database on the server";
      break;
    case "ECONNREFUSED":
      detail = "nothing is listening there (connection refused)";
      break;
    case "ENOTFOUND":
    case "EAI_AGAIN":
      detail = "no such host";
      break;
    case "ETIMEDOUT":
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      detail = "the host cannot be reached";
      break;
    case "42501":
      detail = `permission denied (${hideSecrets(describeCause(error).split("\n")[0] ?? "", url)})`;
      break;
    default: {
      const text = hideSecrets(describeCause(error).split("\n")[0] ?? "", url);
      detail = /timeout/i.test(text) ? "the host did not answer in time" : text;
    }
  }
  return new ArchiveError(undefined, `${doing}: ${detail}`, { file: where, cause: error });
}

/** Run `work` on one connection of `pool`; failures become one-line ArchiveErrors. */
export async function withClient<T>(
  pool: Pool,
  url: string,
  doing: string,
  work: (client: Client) => Promise<T>,
): Promise<T> {
  let client: Client;
  try {
    client = await pool.connect();
  } catch (error) {
    throw archiveFailure(url, error, "cannot connect to the archive");
  }
  let broken = false;
  // The server may end the connection between two queries (a restart): the
  // driver emits that as an event, which must not crash the process; the
  // next query fails and says so.
  const dropped = () => {
    broken = true;
  };
  client.on("error", dropped);
  try {
    return await work(client);
  } catch (error) {
    broken = true;
    throw archiveFailure(url, error, doing);
  } finally {
    client.off("error", dropped);
    client.release(broken);
  }
}

/** Run `work` in one transaction: all of it is written, or none. */
export async function transaction<T>(client: Client, work: () => Promise<T>): Promise<T> {
  await client.query("BEGIN");
  try {
    const out = await work();
    await client.query("COMMIT");
    return out;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  }
}
