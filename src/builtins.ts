/**
 * Node built-ins that only some commands use, loaded at their first use
 * rather than when the module naming them loads. Loading `node:crypto`,
 * `node:zlib` or `node:child_process` costs a few milliseconds each at
 * start-up (child_process pulls in net, dgram and streams), and a warm
 * `list` uses none of them (bench/list.bench.ts).
 */

import { createRequire } from "node:module";

let required: NodeJS.Require | undefined;

/** A built-in by name; the `require` that loads it is made on first use too. */
function load(name: string) {
  required ??= createRequire(import.meta.url);
  return required(name);
}

/** `node:crypto`, loaded on first call. */
export function crypto(): typeof import("node:crypto") {
  return load("node:crypto");
}

/** `node:zlib`, loaded on first call. */
export function zlib(): typeof import("node:zlib") {
  return load("node:zlib");
}

/** `node:child_process`, loaded on first call. */
export function childProcess(): typeof import("node:child_process") {
  return load("node:child_process");
}
