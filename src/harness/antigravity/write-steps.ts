/**
 * The agy step that executes one tool call, as agy writes it: a typed step
 * (RUN_COMMAND, VIEW_FILE, CODE_ACTION) for Bash, Read, Write and Edit,
 * else GENERIC with the result as text. write.ts keeps a typed step only
 * when reading it back gives the same result. No I/O.
 */

import type { Json, Tool, ToolResultBlock } from "../../common.js";
import { encode } from "../../protobuf.js";
import { pathToUri } from "./decode.js";
import {
  ActionResult,
  ActionResultEdit,
  ActionSpec,
  ActionSpecCommand,
  ActionSpecCreateFile,
  CLI_WAIT_MS_BEFORE_ASYNC,
  CommandOutput,
  CortexStepCodeAction,
  CortexStepGeneric,
  CortexStepRunCommand,
  CortexStepViewFile,
  GenericResult,
  PathScope,
  ReplacementChunk,
  StepStatus,
  StepType,
} from "./schema.js";

export interface StepPlan {
  type: number;
  status: number;
  payload: Uint8Array;
}

export function resultText(content: Json): string {
  return typeof content === "string" ? content : JSON.stringify(content);
}

export function genericStep(result: ToolResultBlock | undefined): StepPlan {
  const payload = encode((w) => {
    if (result !== undefined) {
      w.message(CortexStepGeneric.result, (r) =>
        r.string(GenericResult.result, resultText(result.content)),
      );
    }
  });
  const status =
    result === undefined
      ? StepStatus.PENDING
      : result.is_error
        ? StepStatus.ERROR
        : StepStatus.DONE;
  return { type: StepType.GENERIC, status, payload };
}

export function typedStep(tool: Tool, result: ToolResultBlock | undefined): StepPlan | undefined {
  const status = result === undefined ? StepStatus.PENDING : StepStatus.DONE;
  switch (tool.name) {
    case "Bash": {
      const output = result?.content;
      if (result !== undefined && typeof output !== "string") return undefined;
      const payload = encode((w) => {
        if (tool.workdir !== undefined) w.string(CortexStepRunCommand.cwd, tool.workdir);
        if (result !== undefined) w.int(CortexStepRunCommand.exit_code, result.is_error ? 1 : 0);
        w.uint(CortexStepRunCommand.field_11, 1);
        w.uint(CortexStepRunCommand.wait_ms_before_async, CLI_WAIT_MS_BEFORE_ASYNC);
        if (typeof output === "string") {
          w.message(CortexStepRunCommand.combined_output, (o) =>
            o.string(CommandOutput.full, output),
          );
        }
        w.string(CortexStepRunCommand.command_line, tool.command);
        w.string(CortexStepRunCommand.proposed_command_line, tool.command);
      });
      return { type: StepType.RUN_COMMAND, status, payload };
    }
    case "Read": {
      if (result !== undefined && (typeof result.content !== "string" || result.is_error)) {
        return undefined;
      }
      const payload = encode((w) => {
        w.string(CortexStepViewFile.absolute_uri, pathToUri(tool.file_path));
        if (tool.offset !== undefined) w.uint(CortexStepViewFile.start_line, tool.offset);
        if (tool.limit !== undefined) {
          const end = tool.offset === undefined ? tool.limit : tool.offset + tool.limit - 1;
          if (end >= 0) w.uint(CortexStepViewFile.end_line, end);
        }
        const text = result?.content;
        if (typeof text === "string") {
          w.string(CortexStepViewFile.content, text);
          w.uint(CortexStepViewFile.num_lines, text === "" ? 0 : text.split("\n").length);
          w.uint(CortexStepViewFile.num_bytes, Buffer.byteLength(text, "utf8"));
        }
      });
      return { type: StepType.VIEW_FILE, status, payload };
    }
    case "Write":
    case "Edit": {
      if (result?.is_error) return undefined;
      const uri = pathToUri(tool.file_path);
      const payload = encode((w) => {
        w.message(CortexStepCodeAction.action_spec, (spec) => {
          if (tool.name === "Write") {
            spec.message(ActionSpec.create_file, (c) => {
              c.string(ActionSpecCreateFile.content, tool.content);
              c.message(ActionSpecCreateFile.path, (p) => p.string(PathScope.absolute_uri, uri));
              c.uint(ActionSpecCreateFile.field_4, 1);
            });
          } else {
            spec.message(ActionSpec.command, (c) => {
              c.uint(ActionSpecCommand.field_2, 1);
              c.message(ActionSpecCommand.file, (p) => p.string(PathScope.absolute_uri, uri));
              c.uint(ActionSpecCommand.field_8, 1);
              c.message(ActionSpecCommand.replacement_chunk, (chunk) => {
                chunk.string(ReplacementChunk.target_content, tool.old_string);
                chunk.string(ReplacementChunk.replacement_content, tool.new_string);
                if (tool.replace_all) chunk.uint(ReplacementChunk.allow_multiple, 1);
              });
            });
          }
        });
        if (result !== undefined) {
          w.message(CortexStepCodeAction.action_result, (r) =>
            r.message(ActionResult.edit, (e) => {
              e.string(ActionResultEdit.absolute_uri, uri);
              if (tool.name === "Write") e.uint(ActionResultEdit.created, 1);
            }),
          );
        }
        w.uint(CortexStepCodeAction.field_4, 1);
      });
      return { type: StepType.CODE_ACTION, status, payload };
    }
    case "MultiEdit":
    case "Command":
    case "Raw":
      return undefined;
    default:
      return tool satisfies never;
  }
}
