/**
 * The JSON record of one listed session: what `list --json`, `query --json`
 * and MCP's `list_sessions` print for it (docs/cli.md documents the fields).
 * One builder, so the CLI and the MCP server cannot drift apart.
 */

import type { Discovered, HarnessId, TextForm } from "./transcript.js";

export interface SessionRecord {
  id: string;
  harness: HarnessId;
  created: string;
  updated: string;
  message_count: number;
  title: string | null;
  cwd: string | null;
  git_branch: string | null;
  model: string | null;
  path: string;
  lane: string | null;
  status: string | null;
  running: boolean;
  parent_id: string | null;
  forked_from: string | null;
  forked_from_harness: TextForm | null;
}

/** A listed session as its JSON record: absent fields are null, never missing. */
export function sessionRecord(s: Discovered): SessionRecord {
  return {
    id: s.id,
    harness: s.harness,
    created: s.meta.timestamp,
    updated: s.updated,
    message_count: s.message_count,
    title: s.meta.title ?? null,
    cwd: s.meta.cwd ?? null,
    git_branch: s.meta.git_branch ?? null,
    model: s.meta.model ?? null,
    path: s.path,
    lane: s.lane ?? null,
    status: s.status ?? null,
    running: s.running === true,
    parent_id: s.parent_id ?? null,
    forked_from: s.forked_from ?? null,
    forked_from_harness: s.forked_from_harness ?? null,
  };
}
