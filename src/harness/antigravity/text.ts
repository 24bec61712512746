/**
 * The Antigravity text form: the JSON dump of a conversation database with
 * every blob as lowercase hex, in the keys and key order txcript uses, so
 * that documents move between the two tools (spec/antigravity-wire.md, "Text
 * form"). What txcript's form cannot say rides extra keys prefixed `x_`,
 * placed after txcript's and omitted when they would say nothing:
 *
 * - `x_id`: the Body id (the db stem) when it differs from the cascade id;
 * - `x_empty` (per step row): optional blob columns holding an empty, not
 *   NULL, blob (txcript omits empty optional blobs; an omitted one reads as NULL);
 * - `x_lane`, `x_acp_meta`: the writer lane and the ACP `<id>.meta` sidecar;
 * - `x_annotation`: `annotations/<id>.pbtxt`, agy's picker title;
 * - `x_extra_tables`: tables a later agy added, rows verbatim
 *   (cells: null, number, string, `{"blob": hex}`, `{"int": "<decimal>"}`).
 *
 * Parsing checks every value and names the row and column of a problem
 * (`steps[12].step_payload: odd-length hex`); unknown keys are ignored.
 */

import { stableUuid } from "../../ids.js";
import { assignDefined, Checker, joinPath, parseJson } from "../../json.js";
import { decode } from "../../protobuf.js";
import { firstKey, SQLITE_MAGIC, startsWithBytes } from "../../sniff.js";
import type { Recognized, Sample, TextCodec, Transcript } from "../../transcript.js";
import type {
  AntigravityBody,
  AntigravityLane,
  ExtraTable,
  GenMetadataRow,
  IdxBlobRow,
  MetadataBlobRow,
  SqlValue,
  StepRow,
  TrajectoryMetaRow,
} from "./body.js";
import { antigravityMeta } from "./codec.js";
import { CortexTrajectoryMetadata, MAIN_BLOB_ID } from "./schema.js";

const OPTIONAL_BLOBS = ["error_details", "permissions", "task_details", "render_info"] as const;
type OptionalBlob = (typeof OPTIONAL_BLOBS)[number];
const isOptionalBlob = (key: unknown): key is OptionalBlob =>
  OPTIONAL_BLOBS.some((name) => name === key);

// ---------------------------------------------------------------------------
// Render

function hex(bytes: Uint8Array | null): string | null {
  if (bytes === null) return null;
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
}

/** The id the rows themselves give: the cascade id, else the main blob's conversation id. */
function rowsId(body: Pick<AntigravityBody, "trajectory_meta" | "trajectory_metadata_blob">) {
  const cascade = body.trajectory_meta[0]?.cascade_id;
  if (cascade) return cascade;
  const main = body.trajectory_metadata_blob.find((r) => r.id === MAIN_BLOB_ID);
  const id = decode(main?.data).string(CortexTrajectoryMetadata.conversation_id);
  return id || undefined;
}

function stepJson(row: StepRow): Record<string, unknown> {
  const out: Record<string, unknown> = {
    idx: row.idx,
    step_type: row.step_type,
    status: row.status,
  };
  if (row.has_subtrajectory) out.has_subtrajectory = true;
  out.metadata = hex(row.metadata);
  const empty: OptionalBlob[] = [];
  for (const key of OPTIONAL_BLOBS) {
    const value = row[key];
    if (value === null) continue;
    if (value.length === 0) empty.push(key);
    else out[key] = hex(value);
  }
  out.step_payload = hex(row.step_payload);
  out.step_format = row.step_format;
  if (empty.length > 0) out.x_empty = empty;
  return out;
}

function cellJson(cell: SqlValue): unknown {
  if (typeof cell === "bigint") return { int: cell.toString() };
  if (cell instanceof Uint8Array) return { blob: hex(cell) };
  return cell;
}

export function renderAntigravity(transcript: Transcript<AntigravityBody>): string {
  const b = transcript.body;
  const doc: Record<string, unknown> = {
    trajectory_meta: b.trajectory_meta.map((r) => ({
      trajectory_id: r.trajectory_id,
      cascade_id: r.cascade_id,
      trajectory_type: r.trajectory_type,
      source: r.source,
    })),
    steps: b.steps.map(stepJson),
  };
  if (b.gen_metadata.length > 0) {
    doc.gen_metadata = b.gen_metadata.map((r) => ({ idx: r.idx, data: hex(r.data), size: r.size }));
  }
  for (const key of ["executor_metadata", "parent_references", "battle_mode_infos"] as const) {
    if (b[key].length > 0) doc[key] = b[key].map((r) => ({ idx: r.idx, data: hex(r.data) }));
  }
  if (b.trajectory_metadata_blob.length > 0) {
    doc.trajectory_metadata_blob = b.trajectory_metadata_blob.map((r) => ({
      id: r.id,
      data: hex(r.data),
    }));
  }
  const mirror = (pieces: Iterable<string> | undefined) =>
    pieces === undefined ? undefined : [...pieces].join("");
  assignDefined(doc, "transcript", b.transcript ?? mirror(b.mirror?.transcript));
  assignDefined(doc, "transcript_full", b.transcript_full ?? mirror(b.mirror?.transcript_full));
  if (b.id !== rowsId(b)) doc.x_id = b.id;
  assignDefined(doc, "x_lane", b.lane);
  assignDefined(doc, "x_acp_meta", b.acp_meta);
  assignDefined(doc, "x_annotation", b.annotation);
  if (b.extra_tables.length > 0) {
    doc.x_extra_tables = b.extra_tables.map((t) => ({
      name: t.name,
      sql: t.sql,
      columns: t.columns,
      rows: t.rows.map((row) => row.map(cellJson)),
    }));
  }
  return `${JSON.stringify(doc, null, 2)}\n`;
}

// ---------------------------------------------------------------------------
// Parse

const HEX = /^[0-9a-fA-F]*$/;

class Reader extends Checker {
  int(value: unknown, at: string): number {
    if (typeof value !== "number" || !Number.isSafeInteger(value)) {
      return this.expected(at, "an integer", value);
    }
    return value;
  }

  nullableInt(value: unknown, at: string): number | null {
    return value === null ? null : this.int(value, at);
  }

  blob(value: unknown, at: string): Uint8Array {
    const text = this.string(value, at);
    if (text.length % 2 !== 0) this.fail(at, "odd-length hex");
    if (!HEX.test(text)) {
      const i = text.search(/[^0-9a-fA-F]/);
      this.fail(at, `invalid hex digit ${JSON.stringify(text[i])} at offset ${i}`);
    }
    return new Uint8Array(Buffer.from(text, "hex"));
  }

  nullableBlob(value: unknown, at: string): Uint8Array | null {
    return value === null ? null : this.blob(value, at);
  }

  /** A key that must be present but may be null. */
  present<T>(
    obj: Record<string, unknown>,
    key: string,
    at: string,
    what: string,
    read: (value: unknown, at: string) => T,
  ): T {
    if (!(key in obj)) this.fail(at, `${what} needs "${key}"`);
    return read(obj[key], joinPath(at, key));
  }

  rows<T>(
    doc: Record<string, unknown>,
    key: string,
    required: boolean,
    read: (row: Record<string, unknown>, at: string) => T,
  ): T[] {
    const value = doc[key];
    if (value === undefined || value === null) {
      if (required) this.fail("", `an Antigravity document needs "${key}"`);
      return [];
    }
    return this.array(value, key).map((row, i) => {
      const at = joinPath(key, i);
      return read(this.object(row, at), at);
    });
  }

  unique<T>(rows: T[], key: (row: T) => string | number, table: string, column: string): void {
    const seen = new Set<string | number>();
    rows.forEach((row, i) => {
      const k = key(row);
      if (seen.has(k)) {
        this.fail(joinPath(joinPath(table, i), column), `${JSON.stringify(k)} is used twice`);
      }
      seen.add(k);
    });
  }
}

export function parseAntigravity(text: string, origin?: string): Transcript<AntigravityBody> {
  const c = new Reader("antigravity", origin);
  const doc = c.object(parseJson(text, "antigravity", origin), "");
  const int = (v: unknown, p: string) => c.int(v, p);
  const nint = (v: unknown, p: string) => c.nullableInt(v, p);
  const str = (v: unknown, p: string) => c.string(v, p);
  const nstr = (v: unknown, p: string) => (v === null ? null : c.string(v, p));
  const blob = (v: unknown, p: string) => c.nullableBlob(v, p);

  const trajectoryMeta = c.rows(
    doc,
    "trajectory_meta",
    true,
    (r, at): TrajectoryMetaRow => ({
      trajectory_id: c.required(r, "trajectory_id", at, "a trajectory_meta row", str),
      cascade_id: c.present(r, "cascade_id", at, "a trajectory_meta row", nstr),
      trajectory_type: c.present(r, "trajectory_type", at, "a trajectory_meta row", nint),
      source: c.present(r, "source", at, "a trajectory_meta row", nint),
    }),
  );
  c.unique(trajectoryMeta, (r) => r.trajectory_id, "trajectory_meta", "trajectory_id");

  const steps = c.rows(doc, "steps", true, (r, at): StepRow => {
    const what = "a steps row";
    const row: StepRow = {
      idx: c.required(r, "idx", at, what, int),
      step_type: c.required(r, "step_type", at, what, int),
      status: c.required(r, "status", at, what, int),
      has_subtrajectory: c.optional(r, "has_subtrajectory", at, (v, p) => c.boolean(v, p)) ?? false,
      metadata: c.present(r, "metadata", at, what, blob),
      error_details: null,
      permissions: null,
      task_details: null,
      render_info: null,
      step_payload: c.present(r, "step_payload", at, what, blob),
      step_format: c.optional(r, "step_format", at, int) ?? 0,
    };
    for (const key of OPTIONAL_BLOBS) row[key] = c.optional(r, key, at, blob) ?? null;
    const empties = c.optional(r, "x_empty", at, (v, p) => c.array(v, p)) ?? [];
    empties.forEach((key, i) => {
      const p = joinPath(joinPath(at, "x_empty"), i);
      const column = isOptionalBlob(key)
        ? key
        : c.expected(p, `one of ${OPTIONAL_BLOBS.join(", ")}`, key);
      if (row[column] !== null) c.fail(p, `"${column}" is listed as empty but holds data`);
      row[column] = new Uint8Array(0);
    });
    return row;
  });
  c.unique(steps, (r) => r.idx, "steps", "idx");

  const genMetadata = c.rows(
    doc,
    "gen_metadata",
    false,
    (r, at): GenMetadataRow => ({
      idx: c.required(r, "idx", at, "a gen_metadata row", int),
      data: c.present(r, "data", at, "a gen_metadata row", blob),
      size: c.optional(r, "size", at, int) ?? 0,
    }),
  );
  c.unique(genMetadata, (r) => r.idx, "gen_metadata", "idx");
  const idxTable = (key: string): IdxBlobRow[] => {
    const rows = c.rows(doc, key, false, (r, at) => ({
      idx: c.required(r, "idx", at, `a ${key} row`, int),
      data: c.present(r, "data", at, `a ${key} row`, blob),
    }));
    c.unique(rows, (r) => r.idx, key, "idx");
    return rows;
  };
  const executor = idxTable("executor_metadata");
  const parents = idxTable("parent_references");
  const battles = idxTable("battle_mode_infos");
  const blobs = c.rows(
    doc,
    "trajectory_metadata_blob",
    false,
    (r, at): MetadataBlobRow => ({
      id: c.required(r, "id", at, "a trajectory_metadata_blob row", str),
      data: c.present(r, "data", at, "a trajectory_metadata_blob row", blob),
    }),
  );
  c.unique(blobs, (r) => r.id, "trajectory_metadata_blob", "id");

  const extra = c.rows(doc, "x_extra_tables", false, (r, at): ExtraTable => {
    const columns = c.required(r, "columns", at, "an extra table", (v, p) =>
      c.array(v, p).map((col, i) => c.string(col, joinPath(p, i))),
    );
    return {
      name: c.required(r, "name", at, "an extra table", str),
      sql: c.required(r, "sql", at, "an extra table", str),
      columns,
      rows: c.required(r, "rows", at, "an extra table", (v, p) =>
        c.array(v, p).map((row, i) => {
          const rowAt = joinPath(p, i);
          const cells = c.array(row, rowAt);
          if (cells.length !== columns.length) {
            c.fail(rowAt, `has ${cells.length} cells for ${columns.length} columns`);
          }
          return cells.map((cell, j) => readCell(c, cell, joinPath(rowAt, j)));
        }),
      ),
    };
  });

  const body: AntigravityBody = {
    id: "",
    trajectory_meta: trajectoryMeta,
    steps,
    gen_metadata: genMetadata,
    executor_metadata: executor,
    parent_references: parents,
    battle_mode_infos: battles,
    trajectory_metadata_blob: blobs,
    extra_tables: extra,
  };
  const transcript = c.optional(doc, "transcript", "", str);
  assignDefined(body, "transcript", transcript);
  const transcriptFull = c.optional(doc, "transcript_full", "", str);
  assignDefined(body, "transcript_full", transcriptFull);
  const lane = c.optional(doc, "x_lane", "", (v, p): AntigravityLane => {
    if (v !== "cli" && v !== "acp" && v !== "desktop" && v !== "ide")
      return c.expected(p, `"cli", "acp", "desktop" or "ide"`, v);
    return v;
  });
  assignDefined(body, "lane", lane);
  const acpMeta = c.optional(doc, "x_acp_meta", "", str);
  assignDefined(body, "acp_meta", acpMeta);
  const annotation = c.optional(doc, "x_annotation", "", str);
  assignDefined(body, "annotation", annotation);

  const explicitId = c.optional(doc, "x_id", "", str);
  if (explicitId === "") c.fail("x_id", "a conversation id cannot be empty");
  // No id anywhere: one derived from the document, so the same text gets the same id.
  body.id = explicitId ?? rowsId(body) ?? stableUuid("antigravity", text);
  return { meta: antigravityMeta(body), body };
}

function readCell(c: Reader, value: unknown, at: string): SqlValue {
  if (value === null || typeof value === "string") return value;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return c.expected(at, "a finite number", value);
    return value;
  }
  const obj = c.object(value, at);
  if (typeof obj.blob === "string") return c.blob(obj.blob, joinPath(at, "blob"));
  if (typeof obj.int === "string") {
    if (!/^-?\d{1,20}$/.test(obj.int))
      return c.expected(joinPath(at, "int"), "a decimal integer", obj.int);
    const n = BigInt(obj.int);
    if (n < -(2n ** 63n) || n >= 2n ** 63n) c.fail(joinPath(at, "int"), "outside the 64-bit range");
    return n;
  }
  return c.expected(at, `null, a number, a string, {"blob": hex} or {"int": "<decimal>"}`, value);
}

/** The tables the text form is keyed by: its first key is one of them. */
const TABLE_KEYS = new Set([
  "trajectory_meta",
  "steps",
  "gen_metadata",
  "executor_metadata",
  "parent_references",
  "trajectory_metadata_blob",
  "battle_mode_infos",
]);

/** A SQLite file is a conversation database for the store; a JSON object keyed by agy's tables is the text form. */
function detectAntigravity(sample: Sample): Recognized | undefined {
  if (startsWithBytes(sample, SQLITE_MAGIC)) return "store-file";
  const key = firstKey(sample);
  return key !== undefined && TABLE_KEYS.has(key) ? "text" : undefined;
}

export const antigravityText: TextCodec<AntigravityBody> = {
  parse: parseAntigravity,
  render: renderAntigravity,
  detect: detectAntigravity,
};
