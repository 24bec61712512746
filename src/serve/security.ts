/**
 * What `txcript serve` checks before any route runs: the Host header (no
 * DNS rebinding: only the names the server was bound as), the Origin of
 * cross-site requests, the token (required for everything when bound
 * beyond the loopback, and for every write), and the headers every answer
 * carries (a Content-Security-Policy with no inline script, no framing, no
 * sniffing, no referrer).
 */

import { randomBytes, timingSafeEqual } from "node:crypto";

/** The policy of every answer: scripts and styles from this origin only, nothing from elsewhere. */
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy": CSP,
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "no-referrer",
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Resource-Policy": "same-origin",
  "Cache-Control": "no-store",
};

/** The name of the cookie a browser keeps the token in after opening the printed URL. */
export const TOKEN_COOKIE = "txcript_token";

/** A fresh token: 32 random bytes, URL-safe. */
function newToken(): string {
  return randomBytes(32).toString("base64url");
}

/** Loopback addresses: bound there, only this machine can connect, so reads need no token. */
function isLoopback(host: string): boolean {
  return (
    host === "localhost" || host === "::1" || host === "[::1]" || /^127(\.\d{1,3}){3}$/.test(host)
  );
}

/** Bound to every interface: any name may reach it, so the token is what guards it. */
export function isWildcard(host: string): boolean {
  return host === "0.0.0.0" || host === "::" || host === "[::]";
}

/** `host:port` as a Host header spells it (an IPv6 address in brackets). */
export function hostPort(host: string, port: number): string {
  const h = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  return `${h}:${port}`;
}

export interface Guard {
  /** The token, when one is required for something (reads off the loopback, writes). */
  token: string | undefined;
  /** Reads need the token too (bound beyond the loopback). */
  readsNeedToken: boolean;
  /** The Host headers accepted; undefined accepts any (bound to every interface). */
  hosts: Set<string> | undefined;
}

export function makeGuard(options: {
  host: string;
  port: number;
  allowWrite: boolean;
  token?: string | undefined;
}): Guard {
  const loopback = isLoopback(options.host);
  const needToken = !loopback || options.allowWrite;
  const token = needToken ? (options.token ?? newToken()) : undefined;
  let hosts: Set<string> | undefined;
  if (!isWildcard(options.host)) {
    const names = loopback ? ["127.0.0.1", "localhost", "[::1]", options.host] : [options.host];
    hosts = new Set(names.map((n) => hostPort(n, options.port).toLowerCase()));
  }
  return { token, readsNeedToken: !loopback, hosts };
}

/** Equal strings in time that does not depend on where they differ. */
function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The token a request carries: `Authorization: Bearer …`, else the cookie. */
function tokenOf(headers: Headers): string | undefined {
  const auth = headers.get("authorization");
  if (auth !== null) {
    const m = /^Bearer\s+(\S+)$/i.exec(auth);
    return m?.[1];
  }
  const cookie = headers.get("cookie");
  if (cookie === null) return undefined;
  for (const part of cookie.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === TOKEN_COOKIE) return rest.join("=");
  }
  return undefined;
}

export function hasToken(guard: Guard, headers: Headers): boolean {
  if (guard.token === undefined) return false;
  const given = tokenOf(headers);
  return given !== undefined && sameSecret(given, guard.token);
}

/** Why a request is refused before routing, as [status, message]; undefined lets it through. */
export function refusal(
  guard: Guard,
  request: { method: string; headers: Headers; url: URL },
): [number, string] | undefined {
  const host = request.headers.get("host")?.toLowerCase();
  if (host === undefined || host === "") return [400, "missing Host header"];
  if (guard.hosts && !guard.hosts.has(host)) return [421, "unknown Host (DNS rebinding refused)"];
  const origin = request.headers.get("origin");
  const own = `http://${host}`;
  if (origin !== null && origin !== own) return [403, "cross-origin request refused"];
  const site = request.headers.get("sec-fetch-site");
  const write = request.method !== "GET" && request.method !== "HEAD";
  if (write) {
    // A write must say where it comes from, and come from here.
    if (origin === null) return [403, "a write must be a same-origin request (Origin missing)"];
    if (site !== null && site !== "same-origin") return [403, "cross-site write refused"];
  }
  return undefined;
}
