/**
 * The `txcript serve` application: a Hono app over one sessions backend
 * (the local `Sessions`, or later an archive with the same methods). The
 * JSON API (list, search, usage, live events, and, with --allow-write,
 * continue and delete), the session pages and downloads, and the bundled
 * client. Every request passes the guard first (security.ts); no URL
 * names a file: assets come from a fixed table, and a session is reached
 * only by a harness and an id the index has listed.
 */

import { createHash } from "node:crypto";
import { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { errorLine, InvalidRequestError, NotFoundError, TxcriptError } from "../errors.js";
import { isKind, type Kind } from "../index/text.js";
import { defined } from "../json.js";
import { SCRIPT } from "../render/assets.js";
import { sessionRecord } from "../session-record.js";
import { sessionFilter } from "../sessions/filter.js";
import { resumeLine } from "../sessions/resume.js";
import type { ContinueRequest, LoadedAt, Sessions } from "../sessions/sessions.js";
import { type Discovered, type HarnessId, isHarnessId } from "../transcript.js";
import { shippedPrices } from "../usage/prices.js";
import { buildReport, type Grouping, isGrouping } from "../usage/report.js";
import {
  download,
  downloadName,
  isDownloadFormat,
  mimeOf,
  SESSION_SCRIPT_EXTRA,
  sessionPage,
  shellHtml,
  shown,
  type Who,
} from "./pages.js";
import { type Guard, hasToken, refusal, SECURITY_HEADERS, TOKEN_COOKIE } from "./security.js";
import { WRITE_SCRIPT } from "./write-ui.js";

/**
 * What serve needs of a sessions backend: the methods of `Sessions` it
 * calls. The local index is one; an archive (issue 37) is another.
 */
type ServeBackend = Pick<
  Sessions,
  "list" | "query" | "usage" | "has" | "load" | "refresh" | "continue" | "remove"
>;

/** The bundled client, read once at start. */
export interface ClientAssets {
  js: string;
  css: string;
}

export interface AppOptions {
  backend: ServeBackend;
  guard: Guard;
  assets: ClientAssets;
  who: Who;
  allowWrite: boolean;
  /**
   * Whether a session can be deleted (with allowWrite). Not from the archive:
   * its sessions are deleted on the machine that pushed them. Default true.
   */
  deletes?: boolean | undefined;
  /** The resume command of a listed session, when its harness has one. */
  resume?: ((session: LoadedAt) => Promise<string | undefined>) | undefined;
  /** How often live clients' listing is checked for changes (ms). */
  pollMs?: number | undefined;
  /** The time zone of usage days. */
  timeZone?: string | undefined;
}

const LIST_MAX = 500;
const SEARCH_MAX = 200;
const SORTS = ["updated", "created", "messages", "title", "harness"] as const;
type Sort = (typeof SORTS)[number];
const isSort = (v: string): v is Sort => SORTS.some((s) => s === v);

function bad(detail: string): InvalidRequestError {
  return new InvalidRequestError(undefined, detail);
}

/** A non-negative integer query parameter, at most `max`. */
function count(value: string | undefined, fallback: number, max: number, name: string): number {
  if (value === undefined || value === "") return fallback;
  if (!/^\d{1,9}$/.test(value)) throw bad(`${name} must be a whole number`);
  return Math.min(Number(value), max);
}

function harnessParam(value: string | undefined): HarnessId | undefined {
  if (value === undefined || value === "") return undefined;
  if (!isHarnessId(value)) throw bad(`unknown harness "${value}"`);
  return value;
}

/** The one filter, from the query string (times as the CLI reads them: 3d, a date, a timestamp). */
function filterOf(q: (name: string) => string | undefined) {
  const text = (n: string) => {
    const v = q(n);
    return v === undefined || v === "" ? undefined : v;
  };
  return sessionFilter(
    { from: harnessParam(q("from")), cwd: text("cwd"), since: text("since"), until: text("until") },
    "/",
    Date.now(),
  );
}

function compare(sort: Sort): (a: Discovered, b: Discovered) => number {
  switch (sort) {
    case "updated":
      return (a, b) => b.updated.localeCompare(a.updated);
    case "created":
      return (a, b) => b.meta.timestamp.localeCompare(a.meta.timestamp);
    case "messages":
      return (a, b) => b.message_count - a.message_count;
    case "title":
      return (a, b) => (a.meta.title ?? "").localeCompare(b.meta.title ?? "");
    case "harness":
      return (a, b) => a.harness.localeCompare(b.harness);
    default:
      return sort satisfies never;
  }
}

/** The words of a list's text filter, each found in title, cwd, model, branch or id. */
function matches(s: Discovered, words: readonly string[]): boolean {
  if (words.length === 0) return true;
  const hay = [s.meta.title, s.meta.cwd, s.meta.model, s.meta.git_branch, s.id, s.harness]
    .filter((v) => v !== undefined)
    .join("\n")
    .toLowerCase();
  return words.every((w) => hay.includes(w));
}

/** A listing's version: changes when a session is added, removed or grows. */
function listingVersion(sessions: readonly Discovered[]): string {
  const h = createHash("sha1");
  for (const s of sessions)
    h.update(`${s.harness}\u0000${s.id}\u0000${s.updated}\u0000${s.message_count}\n`);
  return h.digest("base64url").slice(0, 16);
}

/** Pieces of text as a response body, written as they come. */
function streamed(pieces: Iterable<string>): ReadableStream<Uint8Array> {
  const it = pieces[Symbol.iterator]();
  const enc = new TextEncoder();
  return new ReadableStream({
    pull(controller) {
      const next = it.next();
      if (next.done) controller.close();
      else controller.enqueue(enc.encode(next.value));
    },
  });
}

function statusOf(error: unknown): 400 | 401 | 404 | 405 | 409 | 500 {
  if (error instanceof WriteRefused) return error.status;
  if (error instanceof InvalidRequestError) return 400;
  if (error instanceof NotFoundError) return 404;
  if (error instanceof TxcriptError && error.name === "ConflictError") return 409;
  if (error instanceof TxcriptError) return 500;
  return 500;
}

export function createApp(options: AppOptions): Hono {
  const { backend, guard } = options;
  const app = new Hono();
  const sessionScript = `${SCRIPT}\n${SESSION_SCRIPT_EXTRA}\n${WRITE_SCRIPT}`;

  // A listing per filter, kept while the backend answers from the same
  // refresh: 20,000 sessions are read from the index once a refresh, not
  // once a request.
  const listed = new Map<string, { refreshed: unknown; sessions: Discovered[]; version: string }>();
  const listing = async (filter: ReturnType<typeof filterOf>) => {
    const refreshed = await backend.refresh({ from: filter.from });
    const key = JSON.stringify(filter);
    const hit = listed.get(key);
    if (hit && hit.refreshed === refreshed) return hit;
    const sessions = (await backend.list(filter)).sessions;
    const entry = { refreshed, sessions, version: listingVersion(sessions) };
    if (listed.size >= 32) listed.clear();
    listed.set(key, entry);
    return entry;
  };

  app.onError((error, c) => {
    const status = statusOf(error);
    // The line names the file or id, never a stack.
    return c.json({ error: errorLine(error).replace(/^txcript: /, "") }, status);
  });
  app.notFound((c) => c.json({ error: "not found" }, 404));

  // The guard, the token login and the headers of every answer.
  app.use("*", async (c, next) => {
    const url = new URL(c.req.url);
    const refused = refusal(guard, { method: c.req.method, headers: c.req.raw.headers, url });
    if (refused) {
      const [status, message] = refused;
      return new Response(JSON.stringify({ error: message }), {
        status,
        headers: { "Content-Type": "application/json", ...SECURITY_HEADERS },
      });
    }
    const given = url.searchParams.get("token");
    if (given !== null && c.req.method === "GET") {
      const ok = hasToken(guard, new Headers({ authorization: `Bearer ${given}` }));
      if (!ok) {
        return new Response(JSON.stringify({ error: "bad token" }), {
          status: 401,
          headers: { "Content-Type": "application/json", ...SECURITY_HEADERS },
        });
      }
      // The token moves to a cookie only this origin's requests carry; the URL forgets it.
      url.searchParams.delete("token");
      return new Response(null, {
        status: 303,
        headers: {
          Location: `${url.pathname}${url.search}`,
          "Set-Cookie": `${TOKEN_COOKIE}=${given}; HttpOnly; SameSite=Strict; Path=/`,
          ...SECURITY_HEADERS,
        },
      });
    }
    if (guard.readsNeedToken && !hasToken(guard, c.req.raw.headers)) {
      return new Response(
        JSON.stringify({
          error: "this server needs its token: open the URL txcript serve printed",
        }),
        { status: 401, headers: { "Content-Type": "application/json", ...SECURITY_HEADERS } },
      );
    }
    await next();
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) c.res.headers.set(k, v);
  });

  app.get("/", (c) => c.html(shellHtml({ writable: options.allowWrite })));
  // The only files served: a fixed table, so no URL path reaches the disk.
  const JS = "text/javascript; charset=utf-8";
  const assets = new Map<string, [string, string]>([
    ["app.js", [options.assets.js, JS]],
    ["app.css", [options.assets.css, "text/css; charset=utf-8"]],
    ["session.js", [sessionScript, JS]],
  ]);
  app.get("/assets/:name", (c) => {
    const found = assets.get(c.req.param("name"));
    if (found === undefined) return c.json({ error: "not found" }, 404);
    return c.body(found[0], 200, { "Content-Type": found[1] });
  });

  app.get("/api/sessions", async (c) => {
    const q = (n: string) => c.req.query(n);
    const filter = filterOf(q);
    const sortText = q("sort") ?? "updated";
    if (!isSort(sortText)) throw bad(`unknown sort "${sortText}" (one of: ${SORTS.join(", ")})`);
    const offset = count(q("offset"), 0, Number.MAX_SAFE_INTEGER, "offset");
    const limit = count(q("limit"), 100, LIST_MAX, "limit");
    const words = (q("q") ?? "")
      .toLowerCase()
      .split(/\s+/)
      .filter((w) => w !== "");
    const all = await listing(filter);
    let sessions = all.sessions.filter((s) => matches(s, words));
    if (sortText !== "updated") sessions = [...sessions].sort(compare(sortText));
    if (q("order") === "asc") sessions = [...sessions].reverse();
    return c.json({
      version: all.version,
      total: sessions.length,
      offset,
      sessions: sessions.slice(offset, offset + limit).map(sessionRecord),
    });
  });

  app.get("/api/search", async (c) => {
    const q = (n: string) => c.req.query(n);
    const terms = q("q") ?? "";
    if (terms.trim() === "")
      throw bad('give something to search for: words, "a phrase", a prefix*');
    const kinds: Kind[] = [];
    for (const k of (q("role") ?? "").split(",").filter((r) => r !== "")) {
      if (!isKind(k)) throw bad(`unknown place "${k}"`);
      kinds.push(k);
    }
    const found = await backend.query(terms, {
      ...filterOf(q),
      limit: count(q("limit"), 50, SEARCH_MAX, "limit"),
      offset: count(q("offset"), 0, 100_000, "offset"),
      ...(kinds.length > 0 ? { kinds } : {}),
    });
    return c.json({
      query: terms,
      total: found.total,
      hits: found.hits.map((h) => ({
        id: h.session.id,
        harness: h.session.harness,
        title: h.session.meta.title ?? null,
        ordinal: h.ordinal,
        where: h.kind,
        timestamp: h.timestamp,
        snippet: h.snippet,
        highlights: h.highlights,
      })),
    });
  });

  app.get("/api/usage", async (c) => {
    const q = (n: string) => c.req.query(n);
    const by = q("by") ?? "day";
    if (!isGrouping(by)) throw bad(`unknown grouping "${by}"`);
    const grouping: Grouping = by;
    const { buckets, unread } = await backend.usage(filterOf(q));
    const prices = shippedPrices();
    const report = buildReport(buckets, {
      by: grouping,
      prices,
      ...defined({ timeZone: options.timeZone }),
    });
    const strip = ({ models: _m, ...rest }: (typeof report.groups)[number]) => rest;
    return c.json({
      by: report.by,
      currency: prices.currency,
      prices_as_of: prices.as_of,
      unread_sessions: unread,
      groups: report.groups.map(strip),
      totals: { ...report.totals, models: undefined },
    });
  });

  /** A session by harness and exact id, only when the index lists it: a URL never names a file. */
  const located = async (c: { req: { param: (n: string) => string | undefined } }) => {
    const harness = harnessParam(c.req.param("harness"));
    const id = c.req.param("id") ?? "";
    if (harness === undefined || !(await backend.has(harness, id)))
      throw new NotFoundError(harness, "no such session", { file: id.slice(0, 200) });
    return { harness, id };
  };

  app.get("/s/:harness/:id", async (c) => {
    await backend.refresh();
    const loaded = await backend.load(await located(c));
    const resume = options.resume ? await options.resume(loaded).catch(() => undefined) : undefined;
    const page = sessionPage(
      loaded.transcript,
      loaded.located.harness,
      loaded.located.id,
      options.who,
      resume,
      options.allowWrite,
      options.deletes !== false,
    );
    return c.body(streamed(page), 200, { "Content-Type": "text/html; charset=utf-8" });
  });

  app.get("/s/:harness/:id/download", async (c) => {
    const format = c.req.query("format") ?? "html";
    if (!isDownloadFormat(format)) throw bad(`unknown format "${format}"`);
    await backend.refresh();
    const loaded = await backend.load(await located(c));
    const transcript = await shown(loaded.transcript, c.req.query("redact") === "1", options.who);
    const name = downloadName(loaded.located.harness, loaded.located.id, format);
    return c.body(
      streamed(download(transcript, loaded.located.harness, format, options.who)),
      200,
      {
        "Content-Type": mimeOf(format),
        "Content-Disposition": `attachment; filename="${name}"`,
      },
    );
  });

  // Live: a change in the listing (a session added, removed or grown) is pushed as an event.
  app.get("/api/events", (c) =>
    streamSSE(c, async (stream) => {
      let last = "";
      let open = true;
      stream.onAbort(() => {
        open = false;
      });
      while (open) {
        try {
          const { version } = await listing({});
          if (version !== last) {
            await stream.writeSSE({ event: "sessions", data: version });
            last = version;
          }
        } catch {
          // a failed refresh is tried again on the next tick
        }
        await stream.sleep(options.pollMs ?? 2000);
      }
    }),
  );

  // Writes: only with --allow-write, the token and a same-origin request (the guard checked Origin).
  const writable = (c: { req: { raw: Request } }) => {
    if (!options.allowWrite)
      throw new WriteRefused(405, "read-only server (start it with --allow-write)");
    if (!hasToken(guard, c.req.raw.headers)) throw new WriteRefused(401, "a write needs the token");
  };
  app.post("/api/sessions/:harness/:id/delete", async (c) => {
    if (options.deletes === false)
      throw new WriteRefused(
        405,
        "sessions in the archive are not deleted from here: delete it on the machine that pushed it, then run `txcript archive push --prune` there",
      );
    writable(c);
    await backend.refresh();
    const removed = await backend.remove(await located(c));
    return c.json({ removed });
  });
  app.post("/api/sessions/:harness/:id/continue", async (c) => {
    writable(c);
    let target: string | undefined;
    try {
      const body: unknown = await c.req.json();
      if (typeof body === "object" && body !== null && "target" in body) {
        const t = body.target;
        if (typeof t === "string") target = t;
      }
    } catch {
      throw bad('the body must be JSON: {"target": "<harness>"}');
    }
    const into = harnessParam(target);
    if (into === undefined) throw bad("continue needs a target harness");
    await backend.refresh();
    const from = await located(c);
    const loaded = await backend.load(from);
    const request: ContinueRequest = {
      transcript: loaded.transcript,
      source: { harness: from.harness, id: from.id },
      target: into,
    };
    const result = await backend.continue(request);
    return c.json({
      harness: result.saved.harness,
      id: result.saved.id,
      path: result.saved.path,
      resume: result.resume ? resumeLine(result.resume) : null,
    });
  });

  return app;
}

/** A write refused for what the server allows, not for what was asked. */
class WriteRefused extends TxcriptError {
  constructor(
    readonly status: 401 | 405,
    detail: string,
  ) {
    super(undefined, detail);
  }
}
