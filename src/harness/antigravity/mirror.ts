/**
 * The brain mirror: `brain/<id>/.system_generated/logs/transcript_full.jsonl`
 * and the compact `transcript.jsonl`, regenerated from the steps in the
 * format agy 1.2.0 writes (test/fixtures/agy-samples). agy only displays
 * these; the database is what it resumes from, but it wedges when the brain
 * directory is missing, so a saved conversation always gets both files.
 *
 * One JSON object per line, keys in agy's order: `step_index`, `source`,
 * `type`, `status`, `created_at` (RFC 3339, whole seconds), then `content`,
 * `thinking`, `tool_calls` [{name, args}] when present. The compact file
 * JSON-encodes each argument value as a string. Observed in the samples and
 * reproduced here: user prompts are wrapped in `<USER_REQUEST>` and
 * `<ADDITIONAL_METADATA>`, GENERIC results are headed by `Created At` /
 * `Completed At` lines, and steps whose status is ERROR are not logged.
 */

import type { Json, JsonObject } from "../../common.js";
import { assignDefined } from "../../json.js";
import { formatTimestamp } from "../../time.js";
import type { StepRow } from "./body.js";
import { decodeStep, isBlank, parseBounded, stepPayload, userInputText } from "./decode.js";
import {
  BookkeepingText,
  ChatToolCall,
  CommandOutput,
  CortexStepGeneric,
  CortexStepGrepSearch,
  CortexStepMcpTool,
  CortexStepMetadata,
  CortexStepPlannerResponse,
  CortexStepRunCommand,
  CortexStepViewFile,
  GenericResult,
  SOURCE_NAMES,
  STATUS_NAMES,
  STEP_TYPE_NAMES,
  StepStatus,
  StepType,
} from "./schema.js";

export interface Mirror {
  /** `transcript_full.jsonl`. */
  full: string;
  /** `transcript.jsonl`. */
  compact: string;
}

/** RFC 3339 in whole seconds, as the mirror writes times. */
function seconds(t: { seconds: number; nanos: number } | undefined): string | undefined {
  return t && formatTimestamp({ seconds: t.seconds, nanos: 0 });
}

function defaultSource(type: number): number {
  switch (type) {
    case StepType.USER_INPUT:
      return 4;
    case StepType.SYSTEM_MESSAGE:
    case StepType.EPHEMERAL_MESSAGE:
    case StepType.CONVERSATION_HISTORY:
    case StepType.CHECKPOINT:
      return 5;
    default:
      return 2;
  }
}

/** Regenerate both mirror files from the steps (sorted by idx), whole. */
export function renderMirror(steps: readonly StepRow[]): Mirror {
  return {
    full: mirrorFile(steps, "full").join(""),
    compact: mirrorFile(steps, "compact").join(""),
  };
}

/**
 * One mirror file made from the steps (sorted by idx) a line at a time,
 * anew on each iteration: what fromCommon gives the store to write, so that
 * the file is never held whole. `join("")` is the whole file.
 */
export function mirrorFile(steps: readonly StepRow[], which: keyof Mirror): MirrorFile {
  return new MirrorFile(steps, which);
}

class MirrorFile implements Iterable<string> {
  private readonly steps: readonly StepRow[];
  private readonly which: keyof Mirror;

  constructor(steps: readonly StepRow[], which: keyof Mirror) {
    this.steps = steps;
    this.which = which;
  }

  *[Symbol.iterator](): Iterator<string> {
    for (const row of [...this.steps].sort((a, b) => a.idx - b.idx)) {
      if (row.status === StepStatus.ERROR) continue;
      const { head, calls } = mirrorLine(row);
      yield lineOf(JSON.stringify(head), calls, this.which);
    }
  }

  join(separator: string): string {
    return [...this].join(separator);
  }
}

/** One step's line of each mirror file; none for a step agy does not log (ERROR). */
export function mirrorLines(
  row: StepRow,
): { transcript: string; transcript_full: string } | undefined {
  if (row.status === StepStatus.ERROR) return undefined;
  const { head, calls } = mirrorLine(row);
  const base = JSON.stringify(head);
  return {
    transcript: lineOf(base, calls, "compact"),
    transcript_full: lineOf(base, calls, "full"),
  };
}

/** A line of one file: the head (`base`, its JSON), then `tool_calls`, the last key. */
function lineOf(base: string, calls: readonly MirrorCall[], which: keyof Mirror): string {
  if (calls.length === 0) return `${base}\n`;
  const shown =
    which === "full" ? calls : calls.map(({ name, args }) => ({ name, args: stringValues(args) }));
  return `${base.slice(0, -1)},"tool_calls":${JSON.stringify(shown)}}\n`;
}

interface MirrorCall {
  name: string;
  args: Json;
}

function mirrorLine(row: StepRow): { head: JsonObject; calls: MirrorCall[] } {
  const d = decodeStep(row);
  const created = seconds(d.meta.timestamp(CortexStepMetadata.created_at));
  const source = d.meta.uint(CortexStepMetadata.source) ?? defaultSource(row.step_type);
  const head: JsonObject = {
    step_index: row.idx,
    source: SOURCE_NAMES.get(source) ?? `SOURCE_${source}`,
    type: STEP_TYPE_NAMES.get(row.step_type) ?? `STEP_TYPE_${row.step_type}`,
    status: STATUS_NAMES.get(row.status) ?? `STATUS_${row.status}`,
  };
  assignDefined(head, "created_at", created);
  const p = stepPayload(d);
  let calls: MirrorCall[] = [];
  switch (row.step_type) {
    case StepType.USER_INPUT: {
      const text = userInputText(p);
      if (text !== undefined) {
        let content = `<USER_REQUEST>\n${text}\n</USER_REQUEST>`;
        if (created !== undefined) {
          content += `\n<ADDITIONAL_METADATA>\nThe current local time is: ${created}.\n</ADDITIONAL_METADATA>`;
        }
        head.content = content;
      }
      break;
    }
    case StepType.PLANNER_RESPONSE: {
      const response =
        p.string(CortexStepPlannerResponse.response) ??
        p.string(CortexStepPlannerResponse.modified_response);
      if (!isBlank(response)) head.content = response;
      const thinking = p.string(CortexStepPlannerResponse.thinking);
      if (!isBlank(thinking)) head.thinking = thinking;
      calls = p.messages(CortexStepPlannerResponse.tool_calls).map((call) => {
        const text = call.string(ChatToolCall.arguments_json) ?? "{}";
        const parsed = parseBounded(text);
        return { name: call.string(ChatToolCall.name) ?? "", args: parsed ? parsed.value : text };
      });
      break;
    }
    case StepType.GENERIC: {
      const result = p.message(CortexStepGeneric.result)?.string(GenericResult.result);
      const completed = seconds(d.meta.timestamp(CortexStepMetadata.completed_at));
      let content = created === undefined ? "" : `Created At: ${created}\n`;
      if (completed !== undefined) content += `Completed At: ${completed}\n`;
      content += result ?? "";
      if (content !== "") head.content = content;
      break;
    }
    case StepType.RUN_COMMAND: {
      const out = p.message(CortexStepRunCommand.combined_output)?.string(CommandOutput.full);
      const text = out ?? p.string(CortexStepRunCommand.output);
      if (text) head.content = text;
      break;
    }
    case StepType.VIEW_FILE: {
      const text = p.string(CortexStepViewFile.content) ?? p.string(CortexStepViewFile.raw_content);
      if (text) head.content = text;
      break;
    }
    case StepType.GREP_SEARCH: {
      const text =
        p.string(CortexStepGrepSearch.grep_error) || p.string(CortexStepGrepSearch.raw_output);
      if (text) head.content = text;
      break;
    }
    case StepType.MCP_TOOL: {
      const text = p.string(CortexStepMcpTool.result_string);
      if (text) head.content = text;
      break;
    }
    case StepType.SYSTEM_MESSAGE:
    case StepType.EPHEMERAL_MESSAGE:
    case StepType.CONVERSATION_HISTORY: {
      const text = p.string(BookkeepingText.message);
      if (text) head.content = text;
      break;
    }
    default:
      break;
  }
  return { head, calls };
}

/** The compact mirror's argument form: every value JSON-encoded as a string. */
function stringValues(args: Json): Json {
  if (typeof args !== "object" || args === null || Array.isArray(args)) return args;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(args)) out[k] = JSON.stringify(v);
  return out;
}
