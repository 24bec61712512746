/**
 * OpenCode's identifiers, and deterministic ones that sort as OpenCode's do.
 *
 * OpenCode's id is `<prefix>_` + 12 hex digits of (ms × 4096 + counter),
 * bit-inverted for descending ids, + 14 base62 characters
 * (`packages/opencode/src/id/id.ts`). Message and part ids ascend (OpenCode
 * orders parts by id and breaks message-time ties by id); session ids
 * descend. txcript mints the 12 hex digits the same way from a session's
 * own timestamps and a counter that only grows, and the 14 characters from
 * a hash of stable keys, so `fromCommon` stays deterministic and every id
 * it writes sorts after the one before and before anything OpenCode
 * appends later (see AscendingIds for why the clock starts at the history).
 */

import { createHash } from "node:crypto";

const PREFIX = { session: "ses", message: "msg", part: "prt" } as const;

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const RANDOM_LENGTH = 14;
/** 48 bits: what 12 hex digits hold. */
const MASK = (1n << 48n) - 1n;

/** `ses_…`, `msg_…`, `prt_…`: OpenCode's shape (prefix, 12 hex, 14 base62). */
const ID = /^(ses|msg|prt)_[0-9a-f]{12}[0-9A-Za-z]{14}$/;

export function isOpenCodeId(id: string, prefix?: "ses" | "msg" | "prt"): boolean {
  return ID.test(id) && (prefix === undefined || id.startsWith(`${prefix}_`));
}

/** 14 base62 characters from a hash of `keys` (stands in for OpenCode's random tail). */
export function tail(keys: readonly (string | number)[]): string {
  const digest = createHash("sha256").update(JSON.stringify(keys)).digest();
  let out = "";
  for (let i = 0; i < RANDOM_LENGTH; i++) out += BASE62[(digest[i] ?? 0) % 62];
  return out;
}

function hex12(value: bigint): string {
  return (value & MASK).toString(16).padStart(12, "0");
}

/** The ascending value OpenCode would give the first id minted at `ms`. */
function stamp(ms: number): bigint {
  // OpenCode keeps only the low 48 bits (its ids wrap every ~2.2 years); so does hex12.
  return BigInt(Math.max(0, Math.trunc(ms))) * 4096n + 1n;
}

/** A session id for a session started at `ms`: descending, as OpenCode's are. */
export function sessionId(ms: number, keys: readonly (string | number)[]): string {
  return `${PREFIX.session}_${hex12(~stamp(ms))}${tail(keys)}`;
}

/**
 * Mints ascending message and part ids. A message and its parts take a run
 * of consecutive values starting at the larger of the moment's
 * ((ms − the first message's ms) × 4096 + 1) and one past the previous run,
 * so values only grow even when timestamps repeat or go backwards. The
 * clock starts at the history's first message, not at 1970: OpenCode keeps
 * 48 bits, which last wrapped on 2026-08-14, and a history minted from its
 * own older times would sort above every id the CLI appends after the wrap
 * (Kilo 7.7.7 then sends the model only the new prompt; docs/formats/kilo.md).
 * Started at zero, the history sorts below any id minted later than its own
 * span after a wrap. A run that would cross 48 bits moves to the next
 * window, so that a message's part ids, which OpenCode orders by id, always
 * ascend.
 */
export class AscendingIds {
  private next = 0n;
  private origin: number | undefined;
  constructor(private readonly keys: readonly (string | number)[]) {}

  /** The first of `count` consecutive values for a message at `ms`. */
  reserve(ms: number, count: number): bigint {
    this.origin ??= Math.max(0, Math.trunc(ms));
    let base = stamp(Math.max(0, ms - this.origin));
    if (base < this.next) base = this.next;
    if ((base & MASK) + BigInt(count) > MASK) base = (base | MASK) + 1n;
    this.next = base + BigInt(count);
    return base;
  }

  id(prefix: "msg" | "prt", value: bigint, key: string | number): string {
    return `${prefix}_${hex12(value)}${tail([...this.keys, prefix, key])}`;
  }
}

/** The stable keys an OpenCode session id is derived from, for a non-OpenCode id. */
export function sessionKeys(sourceId: string): (string | number)[] {
  return ["opencode-session", sourceId];
}
