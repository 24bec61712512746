/**
 * Node built-ins that only some commands use, loaded at their first use
 * rather than when the module naming them loads. Loading `node:crypto`,
 * `node:zlib` or `node:child_process` costs a few milliseconds each at
 * start-up (child_process pulls in net, dgram and streams), and a warm
 * `list` uses none of them (bench/list.bench.ts). `process.getBuiltinModule`
 * (Node 20.16) returns each typed, with no `require` to cast.
 */

/** `node:crypto`, loaded on first call. */
export function crypto(): typeof import("node:crypto") {
  return process.getBuiltinModule("node:crypto");
}

/** `node:zlib`, loaded on first call. */
export function zlib(): typeof import("node:zlib") {
  return process.getBuiltinModule("node:zlib");
}

/** `node:child_process`, loaded on first call. */
export function childProcess(): typeof import("node:child_process") {
  return process.getBuiltinModule("node:child_process");
}
