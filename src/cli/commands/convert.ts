/**
 * txcript convert <file|-> [--from H] --to H|common: text form to text
 * form, through the canonical model, with no store. The input's form is
 * detected when --from is not given.
 */

import type { Command } from "commander";
import { renderFromCommonChunks } from "../../convert.js";
import { TEXT_FORMS, type TextForm } from "../../transcript.js";
import { readDocument } from "../documents.js";
import { parseTextForm } from "../options.js";
import { writeChunks } from "../output.js";

export function register(program: Command): void {
  program
    .command("convert")
    .description("convert a session document between text forms (no store involved)")
    .argument("<file>", 'the document, or "-" for stdin')
    .option(
      "--from <form>",
      `input form: ${TEXT_FORMS.join(", ")} (default: detected from the file)`,
      parseTextForm,
    )
    .requiredOption("--to <form>", `output form: ${TEXT_FORMS.join(", ")}`, parseTextForm)
    .action((file: string, options: { from?: TextForm; to: TextForm }) => {
      const doc = readDocument(file, options.from, "--from");
      writeChunks(renderFromCommonChunks(doc.transcript, options.to));
    });
}
