/**
 * The light halves of the registry agree with the full one: the stored
 * harness ids and labels a command names without loading any harness, and
 * each store's probe (what the index checks before every command) has the
 * roots its store has and gives the same scan or stamp, on real stores.
 */

import { describe, expect, it } from "vitest";
import { allHarnesses, harness, openStore, storedHarnesses } from "../../src/harness/index.js";
import { probeStore } from "../../src/harness/probes.js";
import {
  HARNESS_IDS,
  HARNESS_LABELS,
  STORED_HARNESS_IDS,
  type StoreOptions,
} from "../../src/transcript.js";
import { transcript } from "../index/support.js";
import { createAmpThreads, everyKindThread as everyAmpThread } from "../support/amp.js";
import { createCrushProject, everyKindSessions as crushSessions } from "../support/crush.js";
import { createCursorChat, createCursorTranscript } from "../support/cursor.js";
import { createGooseDatabase, everyKindSession } from "../support/goose.js";
import { createGrokSessions } from "../support/grok.js";
import { createKiroSessions, everyKindSession as kiroSession } from "../support/kiro.js";
import { createOpenCodeDatabase } from "../support/opencode.js";
import { tempDir } from "../support/tmp.js";

describe("probes and the registry", () => {
  it("STORED_HARNESS_IDS are the harnesses with a store, in registry order; labels match", () => {
    expect([...STORED_HARNESS_IDS]).toEqual(storedHarnesses().map((h) => h.id));
    for (const h of allHarnesses()) expect(h.label).toBe(HARNESS_LABELS[h.id]);
    expect(Object.keys(HARNESS_LABELS).sort()).toEqual([...HARNESS_IDS].sort());
  });

  it("a probe has its store's roots under every way of choosing them", () => {
    const home = tempDir("txcript-probe-home-");
    const configs: StoreOptions[] = [
      { env: { HOME: home } },
      { env: { HOME: home, XDG_DATA_HOME: `${home}/xdg`, CODEX_HOME: `${home}/cx` } },
      { env: { HOME: home, GEMINI_HOME: `${home}/g`, CLAUDE_CONFIG_DIR: `${home}/cc` } },
      { env: { HOME: home, GEMINI_CLI_HOME: `${home}/gc` } },
      { root: `${home}/explicit/../explicit`, env: { HOME: home } },
    ];
    for (const id of STORED_HARNESS_IDS) {
      for (const options of configs) {
        const store = openStore(harness(id), options)?.native;
        expect(probeStore(id, options).roots, `${id} ${JSON.stringify(options)}`).toEqual(
          store?.roots,
        );
      }
    }
  });

  it("on a store holding sessions, a probe gives its store's scan or stamp", () => {
    for (const id of STORED_HARNESS_IDS) {
      const root = tempDir(`txcript-probe-${id}-`);
      const options: StoreOptions = { root, env: { HOME: root } };
      if (id === "opencode") createOpenCodeDatabase(root); // OpenCode makes its schema itself
      const store = openStore(harness(id), options);
      if (!store) throw new Error(`${id} has no store`);
      // Goose's store is read-only: its sessions come from the documented format.
      if (id === "goose")
        createGooseDatabase(
          root,
          [0, 1, 2].map((n) => everyKindSession(`2026100${n}_1`)),
        );
      // So is Kiro CLI's.
      if (id === "kiro")
        createKiroSessions(
          root,
          [0, 1, 2].map((n) => kiroSession(`7e57${n}000-0000-4000-8000-00000000000${n}`)),
        );
      // And Cursor's: a chat store and two agent transcripts.
      if (id === "cursor") {
        createCursorChat(root, { id: "7e570000-0000-4000-8000-000000000000" });
        for (const n of [1, 2])
          createCursorTranscript(root, `7e57${n}000-0000-4000-8000-00000000000${n}`);
      }
      // And Amp's.
      if (id === "amp")
        createAmpThreads(
          root,
          [0, 1, 2].map((n) => everyAmpThread(`T-7e57${n}000-0000-4000-8000-00000000000${n}`)),
        );
      // And Crush's: three projects, each its own crush.db.
      if (id === "crush")
        for (const n of [0, 1, 2])
          createCrushProject(
            root,
            tempDir("txcript-probe-crush-project-"),
            crushSessions(`7e57${n}000-0000-4000-8000-00000000000${n}`).slice(0, 1),
          );
      // And Grok CLI's.
      if (id === "grok")
        createGrokSessions(
          root,
          [0, 1, 2].map((n) => `7e57${n}000-0000-4000-8000-00000000000${n}`),
        );
      const readOnly = ["goose", "kiro", "cursor", "amp", "crush", "grok"];
      for (let n = 0; n < 3 && !readOnly.includes(id); n++) {
        store.save(
          transcript({
            id: `7e57${n}000-0000-4000-8000-00000000000${n}`,
            texts: [`prompt ${n}`, `answer ${n}`],
          }),
        );
      }
      const probe = probeStore(id, options);
      expect(probe.scan === undefined, id).toBe(store.native.scan === undefined);
      expect(probe.stamp === undefined, id).toBe(store.native.stamp === undefined);
      if (probe.scan) {
        const scanned = probe.scan();
        expect(scanned.length, id).toBe(3);
        expect(scanned, id).toEqual(store.native.scan?.());
      }
      if (probe.stamp) {
        const stamp = probe.stamp();
        expect(stamp, id).toBeDefined();
        expect(stamp, id).toBe(store.native.stamp?.());
      }
    }
  });
});
