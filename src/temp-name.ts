/**
 * The name txcript gives a file while it is being written (temp + rename),
 * shared by the writer and by error messages, which name the folder the
 * user knows rather than the temporary file.
 */

/**
 * `.<name>.tmp-<pid>-<hex>`, plus SQLite's sidecars of such a name; the hex
 * starts with the writer's namespace tag (fsx.ts `namespaceTag`).
 */
export const TEMP_NAME = /^\..+\.tmp-(\d+)-([0-9a-f]+)(?:-journal|-wal|-shm)?$/;
