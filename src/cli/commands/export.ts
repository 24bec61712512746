/**
 * txcript export <id>[#range]: the session as a Simple document, on stdout
 * or written atomically to --out FILE.
 */

import type { Command } from "commander";
import { describeCause, TxcriptError } from "../../errors.js";
import { writeFileAtomic } from "../../fsx.js";
import { renderSimple } from "../../harness/simple.js";
import type { HarnessId, TextForm } from "../../transcript.js";
import { resolveSource, selected } from "../context.js";
import { parseHarness, parseTextForm } from "../options.js";

interface ExportOptions {
  from?: HarnessId;
  as?: TextForm;
  out?: string;
}

/** Write `text` to `path` atomically, as a one-line error naming the file on failure. */
function writeOut(path: string, text: string): void {
  try {
    writeFileAtomic(path, text);
  } catch (cause) {
    throw new TxcriptError(undefined, `cannot write: ${describeCause(cause)}`, {
      file: path,
      cause,
    });
  }
}

export function register(program: Command): void {
  program
    .command("export")
    .description("export a session (or a #range) as a Simple document")
    .argument(
      "<session>",
      'an id or unique prefix, or a session file, or "-"; optionally with #range',
    )
    .option("--from <harness>", "look the id up in this harness only", parseHarness)
    .option("--as <form>", "the text form of a file argument (default: detected)", parseTextForm)
    .option("-o, --out <file>", "write to this file instead of stdout")
    .action((ref: string, options: ExportOptions, command: Command) => {
      const source = resolveSource(command, ref, {
        ...(options.from ? { from: options.from } : {}),
        ...(options.as ? { documentForm: options.as } : {}),
        allowDocuments: true,
      });
      const text = renderSimple(selected(source));
      if (options.out === undefined || options.out === "-") process.stdout.write(text);
      else {
        writeOut(options.out, text);
        process.stderr.write(`wrote ${options.out}\n`);
      }
    });
}
