/**
 * The index through the built binary: list from the index with its
 * filters and columns, query's text and --json, --no-cache, two processes
 * refreshing at once, a live agy writer, completion of ids, and the picker
 * on a pseudo-terminal (util-linux `script`, as test/cli/terminal.test.ts).
 */

import { spawn, spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import stringWidth from "string-width";
import { describe, expect, it } from "vitest";
import { shellWord } from "../../src/cli/commands/continue.js";
import { BIN, ROOT, txcript } from "../support/cli.js";
import { hashTree } from "../support/tmp.js";
import { type Machine, machine, put } from "./support.js";

const DAY = 86_400;
const IDS = [
  "1a1a1a1a-0000-4000-8000-000000000001",
  "2b2b2b2b-0000-4000-8000-000000000002",
  "3c3c3c3c-0000-4000-8000-000000000003",
];

function sample(): Machine {
  const m = machine();
  put(m, "claude_code", {
    id: IDS[0]!,
    start: 0,
    texts: ["日本語のタイトル fix the parser", "parser fixed with a lookahead"],
  });
  put(m, "codex", {
    id: IDS[1]!,
    start: 10 * DAY,
    texts: ["the checkout total is one cent off", "rounding per line"],
  });
  put(m, "antigravity", {
    id: IDS[2]!,
    start: 20 * DAY,
    texts: [
      "日本語のタイトル the login test is flaky, and it fails on every second run of the suite",
      "waiting for readiness fixes it",
    ],
  });
  return m;
}

function run(m: Machine, args: string[], env: Record<string, string> = {}) {
  return txcript(args, { env: { ...m.env, ...env } });
}

describe("list from the index", () => {
  it("lists the same sessions cold and warm, with --since/--until/--limit, and leaves the stores alone", () => {
    const m = sample();
    const stores = hashTree(join(m.home, "stores"));
    const cold = run(m, ["list", "--json"]);
    expect(cold.status).toBe(0);
    expect(existsSync(join(m.cache, "index.db"))).toBe(true);
    const warm = run(m, ["list", "--json"]);
    expect(warm.stdout).toBe(cold.stdout);
    const direct = run(m, ["--no-cache", "list", "--json"]);
    expect(direct.stdout).toBe(cold.stdout);
    const ids = (r: { stdout: string }) =>
      (JSON.parse(r.stdout) as { sessions: { id: string }[] }).sessions.map((s) => s.id);
    // Every session's last activity is its last message (Codex's too, not its file's mtime).
    expect(ids(cold)).toEqual([IDS[2], IDS[1], IDS[0]]);
    expect(
      ids(
        run(m, [
          "list",
          "--json",
          "--from",
          "claude_code",
          "--since",
          "2026-03-01",
          "--until",
          "2026-03-02",
        ]),
      ),
    ).toEqual([IDS[0]]);
    expect(ids(run(m, ["list", "--json", "--until", "2026-03-05"]))).toEqual([IDS[0]]);
    expect(
      ids(run(m, ["list", "--json", "--since", "2026-03-15T00:00:00Z", "--from", "antigravity"])),
    ).toEqual([IDS[2]]);
    expect(ids(run(m, ["list", "--json", "--limit", "1"]))).toEqual([IDS[2]]);
    expect(ids(run(m, ["list", "--json", "--since", "1h", "--from", "codex"]))).toEqual([]);
    expect(
      ids(
        run(m, [
          "list",
          "--json",
          "--since",
          "2026-03-10",
          "--until",
          "2026-03-12",
          "--from",
          "codex",
        ]),
      ),
    ).toEqual([IDS[1]]);
    const bad = run(m, ["list", "--since", "yesterday-ish"]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^txcript: .*cannot read the time "yesterday-ish".*\n$/);
    expect(hashTree(join(m.home, "stores"))).toEqual(stores);
  });

  it("a warm list loads no parser's and no pager's built-ins (crypto, zlib, child_process)", () => {
    const m = sample();
    // Written beside the cache: a hook that names, on exit, the built-ins this process loaded.
    const hook = join(m.home, "builtins-hook.mjs");
    writeFileSync(
      hook,
      `process.on("exit", () => process.stderr.write("loaded: " + process.moduleLoadList
        .filter((m) => /^NativeModule (crypto|zlib|child_process)$/.test(m)).join(",") + "\\n"));`,
    );
    const loaded = (args: string[]) => {
      const r = run(m, args, { NODE_OPTIONS: `--import=${hook}` });
      expect(r.status).toBe(0);
      return /loaded: (.*)\n/.exec(r.stderr)?.[1];
    };
    // The first list discovers and so loads the stores (whose writers use crypto): not measured.
    loaded(["list", "--json"]);
    expect(loaded(["list", "--json"])).toBe("");
    expect(loaded(["list"])).toBe("");
    // The hook sees what it should: a command that hashes does load crypto.
    expect(loaded(["view", IDS[0] ?? "", "--format", "html"])).toMatch(/crypto/);
  });

  it("a warm list starts no ES module loader: the binary is CommonJS", () => {
    const m = sample();
    // A CommonJS preload (one given to --import would start the loader itself).
    const hook = join(m.home, "esm-hook.cjs");
    writeFileSync(
      hook,
      `process.on("exit", () => process.stderr.write("esm: " + process.moduleLoadList
        .filter((m) => /^NativeModule internal\\/modules\\/esm\\/(module_job|translators)$/.test(m)).join(",") + "\\n"));`,
    );
    const esm = () => {
      const r = run(m, ["list", "--json"], { NODE_OPTIONS: `--require=${hook}` });
      expect(r.status).toBe(0);
      return /esm: (.*)\n/.exec(r.stderr)?.[1];
    };
    esm(); // the first list builds the index
    expect(esm()).toBe("");
    // The hook sees what it should: an ES module entry loads both.
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", "0"], {
      env: { ...process.env, NODE_OPTIONS: `--require=${hook}` },
      encoding: "utf8",
    });
    expect(r.stderr).toMatch(/esm: .*module_job/);
  });

  it("a warm list loads no built-in after it sets V8's flags (which would compile it from source)", () => {
    const m = sample();
    // A preload that notes which of Node's built-ins load after the list's interrupt budget is set.
    const hook = join(m.home, "flags-hook.cjs");
    writeFileSync(
      hook,
      `const v8 = require("node:v8"); const set = v8.setFlagsFromString; let at;
      v8.setFlagsFromString = (flag) => { if (at === undefined && flag.startsWith("--interrupt-budget")) at = process.moduleLoadList.length; return set(flag); };
      process.on("exit", () => process.stderr.write("after: " + (at === undefined ? "no budget" : process.moduleLoadList.slice(at)
        .filter((m) => m.startsWith("NativeModule ")).join(",")) + "\\n"));`,
    );
    const loadedAfter = (args: string[]) => {
      const r = run(m, args, { NODE_OPTIONS: `--require=${hook}` });
      expect(r.status).toBe(0);
      return /after: (.*)\n/.exec(r.stderr)?.[1];
    };
    expect(loadedAfter(["list", "--json"])).toBe("no budget"); // the first list: no index to refresh
    expect(loadedAfter(["list", "--json"])).toBe("");
    expect(loadedAfter(["list"])).toBe("");
  });

  it("a finished list exits at once, its output whole, without waiting for the process to wind down", () => {
    const m = sample();
    // A preload leaves a timer running: a process left to end by itself waits for it.
    const hook = join(m.home, "timer-hook.mjs");
    writeFileSync(hook, `setTimeout(() => process.stderr.write("wound down\\n"), 3000);`);
    for (const args of [
      ["list", "--json"],
      ["list", "--json"],
      ["list"],
      ["list", "--limit", "1"],
    ]) {
      const r = run(m, args, { NODE_OPTIONS: `--import=${hook}` });
      expect(r.status, args.join(" ")).toBe(0);
      expect(r.stderr, args.join(" ")).toBe("");
      if (args[1] === "--json") expect(JSON.parse(r.stdout).sessions).toHaveLength(3);
      else expect(r.stdout.trimEnd().split("\n").length).toBe(args[1] === "--limit" ? 1 : 3);
    }
    // Another command that ends by itself still does.
    const view = run(m, ["view", IDS[0] ?? ""], { NODE_OPTIONS: `--import=${hook}` });
    expect(view.stderr).toBe("wound down\n");
  });

  it("--no-cache writes no index", () => {
    const m = sample();
    expect(run(m, ["--no-cache", "list"]).status).toBe(0);
    expect(existsSync(m.cache)).toBe(false);
  });

  it("warns once and still lists when the index is unusable", () => {
    const m = sample();
    const r = run(m, ["--cache", join(BIN, "not-a-dir"), "list", "--json"]);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).sessions).toHaveLength(3);
    expect(r.stderr).toMatch(/^txcript: warning: cannot create the index folder .*\n$/);
  });

  it("sees a conversation agy is still writing", async () => {
    const m = sample();
    const db = join(m.roots.antigravity!, "conversations", `${IDS[2]}.db`);
    const marker = join(m.home, "writer-done");
    const writer = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        join(ROOT, "test", "antigravity-store", "children", "writer.ts"),
        db,
        "250",
        marker,
      ],
      { cwd: ROOT, stdio: "ignore" },
    );
    const exited = new Promise<void>((done) => writer.on("exit", () => done()));
    let runs = 0;
    while (!existsSync(marker) && runs < 3) {
      const r = run(m, ["list", "--json", "--from", "antigravity"]);
      expect(r.status).toBe(0);
      expect(JSON.parse(r.stdout).sessions.map((s: { id: string }) => s.id)).toEqual([IDS[2]]);
      runs++;
    }
    await exited;
    const last = JSON.parse(run(m, ["list", "--json", "--from", "antigravity"]).stdout);
    const direct = JSON.parse(
      run(m, ["--no-cache", "list", "--json", "--from", "antigravity"]).stdout,
    );
    expect(last).toEqual(direct);
    expect(runs).toBeGreaterThan(0);
  });
});

describe("query", () => {
  it("prints ranked hits naming view <id>#<n>, and the documented --json", () => {
    const m = sample();
    const r = run(m, ["query", "parser", "--json"]);
    expect(r.status).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.version).toBe(1);
    expect(doc.query).toBe("parser");
    expect(doc.hits.length).toBeGreaterThan(0);
    for (const hit of doc.hits) {
      expect(Object.keys(hit).sort()).toEqual(
        [
          "harness",
          "highlights",
          "id",
          "ordinal",
          "score",
          "session",
          "snippet",
          "timestamp",
          "view",
          "where",
        ].sort(),
      );
      expect(hit.id).toBe(IDS[0]);
      expect(hit.view).toBe(`${IDS[0]}#${hit.ordinal}`);
      expect(typeof hit.score).toBe("number");
      for (const [s, e] of hit.highlights)
        expect(hit.snippet.slice(s, e).toLowerCase()).toBe("parser");
    }
    expect(doc.hits.map((h: { where: string }) => h.where).sort()).toEqual(["assistant", "user"]);
    const text = run(m, ["query", "readiness"]);
    expect(text.stdout).toMatch(
      /^3c3c3c3c#2 {2}antigravity {2}\S+ \S+ {2}assistant {2}日本語のタイトル the login test is flaky, .*\n {4}waiting for readiness fixes it\n$/,
    );
    // The hit opens where it says.
    const view = run(m, ["view", `${IDS[2]!.slice(0, 8)}#2`]);
    expect(view.stdout).toContain("waiting for readiness fixes it");
    expect(run(m, ["query", "readiness", "--role", "user", "--json"]).stdout).toContain(
      '"hits": []',
    );
    expect(
      JSON.parse(run(m, ["query", "cent", "--from", "codex", "--json"]).stdout).hits,
    ).toHaveLength(1);
  });

  it("answers FTS5 syntax and nonsense with hits or one usage line", () => {
    const m = sample();
    for (const q of ['"*:( a:b) OR ( NEAR -flaky', "x".repeat(10_000)]) {
      const r = run(m, ["query", q]);
      expect([0, 2]).toContain(r.status);
      expect(r.stderr).not.toMatch(/fts5|syntax error|internal/i);
      expect(r.stderr.split("\n").filter(Boolean).length).toBeLessThanOrEqual(1);
    }
    const none = run(m, ["query"]);
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/^txcript: give something to search for/);
  });

  it("is safe with two processes building the index at once", async () => {
    const m = machine();
    for (let i = 0; i < 30; i++) {
      put(m, i % 2 ? "claude_code" : "codex", {
        id: `4d4d4d4d-0000-4000-8000-${String(i).padStart(12, "0")}`,
        start: i * 60,
        texts: [`question number ${i} about widgets`, `answer ${i}: the widget works`],
      });
    }
    const both = await Promise.all(
      [0, 1].map(
        () =>
          new Promise<{ code: number | null; out: string; err: string }>((done) => {
            const child = spawn(
              process.execPath,
              [BIN, "query", "widgets", "--json", "--limit", "100"],
              {
                env: { PATH: process.env.PATH ?? "", ...m.env },
              },
            );
            let out = "";
            let err = "";
            child.stdout.on("data", (d) => {
              out += d;
            });
            child.stderr.on("data", (d) => {
              err += d;
            });
            child.on("exit", (code) => done({ code, out, err }));
          }),
      ),
    );
    for (const r of both) {
      expect(r.code).toBe(0);
      expect(r.err).toBe("");
    }
    const after = JSON.parse(run(m, ["query", "widgets", "--json", "--limit", "100"]).stdout);
    expect(after.hits).toHaveLength(30);
    expect(JSON.parse(both[0]!.out).hits).toHaveLength(30);
    expect(JSON.parse(both[1]!.out).hits).toHaveLength(30);
  });
});

describe("the bundled text worker", () => {
  it("indexes a store big enough for it: every session found, nothing on stderr, the stores untouched", () => {
    // The bundle looks for its text worker beside itself (scripts/bundle.mjs).
    expect(existsSync(join(ROOT, "dist", "cli", "text-worker.js"))).toBe(true);
    const m = machine();
    const harnesses = ["claude_code", "codex", "antigravity"] as const;
    const ids = Array.from({ length: 70 }, (_, i) => {
      const id = `4d4d4d4d-0000-4000-8000-${String(i).padStart(12, "0")}`;
      put(m, harnesses[i % 3] ?? "codex", {
        id,
        start: i * 60,
        texts: [`where is parcel number ${i}`, `parcel ${i} is on its way`],
      });
      return id;
    });
    const stores = hashTree(join(m.home, "stores"));
    const r = run(m, ["query", "parcel", "--json", "--limit", "500"]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const hits = (JSON.parse(r.stdout) as { hits: { id: string }[] }).hits;
    expect([...new Set(hits.map((h) => h.id))].sort()).toEqual(ids);
    expect(hashTree(join(m.home, "stores"))).toEqual(stores);
  });
});

describe("completion", () => {
  it("completes session ids from the index and harness names", () => {
    const m = sample();
    run(m, ["list"]); // completion answers from the index as the last command left it
    const ids = run(m, ["complete", "--", "view", ""]);
    expect(ids.status).toBe(0);
    expect(ids.stdout).toContain(`${IDS[2]}\tantigravity: 日本語のタイトル the login`);
    expect(ids.stdout).toContain(IDS[0]);
    const harnesses = run(m, ["complete", "--", "list", "--from", ""]);
    expect(harnesses.stdout.split("\n").map((l) => l.split("\t")[0])).toEqual(
      expect.arrayContaining(["antigravity", "claude_code", "codex"]),
    );
  });
});

const hasScript = spawnSync("script", ["--version"]).status === 0;

/** Type `keys` (each after a pause) into txcript on a pseudo-terminal. */
function onTerminal(
  m: Machine,
  args: string[],
  keys: string[],
  cols = 100,
  firstDelay = 1,
): { status: number; out: string } {
  const line = [process.execPath, BIN, ...args].map(shellWord).join(" ");
  const feed = [
    "true",
    ...keys.map((k, i) => `sleep ${i === 0 ? firstDelay : 1}; printf '%s' ${shellWord(k)}`),
  ].join("; ");
  const r = spawnSync(
    "sh",
    [
      "-c",
      `(${feed}; sleep 1) | script -qec ${shellWord(`stty cols ${cols} rows 30; ${line}`)} /dev/null`,
    ],
    {
      cwd: ROOT,
      encoding: "utf8",
      // No progress line: on a loaded machine a cold refresh passes the
      // half-second after which it draws, and the output would follow it.
      env: {
        PATH: "/usr/bin:/bin",
        TERM: "xterm",
        ...m.env,
        NO_COLOR: "1",
        TXCRIPT_PROGRESS_AFTER_MS: "3600000",
      },
      timeout: 30_000,
    },
  );
  return { status: r.status ?? -1, out: r.stdout.replace(/\r\n/g, "\n") };
}

describe.skipIf(!hasScript)("on a terminal", () => {
  it("list prints a header and aligns CJK titles", () => {
    const m = sample();
    const r = onTerminal(m, ["list"], [], 90);
    expect(r.status).toBe(0);
    const lines = r.out.split("\n").filter((l) => /^(ID|[0-9a-f]{8}) /.test(l));
    expect(lines[0]).toMatch(/^ID {8}HARNESS +UPDATED +AGE +MESSAGES +CWD +TITLE$/);
    expect(lines).toHaveLength(4);
    for (const l of lines) expect(stringWidth(l)).toBeLessThanOrEqual(90);
    // The CJK title is cut by cells, not code units: its line is as wide as the others allow.
    const cjk = lines.find((l) => l.includes("日本語"))!;
    expect(stringWidth(cjk)).toBeGreaterThanOrEqual(88);
  });

  it("the picker filters as you type, and Enter then Enter views the session", () => {
    const m = sample();
    const stores = hashTree(join(m.home, "stores"));
    // Index the text first, and give the picker time to draw before typing:
    // keys that arrive before the prompt is up are echoed, not filtered.
    expect(run(m, ["query", "readiness"]).status).toBe(0);
    const r = onTerminal(m, ["pick"], ["readin", "\r", "\r"], 100, 3);
    expect(r.out).toContain("Find a session");
    expect(r.out).toContain("in the messages");
    expect(r.out).toContain("waiting for readiness fixes it");
    // The view ran: its header names the session.
    expect(r.out).toMatch(/3c3c3c3c-0000-4000-8000-000000000003/);
    expect(hashTree(join(m.home, "stores"))).toEqual(stores);
  });
});
