/**
 * The MCP server's stdio transport: newline-delimited JSON-RPC frames in,
 * frames out. Owned here rather than taken from the SDK because a server
 * must outlive any one bad request: a frame over MAX_FRAME bytes is
 * skipped as it streams past (never buffered whole) and answered with an
 * error carrying its id; a frame that is not JSON, not JSON-RPC, or whose
 * params are neither an object nor an array gets the JSON-RPC error the
 * spec asks for (when it has an id) and a one-line note, never a dump.
 */

import type { Readable, Writable } from "node:stream";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { type JSONRPCMessage, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";

/** The largest request frame served, in bytes (64 MiB). Input limits advertised to clients stay below it. */
export const MAX_FRAME = 64 * 1024 * 1024;

type Id = string | number | null;

/**
 * Finds the top-level "id" of a JSON object fed in chunks, without keeping
 * the text: depth and string state, plus the key and value being read at
 * depth 1 (both short for an id).
 */
class IdScanner {
  private depth = 0;
  private inString = false;
  private escape = false;
  private key = "";
  private afterColon = false;
  private lastKey = "";
  private value = "";
  id: Id = null;
  private done = false;

  feed(bytes: Buffer): void {
    if (this.done) return;
    for (let i = 0; i < bytes.length; i++) {
      const c = bytes[i] ?? 0;
      const ch = String.fromCharCode(c);
      if (this.inString) {
        if (this.depth === 1 && this.key.length < 64) this.key += ch;
        if (this.escape) this.escape = false;
        else if (c === 0x5c) this.escape = true;
        else if (c === 0x22) {
          this.inString = false;
          if (this.depth === 1 && !this.afterColon) this.lastKey = this.key.slice(0, -1);
          if (this.depth === 1 && this.afterColon && this.lastKey === "id") {
            this.value = `"${this.key}`;
            this.finish();
          }
        }
        continue;
      }
      if (c === 0x22) {
        this.inString = true;
        this.key = "";
      } else if (c === 0x7b || c === 0x5b) this.depth++;
      else if (c === 0x7d || c === 0x5d) {
        if (this.depth === 1 && this.afterColon && this.lastKey === "id") this.finish();
        this.depth--;
      } else if (this.depth === 1 && c === 0x3a) {
        this.afterColon = true;
        this.value = "";
      } else if (this.depth === 1 && c === 0x2c) {
        if (this.afterColon && this.lastKey === "id") this.finish();
        this.afterColon = false;
        this.lastKey = "";
      } else if (this.depth === 1 && this.afterColon && this.lastKey === "id" && c > 0x20) {
        if (this.value.length < 64) this.value += ch;
      }
      if (this.done) return;
    }
  }

  private finish(): void {
    this.done = true;
    try {
      const parsed: unknown = JSON.parse(this.value);
      if (typeof parsed === "string" || typeof parsed === "number") this.id = parsed;
    } catch {
      // Not an id JSON-RPC allows: answered with id null.
    }
  }
}

function errorFrame(id: Id, code: number, message: string): JSONRPCMessage {
  // The SDK's JSONRPCMessage type wants a non-null id; JSON-RPC 2.0 answers an undetectable id with null.
  return { jsonrpc: "2.0", id, error: { code, message } } as unknown as JSONRPCMessage;
}

function idOf(value: unknown): Id | undefined {
  if (typeof value !== "object" || value === null || !("id" in value)) return undefined;
  const id = value.id;
  return typeof id === "string" || typeof id === "number" ? id : undefined;
}

export interface FrameTransportOptions {
  /** Largest frame in bytes (tests lower it). */
  maxFrame?: number;
  /** One line per frame refused. */
  note?: (line: string) => void;
}

export class FrameTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly maxFrame: number;
  private readonly note: (line: string) => void;
  private chunks: Buffer[] = [];
  private size = 0;
  /** Set while an oversized frame streams past. */
  private skipping: IdScanner | null = null;
  private skipped = 0;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    options: FrameTransportOptions = {},
  ) {
    this.maxFrame = options.maxFrame ?? MAX_FRAME;
    this.note = options.note ?? (() => {});
  }

  private readonly onData = (chunk: Buffer): void => {
    let from = 0;
    while (from < chunk.length) {
      const nl = chunk.indexOf(0x0a, from);
      const end = nl === -1 ? chunk.length : nl;
      const piece = chunk.subarray(from, end);
      if (this.skipping) {
        this.skipping.feed(piece);
        this.skipped += piece.length;
      } else if (this.size + piece.length > this.maxFrame) {
        this.skipping = new IdScanner();
        for (const c of this.chunks) this.skipping.feed(c);
        this.skipping.feed(piece);
        this.skipped = this.size + piece.length;
        this.chunks = [];
        this.size = 0;
      } else {
        this.chunks.push(piece);
        this.size += piece.length;
      }
      if (nl === -1) break;
      this.endFrame();
      from = nl + 1;
    }
  };

  private endFrame(): void {
    if (this.skipping) {
      const id = this.skipping.id;
      this.skipping = null;
      this.note(`refused a request of ${this.skipped} bytes (over ${this.maxFrame})`);
      void this.send(
        errorFrame(id, -32600, `request too large: over ${this.maxFrame} bytes`),
      ).catch(() => {});
      return;
    }
    const line = Buffer.concat(this.chunks, this.size).toString("utf8").replace(/\r$/, "");
    this.chunks = [];
    this.size = 0;
    if (line.trim() === "") return;
    this.deliver(line);
  }

  private deliver(line: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      this.refuse(null, -32700, "parse error: the frame is not JSON");
      return;
    }
    const id = idOf(parsed);
    if (
      typeof parsed === "object" &&
      parsed !== null &&
      "params" in parsed &&
      (typeof parsed.params !== "object" || parsed.params === null)
    ) {
      this.refuse(id, -32600, "invalid request: params must be an object or an array");
      return;
    }
    const message = JSONRPCMessageSchema.safeParse(parsed);
    if (!message.success) {
      this.refuse(id, -32600, "invalid request: not a JSON-RPC 2.0 message");
      return;
    }
    this.onmessage?.(message.data);
  }

  /** A one-line note; an error answer when the frame was a request (it had an id). */
  private refuse(id: Id | undefined, code: number, message: string): void {
    this.note(`ignored a bad frame: ${message}`);
    if (id === undefined && code !== -32700) return;
    void this.send(errorFrame(id ?? null, code, message)).catch(() => {});
  }

  private readonly onError = (error: Error): void => {
    this.onerror?.(error);
  };

  async start(): Promise<void> {
    this.input.on("data", this.onData);
    this.input.on("error", this.onError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.output.once("drain", resolve);
    });
  }

  async close(): Promise<void> {
    this.input.off("data", this.onData);
    this.input.off("error", this.onError);
    if (this.input.listenerCount("data") === 0) this.input.pause();
    this.chunks = [];
    this.onclose?.();
  }
}
