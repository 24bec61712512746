/**
 * A throwaway PostgreSQL cluster for tests: initdb and pg_ctl from
 * Debian's `postgresql` package, in a temporary directory, listening on
 * 127.0.0.1 at a free port (and a socket in that directory only), with
 * password (SCRAM) authentication. PostgreSQL refuses to run as root, so
 * as root the cluster is made and run by the unprivileged `postgres` user,
 * which owns the directory. `stop()` stops it and removes everything.
 */

import { execFileSync, spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface Cluster {
  host: string;
  port: number;
  /** The superuser's name and password. */
  user: string;
  password: string;
  /** A URL for `database` as `user` (default: the superuser). */
  url(database?: string, user?: string, password?: string): string;
  /** Run SQL as the superuser through psql; returns its unaligned output. */
  psql(sql: string, database?: string): string;
  /** Stop the server at once (clients' connections cut) and start it again. */
  restart(): void;
  stop(): void;
}

/** The newest installed PostgreSQL's bin directory, or undefined. */
export function postgresBin(): string | undefined {
  const base = "/usr/lib/postgresql";
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base)
    .filter((v) => existsSync(join(base, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(base, versions[0], "bin");
}

function freePort(): number {
  const out = execFileSync(
    process.execPath,
    [
      "-e",
      "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})",
    ],
    { encoding: "utf8" },
  );
  return Number(out);
}

export function startPostgres(): Cluster {
  const bin = postgresBin();
  if (bin === undefined)
    throw new Error("PostgreSQL is not installed (apt-get install postgresql)");
  const root = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), "txcript-pg-"));
  const asOwner = (cmd: string, args: string[]) => {
    const r = root
      ? spawnSync("runuser", ["-u", "postgres", "--", cmd, ...args], { encoding: "utf8" })
      : spawnSync(cmd, args, { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr || r.stdout}`);
    return r.stdout;
  };
  if (root) {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }));
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }));
    chownSync(dir, uid, gid);
  }
  const user = "txcript_admin";
  const password = "s3cret-Adm1n-pw";
  const pwfile = join(dir, "pw");
  writeFileSync(pwfile, `${password}\n`);
  if (root) execFileSync("chown", ["postgres:postgres", pwfile]);
  const data = join(dir, "data");
  asOwner(join(bin, "initdb"), [
    "-D",
    data,
    "-U",
    user,
    "--auth=scram-sha-256",
    `--pwfile=${pwfile}`,
    "-E",
    "UTF8",
    "--locale=C.UTF-8",
  ]);
  let port = 0;
  const pgCtl = (action: string, extra: string[] = []) =>
    asOwner(join(bin, "pg_ctl"), [
      "-D",
      data,
      "-l",
      join(dir, "log"),
      "-w",
      ...extra,
      "-o",
      `-c listen_addresses=127.0.0.1 -p ${port} -c unix_socket_directories=${dir} -c fsync=off -c max_connections=60`,
      action,
    ]);
  for (let attempt = 0; ; attempt++) {
    port = freePort();
    try {
      pgCtl("start");
      break;
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
  const host = "127.0.0.1";
  const cluster: Cluster = {
    host,
    port,
    user,
    password,
    url: (database = "postgres", u = user, p = password) =>
      `postgres://${encodeURIComponent(u)}:${encodeURIComponent(p)}@${host}:${port}/${database}`,
    psql: (sql, database = "postgres") => {
      const r = spawnSync(
        join(bin, "psql"),
        [
          "-h",
          host,
          "-p",
          String(port),
          "-U",
          user,
          "-d",
          database,
          "-At",
          "-v",
          "ON_ERROR_STOP=1",
          "-c",
          sql,
        ],
        { encoding: "utf8", env: { ...process.env, PGPASSWORD: password } },
      );
      if (r.status !== 0) throw new Error(`psql failed: ${r.stderr}`);
      return r.stdout.trim();
    },
    restart: () => {
      pgCtl("restart", ["-m", "immediate"]);
    },
    stop: () => {
      try {
        asOwner(join(bin, "pg_ctl"), ["-D", data, "-m", "immediate", "-w", "stop"]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
  return cluster;
}
