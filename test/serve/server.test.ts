/**
 * `txcript serve` over HTTP, through the built binary on a temporary home:
 * the JSON API (list with filters, sort and pages; search; usage), the
 * session page under the server's CSP with hostile text inert, downloads
 * (redacted on request), live events, the token and write rules, hostile
 * requests refused with the right status, and a bounded load.
 */

import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, txcript } from "../support/cli.js";
import { secretCorpus } from "../support/secrets.js";
import {
  claudeProject,
  claudeSession,
  HOSTILE_SID,
  PLANTED,
  PLANTED_SID,
  type Served,
  serveHome,
  startServe,
} from "../support/serve.js";

async function json(
  url: string,
  init: RequestInit = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const r = await fetch(url, init);
  const body: unknown = await r.json();
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new Error(`not an object: ${url}`);
  return { status: r.status, body: Object.fromEntries(Object.entries(body)) };
}

function records(body: Record<string, unknown>, key: string): Record<string, unknown>[] {
  const v = body[key];
  if (!Array.isArray(v)) throw new Error(`${key} is not a list`);
  return v.map((x) => Object.fromEntries(Object.entries(x as object)));
}

/** A raw request line and headers on a socket: what fetch would normalize away. */
function raw(base: string, text: string): Promise<string> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const s = connect(Number(u.port), u.hostname, () => s.write(text));
    let out = "";
    s.on("data", (d) => {
      out += d.toString();
    });
    s.on("end", () => resolve(out));
    s.on("error", reject);
    s.setTimeout(10_000, () => {
      s.destroy();
      resolve(out);
    });
  });
}

/** A GET with headers fetch will not let a page set (Host). */
function getWithHost(base: string, path: string, host: string): Promise<number> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: u.hostname, port: u.port, path, headers: { Host: host } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on("error", reject);
    req.end();
  });
}

describe("txcript serve, read-only on 127.0.0.1", () => {
  let home: string;
  let served: Served;
  const secret = secretCorpus().find((s) => s.kind === "github classic")?.secret ?? "";

  beforeAll(async () => {
    home = serveHome(secret);
    served = await startServe(home);
  });
  afterAll(async () => {
    await served?.stop();
  });

  it("prints a loopback URL with no token", () => {
    expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(served.token).toBeUndefined();
  });

  it("lists every session with the fields of the list, filtered, sorted and paged", async () => {
    const all = await json(`${served.base}api/sessions`);
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(5);
    const ids = records(all.body, "sessions").map((s) => s.id);
    expect(ids).toContain(PLANTED_SID);
    expect(ids).toContain("0f4c7a2e-91b3-4d5f-8e6a-3c2b1d0e9f87");
    const claude = await json(`${served.base}api/sessions?from=claude_code`);
    expect(records(claude.body, "sessions").map((s) => s.harness)).toEqual([
      "claude_code",
      "claude_code",
    ]);
    const flaky = await json(`${served.base}api/sessions?q=flaky%20login`);
    expect(records(flaky.body, "sessions").map((s) => s.title)).toEqual([
      "Fix the flaky login test",
    ]);
    const byCount = records(
      (await json(`${served.base}api/sessions?sort=messages`)).body,
      "sessions",
    );
    const counts = byCount.map((s) => Number(s.message_count));
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    const page2 = await json(`${served.base}api/sessions?limit=2&offset=2`);
    expect(page2.body.total).toBe(5);
    expect(records(page2.body, "sessions").map((s) => s.id)).toEqual(ids.slice(2, 4));
  });

  it("refuses bad list and search parameters with 400 and one line", async () => {
    for (const q of ["sort=nope", "from=bogus", "limit=-1", "since=yesterday-ish"]) {
      const r = await json(`${served.base}api/sessions?${q}`);
      expect(r.status, q).toBe(400);
      expect(String(r.body.error)).not.toContain("\n");
    }
    expect((await json(`${served.base}api/search?q=`)).status).toBe(400);
    expect((await json(`${served.base}api/search?q=x&role=nowhere`)).status).toBe(400);
    expect((await json(`${served.base}api/usage?by=planet`)).status).toBe(400);
  });

  it("finds a planted word with the query parser, highlighted, at its message", async () => {
    const r = await json(`${served.base}api/search?q=${PLANTED}`);
    expect(r.status).toBe(200);
    const hits = records(r.body, "hits");
    expect(hits.length).toBe(1);
    const hit = hits[0] ?? {};
    expect(hit.id).toBe(PLANTED_SID);
    expect(hit.harness).toBe("claude_code");
    expect(Number(hit.ordinal)).toBeGreaterThan(1);
    const [range] = hit.highlights as [number, number][];
    expect(String(hit.snippet).slice(range?.[0], range?.[1])).toBe(PLANTED);
    // The hit's message is where the session page puts it.
    const page = await (await fetch(`${served.base}s/claude_code/${PLANTED_SID}`)).text();
    const at = page.indexOf(`id="m${hit.ordinal}"`);
    expect(at).toBeGreaterThan(0);
    expect(page.slice(at, at + 2000)).toContain(PLANTED);
  });

  it("totals usage by day, model and harness", async () => {
    const model = await json(`${served.base}api/usage?by=model`);
    const keys = records(model.body, "groups").map((g) => g.key);
    expect(keys).toContain("claude-sonnet-4-5");
    const harness = records((await json(`${served.base}api/usage?by=harness`)).body, "groups");
    const claude = harness.find((g) => g.key === "claude_code");
    // Two sessions, six responses each, 1,000 to 1,005 input tokens a response.
    expect(claude?.input_tokens).toBe(2 * (6 * 1000 + 15));
    expect(typeof claude?.cost).toBe("number");
    const day = await json(`${served.base}api/usage?by=day`);
    expect(records(day.body, "groups").length).toBeGreaterThan(0);
  });

  it("serves the session page under a CSP with no inline script, the hostile text inert", async () => {
    const r = await fetch(`${served.base}s/claude_code/${HOSTILE_SID}`);
    expect(r.status).toBe(200);
    const csp = r.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(r.headers.get("x-frame-options")).toBe("DENY");
    const page = await r.text();
    // Every script comes from a file of this server.
    expect([...page.matchAll(/<script\b[^>]*>/g)].map((m) => m[0])).toEqual([
      '<script src="/assets/session.js">',
    ]);
    expect(page).not.toContain('<script>alert("xss")');
    expect(page).not.toMatch(/<img[^>]*onerror/i);
    expect(page).not.toMatch(/href="javascript:/i);
    expect(page).toContain("&lt;script&gt;alert(");
    const script = await fetch(`${served.base}assets/session.js`);
    expect(script.headers.get("content-type")).toContain("javascript");
  });

  it("downloads HTML, Markdown and Simple, and a redacted copy without the secret", async () => {
    for (const [format, ext] of [
      ["html", "html"],
      ["markdown", "md"],
      ["simple", "json"],
    ]) {
      const r = await fetch(`${served.base}s/claude_code/${PLANTED_SID}/download?format=${format}`);
      expect(r.status).toBe(200);
      expect(r.headers.get("content-disposition")).toBe(
        `attachment; filename="claude_code-${PLANTED_SID}.${ext}"`,
      );
      expect(await r.text()).toContain(secret);
      const red = await fetch(
        `${served.base}s/claude_code/${PLANTED_SID}/download?format=${format}&redact=1`,
      );
      const text = await red.text();
      expect(text).toContain(PLANTED);
      expect(text).not.toContain(secret);
    }
    expect(
      (await json(`${served.base}s/claude_code/${PLANTED_SID}/download?format=pdf`)).status,
    ).toBe(400);
  });

  it("refuses traversal and unknown sessions with 404: no URL names a file", async () => {
    const paths = [
      `s/claude_code/..%2F..%2F..%2Fetc%2Fpasswd`,
      `s/claude_code/${PLANTED_SID.slice(0, 8)}`,
      `s/nosuch/${PLANTED_SID}`,
      `assets/..%2F..%2Fpackage.json`,
      `assets/app.js%00.css`,
      `s/claude_code/%2e%2e/download`,
    ];
    for (const p of paths) {
      const r = await fetch(`${served.base}${p}`);
      expect([400, 404], p).toContain(r.status);
      expect(await r.text(), p).not.toContain("root:");
    }
    const rawResponse = await raw(
      served.base,
      `GET /../../../../etc/passwd HTTP/1.1\r\nHost: ${new URL(served.base).host}\r\nConnection: close\r\n\r\n`,
    );
    expect(rawResponse).toMatch(/^HTTP\/1\.1 (400|404)/);
    expect(rawResponse).not.toContain("root:");
  });

  it("refuses huge headers (431), a foreign Host (421) and cross-origin requests (403)", async () => {
    const big = await fetch(`${served.base}api/sessions`, {
      headers: { "X-Big": "a".repeat(40_000) },
    }).then(
      (r) => r.status,
      () => 431,
    );
    expect(big).toBe(431);
    expect(await getWithHost(served.base, "/api/sessions", "evil.example:80")).toBe(421);
    expect(
      await getWithHost(served.base, "/api/sessions", `localhost:${new URL(served.base).port}`),
    ).toBe(200);
    const cross = await fetch(`${served.base}api/sessions`, {
      headers: { Origin: "http://evil.example" },
    });
    expect(cross.status).toBe(403);
    const garbage = await raw(served.base, "NOT-HTTP\r\n\r\n");
    expect(garbage).toMatch(/^HTTP\/1\.1 400/);
  });

  it("is read-only: writes are refused and the store is unchanged", async () => {
    const file = join(claudeProject(home), `${PLANTED_SID}.jsonl`);
    const before = readFileSync(file, "utf8");
    const sameOrigin = { method: "POST", headers: { Origin: served.base.replace(/\/$/, "") } };
    const del = await fetch(
      `${served.base}api/sessions/claude_code/${PLANTED_SID}/delete`,
      sameOrigin,
    );
    expect(del.status).toBe(405);
    const cross = await fetch(`${served.base}api/sessions/claude_code/${PLANTED_SID}/delete`, {
      method: "POST",
      headers: { Origin: "http://evil.example" },
    });
    expect(cross.status).toBe(403);
    expect(readFileSync(file, "utf8")).toBe(before);
  });

  it("pushes a listing change to live clients when a session is added", async () => {
    const controller = new AbortController();
    const r = await fetch(`${served.base}api/events`, { signal: controller.signal });
    expect(r.headers.get("content-type")).toContain("text/event-stream");
    const reader = r.body?.getReader();
    if (!reader) throw new Error("no body");
    const dec = new TextDecoder();
    let text = "";
    const events = () => [...text.matchAll(/event: sessions\ndata: (\S+)/g)].map((m) => m[1]);
    while (events().length < 1) text += dec.decode((await reader.read()).value);
    const sid = "7a1b2c3d-0000-4000-8000-00000000cccc";
    writeFileSync(
      join(claudeProject(home), `${sid}.jsonl`),
      claudeSession(sid, "A new one", "fresh"),
    );
    while (events().length < 2) text += dec.decode((await reader.read()).value);
    const [first, second] = events();
    expect(second).not.toBe(first);
    controller.abort();
    const listed = records((await json(`${served.base}api/sessions`)).body, "sessions");
    expect(listed.map((s) => s.id)).toContain(sid);
  });

  it("answers 50 clients x 200 requests with no error, its memory steady", async () => {
    const paths = [
      "api/sessions",
      "api/sessions?from=claude_code&sort=title",
      `api/search?q=${PLANTED}`,
      "assets/app.css",
    ];
    const rss = () => {
      const status = readFileSync(`/proc/${served.child.pid}/status`, "utf8");
      return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    };
    // Each client's 200 requests in two halves, memory read after each.
    const half = async () => {
      const failures: string[] = [];
      await Promise.all(
        Array.from({ length: 50 }, async (_, c) => {
          for (let i = 0; i < 100; i++) {
            const p = paths[(c + i) % paths.length] ?? "";
            const r = await fetch(`${served.base}${p}`);
            await r.arrayBuffer();
            if (r.status !== 200) failures.push(`${p}: ${r.status}`);
          }
        }),
      );
      return failures;
    };
    expect(await half()).toEqual([]);
    const after1 = rss();
    expect(await half()).toEqual([]);
    const after2 = rss();
    // The second 5,000 requests hold no more than a little over the first.
    expect(after2).toBeLessThan(after1 * 1.5 + 20_000);
    expect(served.stderr()).toBe("");
  }, 600_000);
});

describe("txcript serve beyond the loopback, and with --allow-write", () => {
  it("needs the token for every request when bound to every interface; prints it once", async () => {
    const home = serveHome();
    const served = await startServe(home, ["--host", "0.0.0.0"]);
    try {
      expect(served.token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
      const token = served.token ?? "";
      expect((await fetch(`${served.base}api/sessions`)).status).toBe(401);
      expect((await fetch(`${served.base}`)).status).toBe(401);
      expect(
        (await fetch(`${served.base}api/sessions`, { headers: { Authorization: "Bearer wrong" } }))
          .status,
      ).toBe(401);
      expect((await fetch(`${served.base}?token=wrong`, { redirect: "manual" })).status).toBe(401);
      const login = await fetch(served.url, { redirect: "manual" });
      expect(login.status).toBe(303);
      expect(login.headers.get("location")).toBe("/");
      const cookie = login.headers.get("set-cookie") ?? "";
      expect(cookie).toContain("HttpOnly");
      expect(cookie).toContain("SameSite=Strict");
      const withCookie = await fetch(`${served.base}api/sessions`, {
        headers: { Cookie: cookie.split(";")[0] ?? "" },
      });
      expect(withCookie.status).toBe(200);
      const withBearer = await fetch(`${served.base}api/sessions`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(withBearer.status).toBe(200);
      expect(served.stderr()).not.toContain(token);
    } finally {
      await served.stop();
    }
  });

  it("with --allow-write, deletes and continues only with the token from the same origin", async () => {
    const home = serveHome();
    const served = await startServe(home, ["--allow-write"]);
    try {
      const token = served.token ?? "";
      expect(token).not.toBe("");
      // Reads on the loopback need no token.
      expect((await fetch(`${served.base}api/sessions`)).status).toBe(200);
      const origin = served.base.replace(/\/$/, "");
      const file = join(claudeProject(home), `${PLANTED_SID}.jsonl`);
      const url = `${served.base}api/sessions/claude_code/${PLANTED_SID}/delete`;
      expect((await fetch(url, { method: "POST", headers: { Origin: origin } })).status).toBe(401);
      expect(
        (await fetch(url, { method: "POST", headers: { Authorization: `Bearer ${token}` } }))
          .status,
      ).toBe(403);
      expect(
        (
          await fetch(url, {
            method: "POST",
            headers: { Authorization: `Bearer ${token}`, Origin: "http://evil.example" },
          })
        ).status,
      ).toBe(403);
      expect(
        (
          await fetch(url, {
            method: "POST",
            headers: {
              Authorization: `Bearer ${token}`,
              Origin: origin,
              "Sec-Fetch-Site": "cross-site",
            },
          })
        ).status,
      ).toBe(403);
      expect(existsSync(file)).toBe(true);
      const cont = await json(
        `${served.base}api/sessions/antigravity/0f4c7a2e-91b3-4d5f-8e6a-3c2b1d0e9f87/continue`,
        {
          method: "POST",
          headers: {
            Authorization: `Bearer ${token}`,
            Origin: origin,
            "Content-Type": "application/json",
          },
          body: JSON.stringify({ target: "claude_code" }),
        },
      );
      expect(cont.status).toBe(200);
      expect(existsSync(String(cont.body.path))).toBe(true);
      expect(String(cont.body.resume)).toContain("claude");
      const del = await json(url, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, Origin: origin },
      });
      expect(del.status).toBe(200);
      expect(existsSync(file)).toBe(false);
    } finally {
      await served.stop();
    }
  });
});

describe("txcript serve's flags and start-up failures", () => {
  it("refuses a bad port, and --machine without --archive, in one line (exit 2)", () => {
    for (const args of [
      ["serve", "--port", "99999"],
      ["serve", "--port", "http"],
      ["serve", "--machine", "laptop"],
    ]) {
      const r = txcript(args);
      expect(r.status, args.join(" ")).toBe(2);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stdout).toBe("");
    }
  });

  it("fails in one line naming the address when the port is taken (exit 1)", async () => {
    const home = serveHome();
    const served = await startServe(home);
    try {
      const port = new URL(served.base).port;
      const r = spawnSync(process.execPath, [BIN, "serve", "--port", port], {
        env: { PATH: process.env.PATH ?? "", HOME: home, NO_COLOR: "1" },
        encoding: "utf8",
        timeout: 60_000,
      });
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(`cannot listen on 127.0.0.1:${port}`);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stdout).toBe("");
    } finally {
      await served.stop();
    }
  });
});

describe("txcript serve on a new machine", () => {
  it("logs what the first search's text build does, once, and answers it", async () => {
    const home = serveHome();
    const project = claudeProject(home);
    // More sessions than a text build notes from (src/index/build-note.ts).
    for (let i = 0; i < 220; i++) {
      const sid = `7a1b2c3d-0000-4000-8000-${String(i).padStart(12, "0")}`;
      writeFileSync(
        join(project, `${sid}.jsonl`),
        claudeSession(sid, `question ${i}`, "an answer", 1),
      );
    }
    const served = await startServe(home);
    try {
      const r = await json(`${served.base}api/search?q=${PLANTED}`);
      expect(r.status).toBe(200);
      expect(JSON.stringify(r.body)).toContain(PLANTED_SID);
      const notes = served
        .stderr()
        .split("\n")
        .filter((l) => l.includes("indexing the text"));
      expect(notes).toHaveLength(1);
      expect(notes[0]).toMatch(
        /^txcript serve: indexing the text of 2\d\d sessions for search and usage, once: later runs reuse the index \(.+index\.db\)$/,
      );
      expect((await json(`${served.base}api/search?q=answer`)).status).toBe(200);
      expect(served.stderr().split("indexing the text").length - 1).toBe(1);
    } finally {
      await served.stop();
    }
  }, 120_000);
});
