/**
 * txcript pick (and `query` on a terminal with no terms): an interactive
 * picker. Typing filters the sessions fuzzily over title, cwd and id
 * (fuzzysort), with full-text hits from the index below them; arrows move,
 * Enter chooses; then view it or continue it into a harness. The prompts
 * are @inquirer/search and @inquirer/select; the chosen action runs as a
 * child txcript so it behaves exactly as the command typed by hand.
 */

import { spawnSync } from "node:child_process";
import search, { Separator } from "@inquirer/search";
import select from "@inquirer/select";
import type { Command } from "commander";
import fuzzysort from "fuzzysort";
import { storedHarnesses } from "../../harness/index.js";
import { shortener } from "../../id-forms.js";
import type { Hit } from "../../index/index.js";
import { defined } from "../../json.js";
import type { Sessions } from "../../sessions/sessions.js";
import { type Discovered, type HarnessId, STORED_HARNESS_IDS } from "../../transcript.js";
import { cacheFlag } from "../cache.js";
import { fitWidth } from "../columns.js";
import { UsageError } from "../errors.js";
import { harnessCell, tildify, titleCell } from "../list-table.js";
import { parseHarness } from "../options.js";
import { Progress } from "../output.js";
import { rootFlag, rootsFrom } from "../roots.js";
import { sessionsFor } from "../sessions.js";

interface Target {
  id: string;
  harness: HarnessId;
  /** A message ordinal from a full-text hit. */
  ordinal?: number;
}

function label(s: Discovered, short: (id: string) => string, columns: number): string {
  const title = titleCell(s);
  const cwd = s.meta.cwd ? tildify(s.meta.cwd) : "-";
  return fitWidth(`${short(s.id)}  ${harnessCell(s).padEnd(11)}  ${title}  ·  ${cwd}`, columns - 4);
}

/** The choices for what has been typed: fuzzy session matches, then full-text hits. */
export async function choices(
  service: Sessions,
  sessions: readonly Discovered[],
  term: string,
  columns: number,
) {
  const out: ({ name: string; value: Target; description?: string } | Separator)[] = [];
  const key = (s: Discovered) => `${s.meta.title ?? ""} ${s.meta.cwd ?? ""} ${s.id}`;
  const matched =
    term.trim() === ""
      ? sessions.slice(0, 200)
      : fuzzysort.go(term, sessions, { key, limit: 50, threshold: 0.3 }).map((r) => r.obj);
  // Ids as short as they stay apart among all the sessions offered, so the
  // one a person reads off the picker opens with `view`.
  const short = shortener(sessions.map((s) => s.id));
  for (const s of matched)
    out.push({ name: label(s, short, columns), value: { id: s.id, harness: s.harness } });
  if (term.trim().length >= 2) {
    let hits: readonly Hit[] = [];
    try {
      // The word being typed is a prefix: "readin" finds "readiness". The
      // index is fresh (the picker refreshed it with text before it opened).
      const found = await service.query(/[\p{L}\p{N}]$/u.test(term) ? `${term}*` : term, {
        limit: 20,
      });
      hits = found.hits;
    } catch {
      hits = []; // half-typed input (a lone quote, a dash): no full-text hits yet
    }
    if (hits.length > 0) out.push(new Separator("── in the messages ──"));
    for (const h of hits) {
      const where = h.ordinal > 0 ? `#${h.ordinal} ${h.kind}` : h.kind;
      out.push({
        name: fitWidth(`${short(h.session.id)}  ${where}: ${h.snippet}`, columns - 4),
        value: { id: h.session.id, harness: h.session.harness, ordinal: h.ordinal },
      });
    }
  }
  return out;
}

/** The global flags a child txcript needs to see the same stores and index. */
function globalArgs(command: Command): string[] {
  const args: string[] = [];
  const roots = rootsFrom(command);
  for (const id of STORED_HARNESS_IDS) {
    const dir = roots[id];
    if (dir !== undefined) args.push(`--${rootFlag(id)}`, dir);
  }
  const cache = cacheFlag(command);
  if (cache === null) args.push("--no-cache");
  else if (typeof cache === "string") args.push("--cache", cache);
  return args;
}

export async function pick(command: Command, from?: HarnessId): Promise<void> {
  if (!process.stdin.isTTY || !process.stdout.isTTY)
    throw new UsageError("the picker needs a terminal; use txcript query <terms> or txcript list");
  const service = sessionsFor(command);
  let target: Target;
  try {
    const progress = new Progress();
    let sessions: Discovered[];
    try {
      const onProgress = (what: string, done: number, total: number) =>
        progress.update(`${what}: ${done}/${total}`);
      // The text too, before the prompt draws: typing then searches a fresh index.
      await service.refresh({ ...defined({ from }), text: true, onProgress });
      sessions = (await service.list(from ? { from } : {})).sessions;
    } finally {
      progress.done();
    }
    if (sessions.length === 0) {
      process.stderr.write("no sessions found\n");
      return;
    }
    const columns = process.stdout.columns || 80;
    target = await search<Target>({
      message: "Find a session (type to filter, arrows to move, Enter to choose)",
      // Answered on a later turn of the event loop: results that arrive in the
      // same turn as the keypress leave the prompt's Enter handler one render behind.
      source: async (term) => {
        await new Promise((done) => setImmediate(done));
        return choices(service, sessions, term ?? "", columns);
      },
      pageSize: Math.max(5, Math.min(20, (process.stdout.rows || 24) - 4)),
    });
  } catch (error) {
    if (error instanceof Error && error.name === "ExitPromptError") return; // Ctrl-C
    throw error;
  } finally {
    service.close();
  }
  const ref = target.ordinal ? `${target.id}#${target.ordinal}` : target.id;
  let action: string;
  try {
    action = await select<string>({
      message: `${ref} (${target.harness})`,
      choices: [
        { name: "view", value: "view" },
        ...storedHarnesses().map((h) => ({
          name: `continue in ${h.label}`,
          value: h.id,
        })),
        { name: "cancel", value: "cancel" },
      ],
    });
  } catch (error) {
    if (error instanceof Error && error.name === "ExitPromptError") return;
    throw error;
  }
  if (action === "cancel") return;
  const argv =
    action === "view"
      ? ["view", ref, "--from", target.harness]
      : ["continue", target.id, "--from", target.harness, "--with", action];
  // This same txcript, started again as it was (node and its script).
  const [, script] = process.argv;
  if (script === undefined)
    throw new UsageError("cannot start txcript again: its script is unknown");
  const r = spawnSync(process.execPath, [script, ...globalArgs(command), ...argv], {
    stdio: "inherit",
  });
  if (typeof r.status === "number" && r.status !== 0) process.exitCode = r.status;
}

export function register(program: Command): void {
  program
    .command("pick")
    .description("pick a session interactively: type to filter, Enter to view or continue it")
    .option("--from <harness>", "only this harness", parseHarness)
    .action(async (options: { from?: HarnessId }, command: Command) => {
      await pick(command, options.from);
    });
}
