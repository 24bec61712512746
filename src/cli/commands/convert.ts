/**
 * txcript convert <file|-> --from H --to H|common: text form to text form,
 * through the canonical model, with no store.
 */

import type { Command } from "commander";
import { convert } from "../../convert.js";
import { TEXT_FORMS, type TextForm } from "../../transcript.js";
import { readInput } from "../input.js";
import { parseTextForm } from "../options.js";

export function register(program: Command): void {
  program
    .command("convert")
    .description("convert a session document between text forms (no store involved)")
    .argument("<file>", 'the document, or "-" for stdin')
    .requiredOption("--from <form>", `input form: ${TEXT_FORMS.join(", ")}`, parseTextForm)
    .requiredOption("--to <form>", `output form: ${TEXT_FORMS.join(", ")}`, parseTextForm)
    .action((file: string, options: { from: TextForm; to: TextForm }) => {
      const input = readInput(file);
      process.stdout.write(convert(input.text, options.from, options.to, input.origin));
    });
}
