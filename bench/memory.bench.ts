/**
 * Peak memory (and time) of `view`, `export` and `continue` on large
 * sessions, from the built CLI in child processes: a Claude Code session,
 * a Codex rollout, a Factory Droid, pi, Gemini CLI, Qwen Code and Copilot
 * CLI session of N JSONL lines each, and an agy
 * conversation of about N steps (issue 11 sizes: N = 1,000,000; a 1 M-line
 * Claude Code session is about 230 MB, the agy database about 200 MB).
 * Every figure is also given as a ratio to the session's size on disk
 * (issue 33 goal 6: at most 3x; the "goal 6" column says whether it is).
 * Baselines measured in the same run on the same files: a child that only
 * reads the file (raw read), one that reads and JSON.parses every line, or
 * reads every step row (raw parse), and one that loads the session through
 * the library and keeps its Common transcript (load+toCommon: the floor of
 * any command that shows the whole session), and one that loads the whole
 * native Body and keeps it beside its Common transcript (Body+toCommon:
 * what showing held before agy's rows streamed). `continue` continues
 * into agy (a database; Claude Code from agy), `continue jsonl` into a JSONL
 * harness (Claude Code; Codex from Claude Code). For agy, `continue into
 * it` continues a Simple document of the same messages into agy (its
 * peak/file is to the document's size): the peak of agy's writer.
 * The JSONL sessions are also given as a file: by path (`path view`,
 * `path export`, `path convert`, `path continue`), piped to `convert -`
 * (`stdin convert`), and for Codex as a `.jsonl.zst` rollout (`zst ...`;
 * its peak/file is to the uncompressed size): the road of src/cli/documents.ts.
 * `--scale 0.1` (or TXCRIPT_BENCH_SCALE) shrinks N; `--runs R` (default 3);
 * `--only claude_code,antigravity` picks harnesses, `--commands view,export`
 * the commands (by the start of their label); `--keep` leaves the generated
 * sessions (and prints their HOME); `--base <checkout>`
 * (a checkout with an older build in its dist/) measures load+toCommon and
 * every command with that build too, in the same run, each beside this
 * build's (the "base" rows).
 * Needs `npm run build` first.
 */

import { spawnSync } from "node:child_process";
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { continueInto } from "../src/local.js";
import type { Common, Transcript } from "../src/transcript.js";
import { beside, GOALS } from "./goals.js";
import { mb, median, report } from "./util.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const BIN = join(ROOT, "dist", "cli", "main.cjs");
const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? undefined : process.argv[i + 1];
};
const SCALE = Number(arg("scale") ?? process.env.TXCRIPT_BENCH_SCALE ?? 1);
const RUNS = Number(arg("runs") ?? 3);
const ONLY = arg("only")?.split(",");
/** `--commands view,export`: only the commands whose label starts with one of these. */
const COMMANDS = arg("commands")?.split(",");
const N = Math.max(10, Math.round(1_000_000 * SCALE));
const BASE = arg("base");
const SID = "b0b0b0b0-0000-4000-8000-00000000b0b0";
const TS = "2026-11-30T09:15:00.000Z";

if (!existsSync(BIN)) {
  process.stderr.write(`${BIN} is missing: run "npm run build" first\n`);
  process.exit(1);
}

const home = mkdtempSync(join(tmpdir(), "txcript-bench-mem-"));
const env = { PATH: process.env.PATH ?? "", HOME: home, NO_COLOR: "1" };

/** Write `count` lines made by `line(i)` to `path`, a megabyte at a time. */
function writeLines(path: string, count: number, line: (i: number) => string): void {
  const fd = openSync(path, "w");
  let batch = "";
  for (let i = 0; i < count; i++) {
    batch += `${line(i)}\n`;
    if (batch.length > 1 << 20) {
      writeSync(fd, batch);
      batch = "";
    }
  }
  writeSync(fd, batch);
  closeSync(fd);
}

function claudeFile(): string {
  const dir = join(home, ".claude", "projects", "-bench");
  spawnSync("mkdir", ["-p", dir]);
  const path = join(dir, `${SID}.jsonl`);
  writeLines(path, N, (i) => {
    const uuid = `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;
    const parent =
      i === 0 ? "null" : `"00000000-0000-4000-8000-${String(i - 1).padStart(12, "0")}"`;
    const base = `"uuid":"${uuid}","parentUuid":${parent},"sessionId":"${SID}","timestamp":"${TS}","cwd":"/bench"`;
    return i % 2 === 0
      ? `{"type":"user",${base},"message":{"role":"user","content":"question ${i} about the code"}}`
      : `{"type":"assistant",${base},"message":{"id":"msg_${i}","role":"assistant","model":"claude-opus-5","content":[{"type":"text","text":"answer ${i} with some words"}]}}`;
  });
  return path;
}

function codexFile(): string {
  const id = SID.replace(/^b0/, "c0");
  const dir = join(home, ".codex", "sessions", "2026", "11", "30");
  spawnSync("mkdir", ["-p", dir]);
  const path = join(dir, `rollout-2026-11-30T09-15-00-${id}.jsonl`);
  writeLines(path, N, (i) =>
    i === 0
      ? `{"timestamp":"${TS}","type":"session_meta","payload":{"id":"${id}","timestamp":"${TS}","cwd":"/bench"}}`
      : `{"timestamp":"${TS}","type":"response_item","payload":{"type":"message","role":"${i % 2 ? "user" : "assistant"}","content":[{"type":"${i % 2 ? "input" : "output"}_text","text":"line ${i} of the rollout"}]}}`,
  );
  return path;
}

/** A Factory Droid session: its session_start, then N - 1 message lines (parented in a chain). */
function droidFile(): string {
  const id = SID.replace(/^b0/, "d0");
  const dir = join(home, ".factory", "sessions", "-bench");
  spawnSync("mkdir", ["-p", dir]);
  const path = join(dir, `${id}.jsonl`);
  const mid = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;
  writeLines(path, N, (i) => {
    if (i === 0)
      return `{"type":"session_start","id":"${id}","title":"bench","owner":"bench","version":2,"cwd":"/bench"}`;
    const parent = i === 1 ? "" : `"parentId":"${mid(i - 1)}",`;
    const role = i % 2 ? "user" : "assistant";
    const model = i % 2 ? "" : ',"modelId":"claude-opus-5"';
    return `{"type":"message","id":"${mid(i)}",${parent}"timestamp":"${TS}","message":{"role":"${role}","content":[{"type":"text","text":"message ${i} of the session"}]${model}}}`;
  });
  return path;
}

/** A pi session: its `session` header, then N - 1 message entries parented in a chain. */
function piFile(): string {
  const id = SID.replace(/^b0/, "e0");
  const dir = join(home, ".pi", "agent", "sessions", "--bench--");
  spawnSync("mkdir", ["-p", dir]);
  const path = join(dir, `2026-11-30T09-15-00-000Z_${id}.jsonl`);
  const entry = (i: number) => String(i).padStart(8, "0");
  const ms = Date.parse(TS);
  writeLines(path, N, (i) => {
    if (i === 0)
      return `{"type":"session","version":3,"id":"${id}","timestamp":"${TS}","cwd":"/bench"}`;
    const parent = i === 1 ? "null" : `"${entry(i - 2)}"`;
    const message =
      i % 2
        ? `{"role":"user","content":[{"type":"text","text":"message ${i} of the session"}],"timestamp":${ms}}`
        : `{"role":"assistant","content":[{"type":"text","text":"message ${i} of the session"}],"api":"anthropic-messages","provider":"anthropic","model":"claude-opus-5","stopReason":"stop","timestamp":${ms}}`;
    return `{"type":"message","id":"${entry(i - 1)}","parentId":${parent},"timestamp":"${TS}","message":${message}}`;
  });
  return path;
}

/**
 * A Gemini CLI session (the JSONL of v0.39+): its metadata line, then
 * message records, each followed by the `$set` of `lastUpdated` the CLI
 * appends after every record (N lines in all). Each record has its own
 * time, a second after the last, as a real session's do (one time shared
 * by every record would be held once and flatter the reader).
 */
function geminiFile(): string {
  const id = SID.replace(/^b0/, "f0");
  const project = join(home, ".gemini", "tmp", "bench");
  spawnSync("mkdir", ["-p", join(project, "chats")]);
  writeFileSync(join(project, ".project_root"), "/bench");
  const path = join(project, "chats", `session-2026-11-30T09-15-${id.slice(0, 8)}.jsonl`);
  const hash = "0".repeat(64);
  const start = Date.parse(TS);
  // Record i (odd) and the `$set` after it share a time: the record's second.
  const at = (i: number) => new Date(start + Math.floor((i + 1) / 2) * 1000).toISOString();
  writeLines(path, N, (i) => {
    if (i === 0)
      return `{"sessionId":"${id}","projectHash":"${hash}","startTime":"${TS}","lastUpdated":"${TS}","kind":"main"}`;
    if (i % 2 === 0) return `{"$set":{"lastUpdated":"${at(i - 1)}"}}`;
    const rid = `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;
    return i % 4 === 1
      ? `{"id":"${rid}","timestamp":"${at(i)}","type":"user","content":[{"text":"question ${i} about the code"}]}`
      : `{"id":"${rid}","timestamp":"${at(i)}","type":"gemini","content":"answer ${i} with some words","tokens":{"input":120,"output":8,"cached":0,"thoughts":0,"tool":0,"total":128},"model":"gemini-2.5-pro"}`;
  });
  return path;
}

/** A Qwen Code chat recording: N user and assistant records in a `parentUuid` chain. */
function qwenFile(): string {
  const id = SID.replace(/^b0/, "90");
  const dir = join(home, ".qwen", "projects", "-bench", "chats");
  spawnSync("mkdir", ["-p", dir]);
  const path = join(dir, `${id}.jsonl`);
  const uuid = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;
  writeLines(path, N, (i) => {
    const parent = i === 0 ? "null" : `"${uuid(i - 1)}"`;
    const base = `"uuid":"${uuid(i)}","parentUuid":${parent},"sessionId":"${id}","timestamp":"${TS}"`;
    return i % 2 === 0
      ? `{${base},"type":"user","cwd":"/bench","version":"0.24.4","message":{"role":"user","parts":[{"text":"question ${i} about the code"}]}}`
      : `{${base},"type":"assistant","cwd":"/bench","version":"0.24.4","model":"qwen3-coder-plus","message":{"role":"model","parts":[{"text":"answer ${i} with some words"}]},"usageMetadata":{"promptTokenCount":120,"candidatesTokenCount":8,"totalTokenCount":128}}`;
  });
  return path;
}

/** A Copilot CLI events.jsonl: session.start, then user and assistant messages in a parentId chain. */
function copilotFile(): string {
  const id = SID.replace(/^b0/, "70");
  const dir = join(home, ".copilot", "session-state", id);
  spawnSync("mkdir", ["-p", dir]);
  const path = join(dir, "events.jsonl");
  const eid = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;
  writeLines(path, N, (i) => {
    const tail = `"id":"${eid(i)}","timestamp":"${TS}","parentId":${i === 0 ? "null" : `"${eid(i - 1)}"`}`;
    if (i === 0)
      return `{"type":"session.start","data":{"sessionId":"${id}","version":1,"producer":"copilot-agent","copilotVersion":"1.0.102","startTime":"${TS}","context":{"cwd":"/bench"}},${tail}}`;
    return i % 2
      ? `{"type":"user.message","data":{"content":"question ${i} about the code","attachments":[]},${tail}}`
      : `{"type":"assistant.message","data":{"messageId":"m${i}","content":"answer ${i} with some words","toolRequests":[],"model":"claude-sonnet-4.5"},${tail}}`;
  });
  return path;
}

/**
 * The agy conversation, and a Simple document of the same messages: what
 * `continue --with antigravity` reads with the least of its own (its peak
 * is agy's writer's).
 */
function agyFile(): { path: string; id: string; doc: string } {
  const id = SID.replace(/^b0/, "a0");
  const body: Common = [];
  for (let i = 0; i < N; i++) {
    body.push({
      role: i % 2 ? "assistant" : "user",
      timestamp: TS,
      content: [{ type: "text", text: `step ${i} of the conversation` }],
    });
  }
  const t: Transcript<Common> = { meta: { id, timestamp: TS, cwd: "/bench" }, body };
  // The copy gets an id of its own: the commands name that one.
  const saved = continueInto(t, "antigravity", { env: { HOME: home } }).saved;
  const doc = join(home, "agy-messages.json");
  writeFileSync(doc, JSON.stringify({ id, timestamp: TS, cwd: "/bench", messages: body }));
  return { path: saved.path, id: saved.id, doc };
}

/**
 * Print this child's peak RSS on exit (stderr), whatever it runs: VmHWM of
 * /proc/self/status, the high-water mark of this process's own memory.
 * Not `resourceUsage().maxRSS`: on Linux a child's ru_maxrss starts at the
 * RSS of the process it was forked from (this bench, holding the generated
 * sessions: hundreds of MB), which floored every figure at the parent's
 * size. maxRSS only where /proc is missing.
 */
const PEAK = `data:text/javascript,import{readFileSync as r}from"node:fs";process.on("exit",()=>{let p=process.resourceUsage().maxRSS*1024;try{p=Number(/VmHWM:\\s*(\\d+)/.exec(r("/proc/self/status","utf8"))[1])*1024}catch{}const c=process.cpuUsage();process.stderr.write("\\npeak-rss "+p+" cpu-us "+(c.user+c.system)+"\\n")})`;

/** `stdin`: a file the child reads as its stdin (for `-`). */
function measure(
  args: string[],
  stdin?: string,
): {
  ms: number;
  cpu: number;
  peak: number;
  ok: boolean;
  err: string;
} {
  const input = stdin === undefined ? "ignore" : openSync(stdin, "r");
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ["--import", PEAK, ...args], {
    env,
    stdio: [input, "ignore", "pipe"],
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const ms = performance.now() - t0;
  if (typeof input === "number") closeSync(input);
  const m = /peak-rss (\d+) cpu-us (\d+)/.exec(r.stderr);
  const err =
    r.stderr
      .replace(/\n?peak-rss \d+ cpu-us \d+\n/, "")
      .trim()
      .split("\n")[0] ?? "";
  return {
    ms,
    cpu: m ? Number(m[2]) / 1000 : Number.NaN,
    peak: m ? Number(m[1]) : Number.NaN,
    ok: r.status === 0,
    err,
  };
}

function medians(args: string[]): { ms: number; cpu: number; peak: number; note: string } {
  return summary(Array.from({ length: RUNS }, () => measure(args)));
}

const rawRead = (file: string) => ["-e", `require("fs").readFileSync(${JSON.stringify(file)})`];
const rawParseLines = (file: string) => [
  "-e",
  `const t=require("fs").readFileSync(${JSON.stringify(file)},"utf8");let n=0;for(const l of t.split("\\n"))if(l)n+=Object.keys(JSON.parse(l)).length;`,
];
/** Load the session through the library and keep its Common transcript until exit. */
const loadCommon = (from: string, id: string, root = ROOT) => [
  "--input-type=module",
  "-e",
  `const {Local}=await import(${JSON.stringify(join(root, "dist", "lib.js"))});const l=new Local({env:process.env,from:${JSON.stringify(from)}});globalThis.kept=l.load({harness:${JSON.stringify(from)},id:${JSON.stringify(id)}});`,
];
/**
 * The whole native Body loaded and kept beside its Common transcript: the
 * model every showing held before it streamed (agy's `Store.loadFor`).
 */
const bodyCommon = (from: string, id: string) => [
  "--input-type=module",
  "-e",
  `const {harness}=await import(${JSON.stringify(join(ROOT, "dist", "harness", "index.js"))});const h=harness(${JSON.stringify(from)});const t=h.store({env:process.env}).load(${JSON.stringify(id)});globalThis.kept=[t,h.codec.toCommon(t)];`,
];
const rawRows = (file: string) => [
  "-e",
  `const D=require(${JSON.stringify(join(ROOT, "node_modules", "better-sqlite3"))});const d=new D(${JSON.stringify(file)},{readonly:true});let n=0;for(const r of d.prepare("SELECT * FROM steps").iterate())n++;d.close();`,
];

process.stdout.write(
  `N = ${N.toLocaleString("en-US")} (scale ${SCALE}), ${RUNS} runs each; medians\n`,
);
const cases: { name: string; file: string; id: string; from: string; doc?: string }[] = [];
const t0 = performance.now();
const wanted = (name: string) => ONLY === undefined || ONLY.includes(name);
if (wanted("claude_code"))
  cases.push({ name: "claude_code", file: claudeFile(), id: SID, from: "claude_code" });
if (wanted("codex"))
  cases.push({ name: "codex", file: codexFile(), id: SID.replace(/^b0/, "c0"), from: "codex" });
if (wanted("droid"))
  cases.push({ name: "droid", file: droidFile(), id: SID.replace(/^b0/, "d0"), from: "droid" });
if (wanted("pi"))
  cases.push({ name: "pi", file: piFile(), id: SID.replace(/^b0/, "e0"), from: "pi" });
if (wanted("gemini_cli"))
  cases.push({
    name: "gemini_cli",
    file: geminiFile(),
    id: SID.replace(/^b0/, "f0"),
    from: "gemini_cli",
  });
if (wanted("qwen_code"))
  cases.push({
    name: "qwen_code",
    file: qwenFile(),
    id: SID.replace(/^b0/, "90"),
    from: "qwen_code",
  });
if (wanted("copilot"))
  cases.push({
    name: "copilot",
    file: copilotFile(),
    id: SID.replace(/^b0/, "70"),
    from: "copilot",
  });
if (wanted("antigravity")) {
  const agy = agyFile();
  cases.push({
    name: "antigravity",
    file: agy.path,
    id: agy.id,
    from: "antigravity",
    doc: agy.doc,
  });
}
process.stdout.write(`generated in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);

for (const c of cases) {
  const size = statSync(c.file).size;
  const read = medians(rawRead(c.file));
  const parse = medians(c.name === "antigravity" ? rawRows(c.file) : rawParseLines(c.file));
  const loaded = medians(loadCommon(c.from, c.id));
  const whole = medians(bodyCommon(c.from, c.id));
  const rows: Record<string, string | number>[] = [
    {
      case: `${c.name} raw read`,
      file: mb(size),
      ms: read.ms.toFixed(0),
      peak: mb(read.peak),
      "peak/file": (read.peak / size).toFixed(2),
      note: read.note,
    },
    {
      case: `${c.name} raw parse`,
      ms: parse.ms.toFixed(0),
      peak: mb(parse.peak),
      "peak/file": (parse.peak / size).toFixed(2),
      "peak/raw read": (parse.peak / read.peak).toFixed(2),
      note: parse.note,
    },
    {
      case: `${c.name} load+toCommon`,
      ms: loaded.ms.toFixed(0),
      "cpu ms": loaded.cpu.toFixed(0),
      peak: mb(loaded.peak),
      "peak/file": (loaded.peak / size).toFixed(2),
      "peak/raw read": (loaded.peak / read.peak).toFixed(2),
      note: loaded.note,
    },
    {
      case: `${c.name} Body+toCommon`,
      ms: whole.ms.toFixed(0),
      peak: mb(whole.peak),
      "peak/file": (whole.peak / size).toFixed(2),
      "peak/raw read": (whole.peak / read.peak).toFixed(2),
      "peak/load+toCommon": (whole.peak / loaded.peak).toFixed(2),
      note: whole.note,
    },
  ];
  if (BASE !== undefined) {
    const based = medians(loadCommon(c.from, c.id, BASE));
    rows.push({
      case: `${c.name} load+toCommon (base)`,
      ms: based.ms.toFixed(0),
      "cpu ms": based.cpu.toFixed(0),
      peak: mb(based.peak),
      "peak/file": (based.peak / size).toFixed(2),
      "peak/raw read": (based.peak / read.peak).toFixed(2),
      note: based.note,
    });
  }
  const out = mkdtempSync(join(tmpdir(), "txcript-bench-out-"));
  const commands: [string, string[], string?][] = [
    ["view text", [BIN, "view", c.id, "--from", c.from, "--no-pager"]],
    ["view json", [BIN, "view", c.id, "--from", c.from, "--format", "json"]],
    ["export json", [BIN, "export", c.id, "--from", c.from, "--format", "simple"]],
    ["export md", [BIN, "export", c.id, "--from", c.from, "--format", "markdown"]],
    ["export html", [BIN, "export", c.id, "--from", c.from, "--format", "html"]],
    [
      "continue",
      [
        BIN,
        "continue",
        c.id,
        "--from",
        c.from,
        "--with",
        c.name === "antigravity" ? "claude_code" : "antigravity",
        "--out",
        out,
        "--no-resume",
      ],
    ],
  ];
  // Into a JSONL harness too (agy is a database): Claude Code, or Codex from Claude Code.
  commands.push([
    "continue jsonl",
    [
      BIN,
      "continue",
      c.id,
      "--from",
      c.from,
      "--with",
      c.name === "claude_code" ? "codex" : "claude_code",
      "--out",
      out,
      "--no-resume",
    ],
  ]);
  // Into agy from a Simple document of the same messages (peak/file: to the document's size).
  if (c.doc !== undefined)
    commands.push([
      "continue into it",
      [BIN, "continue", c.doc, "--with", c.name, "--out", out, "--no-resume"],
    ]);
  // The same file given by path, piped to stdin, and (Codex) as a zstd rollout: the document road.
  if (c.name !== "antigravity") {
    const target = c.name === "claude_code" ? "codex" : "claude_code";
    commands.push(
      ["path view text", [BIN, "view", c.file, "--no-pager"]],
      ["path export md", [BIN, "export", c.file, "--format", "markdown"]],
      ["path convert", [BIN, "convert", c.file, "--to", target]],
      ["stdin convert", [BIN, "convert", "-", "--to", target], c.file],
      [
        "path continue",
        [BIN, "continue", c.file, "--with", "antigravity", "--out", out, "--no-resume"],
      ],
    );
    if (c.name === "codex") {
      const zst = join(home, "given", "rollout.jsonl.zst");
      spawnSync("mkdir", ["-p", dirname(zst)]);
      spawnSync("zstd", ["-q", "-f", "-o", zst, c.file]);
      commands.push(
        ["zst view text", [BIN, "view", zst, "--no-pager"]],
        ["zst export md", [BIN, "export", zst, "--format", "markdown"]],
      );
    }
  }
  const builds: [string, string][] = [["", BIN]];
  if (BASE !== undefined) builds.push([" (base)", join(BASE, "dist", "cli", "main.js")]);
  for (const [label, command, stdin] of commands) {
    if (COMMANDS !== undefined && !COMMANDS.some((c) => label.startsWith(c))) continue;
    // continue writes a copy each run: a fresh target keeps runs alike.
    const fresh = label.startsWith("continue");
    // Each run measures every build in turn (interleaved), so a change in load hits both alike.
    const runs = builds.map((): ReturnType<typeof measure>[] => []);
    for (let r = 0; r < RUNS; r++) {
      builds.forEach(([, bin], b) => {
        if (fresh) rmSync(out, { recursive: true, force: true });
        runs[b]?.push(measure([bin, ...command.slice(1)], stdin));
      });
    }
    builds.forEach(([suffix], b) => {
      const m = summary(runs[b] ?? []);
      const base =
        label === "continue into it" && c.doc !== undefined ? statSync(c.doc).size : size;
      rows.push({
        case: `${c.name} ${label}${suffix}`,
        ms: m.ms.toFixed(0),
        "cpu ms": m.cpu.toFixed(0),
        peak: mb(m.peak),
        ...(base === size ? {} : { file: mb(base) }),
        "peak/file": (m.peak / base).toFixed(2),
        "peak/raw read": (m.peak / read.peak).toFixed(2),
        "peak/load+toCommon": (m.peak / loaded.peak).toFixed(2),
        "ms/raw parse": (m.ms / parse.ms).toFixed(2),
        // Issue 33 goal 6 (view, export and continue; convert the same road).
        "goal 6": `${mb(m.peak)} beside ${mb(base)}: ${beside(GOALS.sessionPeak, m.peak / base)}`,
        note: m.note,
      });
    });
  }
  rmSync(out, { recursive: true, force: true });
  report(rows);
}
// `--keep`: the generated sessions stay (their home printed), to compare outputs across builds.
if (process.argv.includes("--keep")) process.stdout.write(`sessions kept in ${home}\n`);
else rmSync(home, { recursive: true, force: true });

/** Medians of some runs, and the first failure's message. */
function summary(runs: ReturnType<typeof measure>[]): {
  ms: number;
  cpu: number;
  peak: number;
  note: string;
} {
  const failed = runs.find((r) => !r.ok);
  return {
    ms: median(runs.map((r) => r.ms)),
    cpu: median(runs.map((r) => r.cpu)),
    peak: median(runs.map((r) => r.peak)),
    note: failed ? `FAILED: ${failed.err.slice(0, 120)}` : "ok",
  };
}
