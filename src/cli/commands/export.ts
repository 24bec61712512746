/**
 * txcript export <id>[#range]: the session as a Simple document, Markdown
 * or a self-contained HTML page, on stdout or written atomically to
 * --out FILE; `export --all --out DIR` writes one file per session the
 * list filters select (and an index page for HTML or Markdown), refusing
 * to replace an existing file unless --force, and never writing inside any
 * harness's store.
 */

import { existsSync, lstatSync, mkdirSync, realpathSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { type Command, Option } from "commander";
import type { Meta } from "../../common.js";
import { ConflictError, describeCause, InvalidRequestError, TxcriptError } from "../../errors.js";
import { TargetExistsError, writeFileAtomic } from "../../fsx.js";
import { storedHarnesses } from "../../harness/index.js";
import { defined } from "../../json.js";
import { isInside } from "../../paths.js";
import { type IndexEntry, renderIndexHtml } from "../../render/index.js";
import { pathStyle } from "../../render/paths.js";
import type { Discovered, StoreOptions, TextForm } from "../../transcript.js";
import { addArchiveOptions, archiveFor } from "../archive.js";
import { collectAfterLargeLoad } from "../collect.js";
import { resolveSource, type Source } from "../context.js";
import { UsageError } from "../errors.js";
import { addListFilters, type FilterOptions, listSessions } from "../filters.js";
import { parseTextForm } from "../options.js";
import { writeChunks } from "../output.js";
import {
  dryRunReport,
  EXTENSIONS,
  identity,
  PAGE_FORMATS,
  type PageFormat,
  redactionSummary,
  redactSource,
  renderSource,
} from "../pages.js";
import { rootsFrom } from "../roots.js";
import { sessionsFor } from "../sessions.js";

/** `path` with its folder's symlinks resolved (and its own, when it is one), as far as they exist. */
function realTarget(path: string): string[] {
  const abs = resolve(path);
  let dir = dirname(abs);
  const rest: string[] = [basename(abs)];
  // The deepest existing folder, resolved; what does not exist yet is appended.
  for (;;) {
    try {
      dir = realpathSync(dir);
      break;
    } catch {
      const up = dirname(dir);
      if (up === dir) break;
      rest.unshift(basename(dir));
      dir = up;
    }
  }
  const out = [abs, join(dir, ...rest)];
  try {
    out.push(realpathSync(abs));
  } catch {
    // not there yet, or a dangling link: the rename replaces the link itself
  }
  return out;
}

/** The store roots of every harness, as configured here and by default, resolved. */
function storeRoots(command: Command): { label: string; root: string }[] {
  const flags = rootsFrom(command);
  const out: { label: string; root: string }[] = [];
  for (const h of storedHarnesses()) {
    const configs: StoreOptions[] = [{ env: process.env }];
    const flag = flags[h.id];
    if (flag !== undefined) configs.push({ env: process.env, root: flag });
    for (const options of configs) {
      for (const root of h.store?.(options).roots ?? []) {
        out.push({ label: h.label, root: resolve(root) });
        try {
          out.push({ label: h.label, root: realpathSync(root) });
        } catch {
          // a store that does not exist holds nothing to protect
        }
      }
    }
  }
  return out;
}

/** Refuse a target inside any store, or an existing one without --force. */
function checkTarget(command: Command, path: string, force: boolean): void {
  const targets = realTarget(path);
  for (const { label, root } of storeRoots(command)) {
    if (targets.some((t) => isInside(root, t))) {
      throw new InvalidRequestError(
        undefined,
        `is inside the ${label} store (${root}); export writes documents, never into a store`,
        { file: path },
      );
    }
  }
  if (!force && existsSync(path)) {
    throw new ConflictError(undefined, "already exists (--force replaces it)", { file: path });
  }
}

interface ExportOptions extends FilterOptions {
  format: PageFormat;
  as?: TextForm;
  out?: string;
  redact?: boolean;
  redactPatterns?: string;
  redactDryRun?: boolean;
  showPaths?: boolean;
  all?: boolean;
  force?: boolean;
}

/** Write `text` to `path` atomically, as a one-line error naming the file on failure. */
function writeOut(path: string, text: string | Iterable<string>, force: boolean): void {
  try {
    writeFileAtomic(path, text, { exclusive: !force });
  } catch (cause) {
    if (cause instanceof TargetExistsError) {
      throw new ConflictError(undefined, "already exists (--force replaces it)", { file: path });
    }
    throw new TxcriptError(undefined, `cannot write: ${describeCause(cause)}`, {
      file: path,
      cause,
    });
  }
}

/** A file name for a session: harness and id, any character a file system may refuse made `_`. */
export function exportName(s: { harness: string; id: string }, format: PageFormat): string {
  const id = s.id
    .replace(/[^A-Za-z0-9._-]/g, "_")
    .replace(/^\.+/, "_")
    .slice(0, 120);
  return `${s.harness}-${id}.${EXTENSIONS[format]}`;
}

async function exportOne(ref: string, options: ExportOptions, command: Command): Promise<void> {
  if (options.out !== undefined && options.out !== "-")
    checkTarget(command, options.out, options.force === true);
  const source = await resolveSource(command, ref, {
    ...defined({ from: options.from }),
    ...(options.as ? { documentForm: options.as } : {}),
    allowDocuments: true,
    titleDocuments: true,
  });
  // A large load's garbage (the session's bytes, its parsed records) goes
  // before the page is made: else the page's own short-lived strings add to it.
  collectAfterLargeLoad();
  if (options.redactDryRun) {
    const { redacted } = await redactSource(source, options);
    if (redacted) {
      process.stdout.write(dryRunReport(redacted.findings));
      process.stderr.write(`${redactionSummary(redacted.count, redacted.byKind)}\n`);
    }
    return;
  }
  const out = options.out;
  const force = options.force === true;
  const rendered = await renderSource(source, options.format, options);
  // Written a piece at a time: a huge session's page never exists as one string.
  if (out === undefined || out === "-") writeChunks(rendered.pieces);
  else writeOut(out, rendered.pieces, force);
  if (rendered.redacted) {
    process.stderr.write(
      `${redactionSummary(rendered.redacted.count, rendered.redacted.byKind)}\n`,
    );
  }
  if (out !== undefined && out !== "-") process.stderr.write(`wrote ${out}\n`);
}

async function exportAll(options: ExportOptions, command: Command): Promise<void> {
  const dir = options.out;
  if (dir === undefined || dir === "-") throw new UsageError("export --all needs --out DIR");
  if (existsSync(dir) && !lstatSync(dir).isDirectory()) {
    throw new UsageError(`--out ${dir} is not a directory`);
  }
  checkTarget(command, join(dir, "index.html"), true);
  const listing = await listSessions(command, options);
  const plan = listing.sessions.map((s) => ({ s, file: exportName(s, options.format) }));
  const index = options.format === "simple" ? undefined : `index.${EXTENSIONS[options.format]}`;
  const targets = [...plan.map((p) => p.file), ...(index ? [index] : [])];
  if (!options.force && !options.redactDryRun) {
    // Refuse before writing anything, so a refused run leaves the directory as it was.
    const [first, ...others] = targets.filter((f) => existsSync(join(dir, f)));
    if (first !== undefined) {
      const more = others.length > 0 ? ` and ${others.length} more` : "";
      throw new ConflictError(
        undefined,
        `${join(dir, first)}${more} already exist; --force replaces them`,
      );
    }
  }
  try {
    if (!options.redactDryRun) mkdirSync(dir, { recursive: true });
  } catch (cause) {
    throw new TxcriptError(undefined, `cannot create ${dir}: ${describeCause(cause)}`, { cause });
  }
  const sessions = sessionsFor(command, await archiveFor(command));
  const who = identity();
  const entries: IndexEntry[] = [];
  let redacted = 0;
  const byKind: Record<string, number> = {};
  let failed = 0;
  for (const { s, file } of plan) {
    let source: Source;
    try {
      const loaded = await sessions.load({ harness: s.harness, id: s.id });
      source = {
        transcript: loaded.transcript,
        found: loaded.located,
        start: 0,
        end: loaded.transcript.body.length,
        ...defined({ path: loaded.path }),
      };
    } catch (error) {
      failed++;
      process.stderr.write(
        `skipped ${s.harness} ${s.id}: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      continue;
    }
    if (options.redactDryRun) {
      const { redacted: found } = await redactSource(source, options, who);
      if (found) {
        process.stdout.write(dryRunReport(found.findings, `${file}\t`));
        redacted += found.count;
        for (const [k, n] of Object.entries(found.byKind)) byKind[k] = (byKind[k] ?? 0) + n;
      }
      continue;
    }
    const rendered = await renderSource(source, options.format, options, who);
    writeOut(join(dir, file), rendered.pieces, options.force === true);
    if (rendered.redacted) {
      redacted += rendered.redacted.count;
      for (const [k, n] of Object.entries(rendered.redacted.byKind))
        byKind[k] = (byKind[k] ?? 0) + n;
    }
    entries.push(indexEntry(s, file, source, rendered.meta, options, who.home));
  }
  if (options.redactDryRun) {
    process.stderr.write(`${redactionSummary(redacted, byKind)}\n`);
    if (failed > 0) process.exitCode = 1;
    return;
  }
  if (index) {
    const text = options.format === "html" ? renderIndexHtml(entries) : indexMarkdown(entries);
    writeOut(join(dir, index), text, options.force === true);
  }
  if (options.redact) process.stderr.write(`${redactionSummary(redacted, byKind)}\n`);
  process.stderr.write(
    `wrote ${entries.length} session${entries.length === 1 ? "" : "s"} to ${dir}${index ? ` (index: ${join(dir, index)})` : ""}\n`,
  );
  if (failed > 0) process.exitCode = 1;
}

function indexEntry(
  s: Discovered,
  file: string,
  source: Source,
  meta: Meta,
  options: ExportOptions,
  home?: string,
): IndexEntry {
  const entry: IndexEntry = {
    file,
    title: meta.title ?? "Untitled session",
    harness: s.harness,
    id: s.id,
    started: meta.timestamp,
    messages: source.transcript.body.length,
  };
  if (meta.cwd !== undefined) {
    const style = pathStyle({
      ...(options.showPaths ? { showPaths: true } : {}),
      ...(home ? { home } : {}),
    });
    entry.cwd = style.cwd(meta.cwd);
  }
  return entry;
}

function indexMarkdown(entries: readonly IndexEntry[]): string {
  const line = (e: IndexEntry) =>
    `- [${e.title.replace(/([\\`*_[\]<>])/g, "\\$1")}](${encodeURI(e.file)}) · ${e.harness} · ${e.started.replace("T", " ").replace(/(\.\d+)?Z$/, "")} · ${e.messages} messages`;
  return `# Sessions\n\n${entries.map(line).join("\n")}\n`;
}

export function register(program: Command): void {
  const command = program
    .command("export")
    .description("export a session (or a #range), or every listed session with --all")
    .argument(
      "[session]",
      'an id or unique prefix, or a session file, or "-"; optionally with #range',
    )
    .option("--as <form>", "the text form of a file argument (default: detected)", parseTextForm)
    .addOption(
      new Option("--format <format>", "simple (a Simple document), markdown or html")
        .choices(PAGE_FORMATS)
        .default("simple"),
    )
    .option("-o, --out <path>", "write to this file (with --all: this directory) instead of stdout")
    .option(
      "--redact",
      "replace secrets, e-mail addresses, the home path and the user name; reports how many on stderr",
    )
    .option("--redact-patterns <file>", "with --redact: also your own patterns, one per line")
    .option(
      "--redact-dry-run",
      "write nothing; list what --redact would remove (kind, message, field), not the values",
    )
    .option(
      "--show-paths",
      "keep absolute local paths (default: relative to the session's cwd, home as ~)",
    )
    .option("--all", "export every session the filters select, one file each, into --out DIR")
    .option("--force", "replace files that already exist");
  addListFilters(addArchiveOptions(command), "sessions (with --all)").action(
    async (ref: string | undefined, options: ExportOptions, cmd: Command) => {
      if (options.all) {
        if (ref !== undefined) throw new UsageError("export --all takes no session argument");
        await exportAll(options, cmd);
        return;
      }
      if (ref === undefined) throw new UsageError("export needs a session (or --all)");
      if (options.cwd !== undefined || options.limit !== undefined) {
        throw new UsageError("--cwd and --limit select sessions for --all");
      }
      await exportOne(ref, options, cmd);
    },
  );
}
