/**
 * Reading the desktop editor's chats out of its global `state.vscdb`
 * (docs/formats/cursor.md, "Desktop chats"), through `readSnapshot` so a
 * running editor's WAL database is read as one consistent snapshot and
 * never written. Only chat rows are read: `composerHeaders`,
 * `cursorDiskKV` `composerData:`/`bubbleId:` keys and the one `ItemTable`
 * key of the oldest chat panel. The editor's login tokens live in other
 * `ItemTable` keys, which no query here names, and a composer's
 * encryption keys are removed from its document before it is kept.
 */

import { isJsonObject, type JsonObject } from "../../common.js";
import { UnsupportedError } from "../../errors.js";
import { assignDefined, jsonFromText } from "../../json.js";
import { type Db, readSnapshot, type SqlValue, sqlText, tableNames } from "../../sqlite.js";
import { type CursorDesktopBody, desktopBubbles } from "./body.js";

/** The newest `composerData` `_v` this reader was checked against ([S], Cursor 3.17.8). */
export const KNOWN_COMPOSER_VERSION = 17;

/** The oldest builds' chat panel: one `ItemTable` value holding every chat as a tab. */
const AICHAT_KEY = "workbench.panel.aichat.view.aichat.chatdata";

const COMPOSER_PREFIX = "composerData:";
const BUBBLE_PREFIX = "bubbleId:";

/** One desktop chat as discovery lists it: no bubble body is read. */
export interface DesktopEntry {
  id: string;
  body: CursorDesktopBody;
  /** How many bubbles it has (rows, or those kept in the document). */
  bubbles: number;
}

/** What discovery finds in the database: the chats, and those of a newer document version. */
export interface DesktopListing {
  chats: DesktopEntry[];
  newer: { id: string; version: number }[];
}

function jsonObject(value: SqlValue | undefined): JsonObject | undefined {
  const text = sqlText(value);
  if (text === undefined || !/^\s*\{/.test(text)) return undefined;
  try {
    const parsed = jsonFromText(text);
    return isJsonObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** A composer document without its encryption keys (secrets, and no part of the conversation). */
function withoutSecrets(doc: JsonObject): JsonObject {
  const kept: JsonObject = {};
  for (const [k, v] of Object.entries(doc)) if (!/EncryptionKey$/i.test(k)) kept[k] = v;
  return kept;
}

function checkDatabase(tables: Set<string>, file: string): void {
  if (!tables.has("cursorDiskKV") && !tables.has("ItemTable"))
    throw new UnsupportedError(
      "cursor",
      "not a Cursor state database (no cursorDiskKV or ItemTable table)",
      { file },
    );
}

/** The `composerHeaders` rows (of one composer, when `only` is given) by id, `value` parsed. */
function headers(db: Db, tables: Set<string>, only?: string): Map<string, JsonObject> {
  const out = new Map<string, JsonObject>();
  if (!tables.has("composerHeaders")) return out;
  const rows =
    only === undefined
      ? db.prepare<[], Record<string, SqlValue>>("SELECT * FROM composerHeaders").iterate()
      : db
          .prepare<[string], Record<string, SqlValue>>(
            "SELECT * FROM composerHeaders WHERE composerId = ?",
          )
          .iterate(only);
  for (const row of rows) {
    const header: JsonObject = {};
    for (const [k, v] of Object.entries(row)) {
      if (k === "value") {
        const value = jsonObject(v);
        assignDefined(header, "value", value);
      } else if (typeof v === "string" || typeof v === "number") header[k] = v;
      else if (typeof v === "bigint") header[k] = Number(v);
    }
    const id = header.composerId;
    if (typeof id === "string") out.set(id, header);
  }
  return out;
}

function version(doc: JsonObject): number | undefined {
  return typeof doc._v === "number" ? doc._v : undefined;
}

function aichatTabs(db: Db, tables: Set<string>): JsonObject[] {
  if (!tables.has("ItemTable")) return [];
  const value = db
    .prepare<[string], SqlValue>("SELECT value FROM ItemTable WHERE key = ?")
    .pluck()
    .get(AICHAT_KEY);
  const data = jsonObject(value);
  const tabs = data?.tabs;
  return Array.isArray(tabs) ? tabs.filter(isJsonObject) : [];
}

function aichatEntry(tab: JsonObject): DesktopEntry | undefined {
  const id = typeof tab.tabId === "string" ? tab.tabId : undefined;
  if (!id) return undefined;
  const body: CursorDesktopBody = {
    layout: "desktop",
    source: "aichat",
    header: {},
    composer: tab,
    bubbles: [],
  };
  const bubbles = desktopBubbles(body).length;
  return bubbles > 0 ? { id, body, bubbles } : undefined;
}

/** Every chat in the database, from headers and documents and a count of bubble keys. */
export function listDesktop(file: string): DesktopListing {
  return readSnapshot(
    file,
    (db) => {
      const tables = tableNames(db);
      checkDatabase(tables, file);
      const heads = headers(db, tables);
      const chats: DesktopEntry[] = [];
      const newer: DesktopListing["newer"] = [];
      if (tables.has("cursorDiskKV")) {
        const counts = new Map<string, number>();
        for (const key of db
          .prepare<[], SqlValue>(
            "SELECT key FROM cursorDiskKV WHERE key >= 'bubbleId:' AND key < 'bubbleId;'",
          )
          .pluck()
          .iterate()) {
          if (typeof key !== "string") continue;
          const rest = key.slice(BUBBLE_PREFIX.length);
          const cut = rest.indexOf(":");
          if (cut > 0) counts.set(rest.slice(0, cut), (counts.get(rest.slice(0, cut)) ?? 0) + 1);
        }
        for (const row of db
          .prepare<[], { key: SqlValue; value: SqlValue }>(
            "SELECT key, value FROM cursorDiskKV WHERE key >= 'composerData:' AND key < 'composerData;' ORDER BY key",
          )
          .iterate()) {
          if (typeof row.key !== "string") continue;
          const id = row.key.slice(COMPOSER_PREFIX.length);
          const doc = jsonObject(row.value);
          if (id === "" || doc === undefined) continue;
          const v = version(doc);
          if (v !== undefined && v > KNOWN_COMPOSER_VERSION) {
            newer.push({ id, version: v });
            continue;
          }
          const body: CursorDesktopBody = {
            layout: "desktop",
            source: "composer",
            header: heads.get(id) ?? {},
            composer: withoutSecrets(doc),
            bubbles: [],
          };
          const bubbles = counts.get(id) ?? desktopBubbles(body).length;
          // Drafts and empty composers (no bubble anywhere) are not sessions.
          if (bubbles > 0) chats.push({ id, body, bubbles });
        }
      }
      const ids = new Set(chats.map((c) => c.id));
      for (const tab of aichatTabs(db, tables)) {
        const entry = aichatEntry(tab);
        if (entry !== undefined && !ids.has(entry.id)) {
          ids.add(entry.id);
          chats.push(entry);
        }
      }
      return { chats, newer };
    },
    { harness: "cursor" },
  );
}

/** The order of a composer's bubbles: `fullConversationHeadersOnly[].bubbleId`, when it lists them. */
function bubbleOrder(doc: JsonObject): string[] | undefined {
  const list = doc.fullConversationHeadersOnly;
  if (!Array.isArray(list)) return undefined;
  return list.flatMap((h) =>
    isJsonObject(h) && typeof h.bubbleId === "string" ? [h.bubbleId] : [],
  );
}

/**
 * One chat, whole: its header, document and bubbles (in the document's
 * order; in rowid order when it lists none; a listed bubble with no row is
 * left out), and its count of bubble keys as discovery counts them.
 * Undefined when the database holds no chat of that id.
 */
export function loadDesktop(file: string, id: string): DesktopEntry | undefined {
  return readSnapshot(
    file,
    (db): DesktopEntry | undefined => {
      const tables = tableNames(db);
      checkDatabase(tables, file);
      if (tables.has("cursorDiskKV")) {
        const doc = jsonObject(
          db
            .prepare<[string], SqlValue>("SELECT value FROM cursorDiskKV WHERE key = ?")
            .pluck()
            .get(`${COMPOSER_PREFIX}${id}`),
        );
        if (doc !== undefined) {
          const v = version(doc);
          if (v !== undefined && v > KNOWN_COMPOSER_VERSION)
            throw new UnsupportedError(
              "cursor",
              `Cursor desktop composerData _v ${v} is newer than the ${KNOWN_COMPOSER_VERSION} this version reads`,
              { file },
            );
          const rows = new Map<string, JsonObject>();
          let keys = 0;
          for (const row of db
            .prepare<[string, string], { key: SqlValue; value: SqlValue }>(
              "SELECT key, value FROM cursorDiskKV WHERE key > ? AND key < ? ORDER BY rowid",
            )
            .iterate(`${BUBBLE_PREFIX}${id}:`, `${BUBBLE_PREFIX}${id};`)) {
            keys++;
            const bubble = jsonObject(row.value);
            if (typeof row.key === "string" && bubble !== undefined)
              rows.set(row.key.slice(BUBBLE_PREFIX.length + id.length + 1), bubble);
          }
          const order = bubbleOrder(doc);
          const bubbles =
            order === undefined
              ? [...rows.values()]
              : order.flatMap((b) => {
                  const bubble = rows.get(b);
                  return bubble === undefined ? [] : [bubble];
                });
          const header = headers(db, tables, id).get(id) ?? {};
          const body: CursorDesktopBody = {
            layout: "desktop",
            source: "composer",
            header,
            composer: withoutSecrets(doc),
            bubbles,
          };
          return { id, body, bubbles: keys > 0 ? keys : desktopBubbles(body).length };
        }
      }
      const tab = aichatTabs(db, tables).find((t) => t.tabId === id);
      return tab === undefined ? undefined : aichatEntry(tab);
    },
    { harness: "cursor" },
  );
}

/**
 * The ids of the chats in the database, including those of a newer
 * document version (loading one names its version). Reads the composer
 * documents and bubble keys, never a bubble's body.
 */
/** The `ItemTable` key listing a workspace's composers (`allComposers[].composerId`). */
const WORKSPACE_COMPOSERS_KEY = "composer.composerData";

/**
 * The composers a workspace's database lists in `composer.composerData`
 * (`{allComposers: [{type: "head", composerId, name, createdAt,
 * lastUpdatedAt, ...}], selectedComposerIds, ...}`): their ids, in order.
 * None when the key, or the table, is missing or not that shape.
 */
export function workspaceComposers(file: string): string[] {
  return readSnapshot(
    file,
    (db) => {
      if (!tableNames(db).has("ItemTable")) return [];
      const value = db
        .prepare<[string], SqlValue>("SELECT value FROM ItemTable WHERE key = ?")
        .pluck()
        .get(WORKSPACE_COMPOSERS_KEY);
      const all = jsonObject(value)?.allComposers;
      if (!Array.isArray(all)) return [];
      return all.flatMap((h) =>
        isJsonObject(h) && typeof h.composerId === "string" && h.composerId !== ""
          ? [h.composerId]
          : [],
      );
    },
    { harness: "cursor" },
  );
}

export function desktopIds(file: string): string[] {
  const { chats, newer } = listDesktop(file);
  return [...chats.map((c) => c.id), ...newer.map((n) => n.id)];
}
