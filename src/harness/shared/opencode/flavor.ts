/**
 * What tells apart the members of the OpenCode family (OpenCode itself and
 * the CLIs built on it, such as Kilo Code's): one set of parameters each,
 * handed to the shared probe, store, codec and text codec of this folder.
 * The rows, ids, parts and the export document are OpenCode's in every
 * member; a member differs in where it keeps its database, what the
 * database's schema holds beyond OpenCode's, and the agent a written
 * session names. Pure data, no I/O.
 */

/** The harnesses of the family. */
export type OpenCodeFamily = "opencode" | "kilo";

/** Where a member keeps its database: all a probe needs. */
export interface OpenCodePlace {
  readonly harness: OpenCodeFamily;
  /** The member's name in messages ("OpenCode", "Kilo"). */
  readonly name: string;
  /** Its data folder under `$XDG_DATA_HOME`. */
  readonly dataDir: string;
  /** The database's file name in that folder. */
  readonly database: string;
  /** txcript's variable for the data folder (`TXCRIPT_<HARNESS>_ROOT`). */
  readonly rootVariable: string;
  /**
   * The member's own variable naming the database file: an absolute path as
   * it is, a relative one under the data folder (Kilo's `KILO_DB`).
   */
  readonly databaseVariable?: string;
  /** The file in a repository's git folder where the CLI caches its project id. */
  readonly gitCache: string;
}

/** A fresh database as the member creates it where it never ran. */
export interface OpenCodeSchema {
  /** The member's version whose fresh database the statements reproduce. */
  readonly version: string;
  /** CREATE statements, in sqlite_master's order. */
  readonly statements: readonly string[];
  /** The migration ids its `migration` table records as done. */
  readonly migrations: readonly string[];
}

export interface OpenCodeFlavor extends OpenCodePlace {
  readonly schema: OpenCodeSchema;
  /** The primary agent a written session's messages name (OpenCode's `build`, Kilo's `code`). */
  readonly agent: string;
}
