/**
 * txcript view <id>[#range]: a session as compact text, Markdown, HTML or
 * Common JSON. Long text goes through a pager on a terminal.
 */

import { type Command, Option } from "commander";
import { renderCommonChunks } from "../../common-json.js";
import { assignDefined, defined } from "../../json.js";
import { renderTextChunks, type ViewInput } from "../../render/text.js";
import type { HarnessId, TextForm } from "../../transcript.js";
import { addArchiveOptions } from "../archive.js";
import { collectAfterLargeLoad } from "../collect.js";
import { resolveSource, selected } from "../context.js";
import { parseHarness, parseTextForm } from "../options.js";
import { colorEnabled, painter, writeChunks, writePagedChunks } from "../output.js";
import { dryRunReport, redactionSummary, redactSource, renderSource } from "../pages.js";
import { forTerminalChunks } from "../sanitize.js";

const FORMATS = ["text", "json", "markdown", "html"] as const;
type Format = (typeof FORMATS)[number];

interface ViewOptions {
  from?: HarnessId;
  as?: TextForm;
  format: Format;
  pager: boolean;
  redact?: boolean;
  redactPatterns?: string;
  redactDryRun?: boolean;
  showPaths?: boolean;
}

export function register(program: Command): void {
  addArchiveOptions(program.command("view"))
    .alias("show")
    .description("show a session (or a #range of its messages)")
    .argument(
      "<session>",
      'an id or unique prefix, optionally with #N, #A-B, #A- or #-B; or a document file, or "-"',
    )
    .option("--from <harness>", "look the id up in this harness only", parseHarness)
    .option(
      "--as <form>",
      "the text form of a document argument (default: detected)",
      parseTextForm,
    )
    .addOption(new Option("--format <format>", "output format").choices(FORMATS).default("text"))
    .option("--redact", "replace secrets, e-mail addresses, the home path and the user name")
    .option("--redact-patterns <file>", "with --redact: also your own patterns, one per line")
    .option(
      "--redact-dry-run",
      "list what --redact would remove (kind, message, field), not the values",
    )
    .option("--show-paths", "markdown/html: keep absolute local paths")
    .option("--no-pager", "never page the output")
    .action(async (ref: string, options: ViewOptions, command: Command) => {
      const given = await resolveSource(command, ref, {
        ...defined({ from: options.from }),
        ...(options.as ? { documentForm: options.as } : {}),
        allowDocuments: true,
        titleDocuments: true,
      });
      // A large load's garbage (the session's bytes, its parsed records) goes
      // before the page is made: else the page's short-lived strings add to it.
      collectAfterLargeLoad();
      // One redactor before every format, so text and JSON hide what pages hide.
      const { source, redacted } = await redactSource(given, options);
      if (redacted) {
        if (options.redactDryRun) process.stdout.write(dryRunReport(redacted.findings));
        process.stderr.write(`${redactionSummary(redacted.count, redacted.byKind)}\n`);
        if (options.redactDryRun) return;
      }
      switch (options.format) {
        case "json":
          writeChunks(renderCommonChunks(selected(source)));
          return;
        case "markdown":
        case "html": {
          const rendered = await renderSource(
            source,
            options.format,
            options.showPaths ? { showPaths: true } : {},
          );
          if (options.format === "html") writeChunks(rendered.pieces);
          // A terminal must not act on control characters inside the Markdown.
          else
            await writePagedChunks(forTerminalChunks(rendered.pieces), process.env, options.pager);
          return;
        }
        case "text": {
          const input: ViewInput = {
            meta: source.transcript.meta,
            messages: source.transcript.body,
            start: source.start,
            end: source.end,
          };
          if (source.found) {
            input.harness = source.found.harness;
            assignDefined(input, "path", source.path);
            if (source.forkedFrom) input.forkedFrom = source.forkedFrom;
          }
          // The painter makes each piece safe before coloring it; without
          // colors the whole text is made safe as it streams as well.
          const color = colorEnabled(process.stdout, process.env);
          const pieces = renderTextChunks(input, painter(color));
          await writePagedChunks(
            color ? pieces : forTerminalChunks(pieces),
            process.env,
            options.pager,
          );
          return;
        }
        default:
          return options.format satisfies never;
      }
    });
}
