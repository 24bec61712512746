/**
 * A session's message times are parsed once for its chunks and its usage
 * rows (`messageTimes`): both then carry the same times as when each
 * parsed them itself, a time that does not parse being the session's last
 * activity.
 */

import { describe, expect, it } from "vitest";
import type { Message } from "../../src/common.js";
import { chunksOf, messageTimes, usageRowsOf } from "../../src/index/text.js";
import type { Common, Transcript } from "../../src/transcript.js";

const UPDATED = Date.UTC(2026, 11, 7, 12);

function message(role: Message["role"], text: string, timestamp: string): Message {
  return {
    role,
    content: [{ type: "text", text }],
    timestamp,
    ...(role === "assistant" ? { model: "m", usage: { input_tokens: 3, output_tokens: 4 } } : {}),
  };
}

const transcript: Transcript<Common> = {
  meta: { id: "s", timestamp: "2026-12-07T10:00:00Z", cwd: "/work" },
  body: [
    message("user", "first prompt", "2026-12-07T10:00:00.123Z"),
    message("assistant", "an answer", "not a time"),
    message("user", "second prompt", "2026-12-07T10:05:00+02:00"),
    message("assistant", "another answer", "2026-12-07T10:06:00.5Z"),
  ],
};

describe("messageTimes", () => {
  it("gives each message's time in ms, the session's last activity where it does not parse", () => {
    expect(messageTimes(transcript, UPDATED)).toEqual([
      Date.UTC(2026, 11, 7, 10, 0, 0, 123),
      UPDATED,
      Date.UTC(2026, 11, 7, 8, 5),
      Date.UTC(2026, 11, 7, 10, 6, 0, 500),
    ]);
  });

  it("gives chunks and usage rows the times each finds on its own", () => {
    const times = messageTimes(transcript, UPDATED);
    const chunks = chunksOf(transcript, UPDATED, times);
    expect(chunks).toEqual(chunksOf(transcript, UPDATED));
    expect(chunks.filter((c) => c.ordinal > 0).map((c) => c.at)).toEqual(times);
    const rows = usageRowsOf(transcript, UPDATED, times);
    expect(rows).toEqual(usageRowsOf(transcript, UPDATED));
    expect(rows.map((r) => r.at)).toEqual([UPDATED, Date.UTC(2026, 11, 7, 10, 6, 0, 500)]);
  });
});
