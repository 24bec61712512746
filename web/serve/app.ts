/**
 * The `txcript serve` client: the session list (filters, sort, pages,
 * keyboard), search (hits highlighted, each opening its session at the
 * message), the usage dashboard (Chart.js) and live updates (server-sent
 * events). Bundled by esbuild into dist/cli/serve-client/app.js at build
 * time; it loads nothing from anywhere else. Every string from a session
 * reaches the page as text (textContent), never as markup.
 */

import {
  ArcElement,
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  DoughnutController,
  Legend,
  LinearScale,
  Tooltip,
} from "chart.js";
import { HARNESS_IDS, HARNESS_LABELS } from "../../src/transcript.js";

Chart.register(
  BarController,
  BarElement,
  CategoryScale,
  LinearScale,
  DoughnutController,
  ArcElement,
  Legend,
  Tooltip,
);

type Attrs = Record<string, string>;

/** An element with attributes and children; strings become text nodes. */
function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Node | string | null | undefined)[]
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}

async function getJson(url: string): Promise<unknown> {
  const r = await fetch(url, { headers: { Accept: "application/json" } });
  const body: unknown = await r.json();
  if (!r.ok) {
    const msg = isRecord(body) && typeof body.error === "string" ? body.error : r.statusText;
    throw new Error(msg);
  }
  return body;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
const str = (v: unknown): string => (typeof v === "string" ? v : "");
const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

// ---- frame -------------------------------------------------------------

const THEMES = ["auto", "light", "dark"] as const;
const root = document.documentElement;
const themeBtn = el("button", { type: "button", id: "theme" });
function setTheme(t: string): void {
  const theme = THEMES.find((x) => x === t) ?? "auto";
  root.setAttribute("data-theme", theme);
  themeBtn.textContent = `Theme: ${theme}`;
  try {
    localStorage.setItem("txcript-theme", theme);
  } catch {
    // storage may be off
  }
  if (current === "usage") void showUsage();
}
themeBtn.addEventListener("click", () => {
  const shown = THEMES.find((t) => t === root.getAttribute("data-theme"));
  const at = shown === undefined ? -1 : THEMES.indexOf(shown);
  setTheme(THEMES[(at + 1) % THEMES.length] ?? "auto");
});

const nav = el(
  "nav",
  { class: "tabs", "aria-label": "Views" },
  el("a", { href: "#/", id: "tab-sessions" }, "Sessions"),
  el("a", { href: "#/search", id: "tab-search" }, "Search"),
  el("a", { href: "#/usage", id: "tab-usage" }, "Usage"),
);
const live = el("span", { id: "live", "aria-live": "polite" });
const view = el("main", { id: "view" });
document.body.append(
  el("header", { class: "top" }, el("span", { class: "brand" }, "txcript"), nav, live, themeBtn),
  view,
);

let current: "sessions" | "search" | "usage" = "sessions";

// ---- sessions ----------------------------------------------------------

const PAGE = 100;
const list = {
  q: "",
  from: "",
  sort: "updated",
  offset: 0,
  version: "",
  selected: 0,
};

function when(ts: string): string {
  const d = new Date(ts);
  return Number.isNaN(d.getTime()) ? ts : d.toLocaleString();
}

function sessionHref(harness: string, id: string, ordinal?: number): string {
  const base = `/s/${encodeURIComponent(harness)}/${encodeURIComponent(id)}`;
  return ordinal !== undefined && ordinal > 0 ? `${base}#m${ordinal}` : base;
}

function lineage(s: Record<string, unknown>): string {
  const parts: string[] = [];
  if (typeof s.parent_id === "string") parts.push(`subagent of ${s.parent_id.slice(0, 8)}`);
  if (typeof s.forked_from === "string")
    parts.push(`copy of ${str(s.forked_from_harness) || "?"} ${s.forked_from.slice(0, 8)}`);
  return parts.join(", ");
}

const filterBox = el("input", {
  type: "search",
  id: "filter",
  placeholder: "Filter title, directory, model  ( / )",
  "aria-label": "Filter sessions",
  autocomplete: "off",
});
const harnessSelect = el(
  "select",
  { id: "harness", "aria-label": "Harness" },
  el("option", { value: "" }, "All harnesses"),
  ...HARNESS_IDS.map((h) => el("option", { value: h }, HARNESS_LABELS[h])),
);
const sortSelect = el(
  "select",
  { id: "sort", "aria-label": "Sort" },
  ...["updated", "created", "messages", "title", "harness"].map((s) =>
    el("option", { value: s }, `Sort: ${s}`),
  ),
);
let filterTimer = 0;
filterBox.addEventListener("input", () => {
  clearTimeout(filterTimer);
  filterTimer = window.setTimeout(() => {
    list.q = filterBox.value;
    list.offset = 0;
    void loadList();
  }, 150);
});
harnessSelect.addEventListener("change", () => {
  list.from = harnessSelect.value;
  list.offset = 0;
  void loadList();
});
sortSelect.addEventListener("change", () => {
  list.sort = sortSelect.value;
  list.offset = 0;
  void loadList();
});

const tbody = el("tbody");
const pager = el("div", { class: "pager" });
const listStatus = el("p", { id: "count", class: "muted" });
const listView = el(
  "section",
  { id: "sessions" },
  el("div", { class: "controls" }, filterBox, harnessSelect, sortSelect),
  listStatus,
  el(
    "table",
    { class: "list" },
    el(
      "thead",
      {},
      el(
        "tr",
        {},
        ...["Title", "Harness", "Directory", "Model", "Messages", "Last activity", "Lineage"].map(
          (h) => el("th", { scope: "col" }, h),
        ),
      ),
    ),
    tbody,
  ),
  pager,
);

async function loadList(): Promise<void> {
  const p = new URLSearchParams({
    sort: list.sort,
    offset: String(list.offset),
    limit: String(PAGE),
  });
  if (list.q !== "") p.set("q", list.q);
  if (list.from !== "") p.set("from", list.from);
  let body: unknown;
  try {
    body = await getJson(`/api/sessions?${p}`);
  } catch (e) {
    listStatus.textContent = `Could not list: ${e instanceof Error ? e.message : String(e)}`;
    return;
  }
  if (!isRecord(body)) return;
  list.version = str(body.version);
  const total = num(body.total);
  const rows = arr(body.sessions).filter(isRecord);
  tbody.replaceChildren(
    ...rows.map((s) => {
      const href = sessionHref(str(s.harness), str(s.id));
      return el(
        "tr",
        { "data-href": href, "data-id": str(s.id) },
        el("td", { class: "title" }, el("a", { href }, str(s.title) || "(untitled)")),
        el("td", {}, str(s.harness)),
        el("td", { class: "cwd" }, str(s.cwd)),
        el("td", {}, str(s.model)),
        el("td", { class: "n" }, String(num(s.message_count))),
        el("td", {}, when(str(s.updated))),
        el("td", { class: "muted" }, lineage(s)),
      );
    }),
  );
  list.selected = Math.min(list.selected, Math.max(0, rows.length - 1));
  mark();
  listStatus.textContent =
    total === 0
      ? "No sessions match."
      : `${list.offset + 1}–${list.offset + rows.length} of ${total} session${total === 1 ? "" : "s"}`;
  const prev = el("button", { type: "button", id: "prev" }, "← Newer");
  const next = el("button", { type: "button", id: "next" }, "Older →");
  prev.toggleAttribute("disabled", list.offset === 0);
  next.toggleAttribute("disabled", list.offset + PAGE >= total);
  prev.addEventListener("click", () => {
    list.offset = Math.max(0, list.offset - PAGE);
    void loadList();
  });
  next.addEventListener("click", () => {
    list.offset += PAGE;
    void loadList();
  });
  pager.replaceChildren(prev, next);
  // For the benchmark (bench/serve.bench.ts): when the page first showed rows.
  if (performance.getEntriesByName("list-drawn").length === 0) performance.mark("list-drawn");
}

function mark(): void {
  tbody.querySelectorAll("tr").forEach((tr, i) => {
    tr.classList.toggle("sel", i === list.selected);
    if (i === list.selected) tr.setAttribute("aria-selected", "true");
    else tr.removeAttribute("aria-selected");
  });
}

// ---- search ------------------------------------------------------------

const searchBox = el("input", {
  type: "search",
  id: "search",
  placeholder: 'Search every message: words, "a phrase", prefix*, -excluded',
  "aria-label": "Search every session",
  autocomplete: "off",
});
const searchForm = el(
  "form",
  { class: "controls", role: "search" },
  searchBox,
  el("button", { type: "submit" }, "Search"),
);
const hitsList = el("ol", { class: "hits" });
const searchStatus = el("p", { class: "muted", id: "search-count" });
const searchView = el("section", { id: "search-view" }, searchForm, searchStatus, hitsList);
searchForm.addEventListener("submit", (e) => {
  e.preventDefault();
  location.hash = `#/search?q=${encodeURIComponent(searchBox.value)}`;
});

/** The snippet with its highlighted ranges in <mark>, all as text. */
function snippet(text: string, ranges: unknown[]): HTMLElement {
  const p = el("p", { class: "snippet" });
  let at = 0;
  for (const r of ranges) {
    if (!Array.isArray(r)) continue;
    const start = num(r[0]);
    const end = num(r[1]);
    if (start < at || end < start || end > text.length) continue;
    p.append(text.slice(at, start), el("mark", {}, text.slice(start, end)));
    at = end;
  }
  p.append(text.slice(at));
  return p;
}

async function runSearch(q: string): Promise<void> {
  searchBox.value = q;
  hitsList.replaceChildren();
  if (q.trim() === "") {
    searchStatus.textContent = "";
    return;
  }
  searchStatus.textContent = "Searching…";
  let body: unknown;
  try {
    body = await getJson(`/api/search?${new URLSearchParams({ q })}`);
  } catch (e) {
    searchStatus.textContent = e instanceof Error ? e.message : String(e);
    return;
  }
  if (!isRecord(body)) return;
  const hits = arr(body.hits).filter(isRecord);
  searchStatus.textContent = `${num(body.total)} hit${num(body.total) === 1 ? "" : "s"}`;
  performance.mark("search-drawn");
  hitsList.replaceChildren(
    ...hits.map((h) =>
      el(
        "li",
        {},
        el(
          "a",
          { href: sessionHref(str(h.harness), str(h.id), num(h.ordinal)), class: "hit" },
          str(h.title) || "(untitled)",
          num(h.ordinal) > 0 ? ` #${num(h.ordinal)}` : "",
        ),
        el(
          "span",
          { class: "muted" },
          ` ${str(h.harness)} · ${str(h.where)} · ${when(str(h.timestamp))}`,
        ),
        snippet(str(h.snippet), arr(h.highlights)),
      ),
    ),
  );
}

// ---- usage -------------------------------------------------------------

const charts: Chart[] = [];
const usageView = el("section", { id: "usage-view" });

function color(name: string): string {
  return getComputedStyle(root).getPropertyValue(name).trim() || "#888";
}

const PALETTE = ["#0b62d6", "#1a7f37", "#c4222e", "#8250df", "#953800", "#0a7ea4", "#b08800"];

/** Tokens, responses and cost per model, under the charts. */
function costTable(groups: Record<string, unknown>[]): HTMLElement {
  const money = (g: Record<string, unknown>) =>
    typeof g.cost === "number"
      ? `$${g.cost.toFixed(2)}${num(g.unpriced_tokens) > 0 ? "*" : ""}`
      : "no price";
  return el(
    "table",
    { class: "list", id: "usage-models" },
    el(
      "thead",
      {},
      el(
        "tr",
        {},
        ...["Model", "Tokens", "Responses", "Sessions", "Cost"].map((h) =>
          el("th", { scope: "col" }, h),
        ),
      ),
    ),
    el(
      "tbody",
      {},
      ...groups.map((g) =>
        el(
          "tr",
          {},
          el("td", {}, str(g.key) || "(unknown model)"),
          el("td", { class: "n" }, num(g.total_tokens).toLocaleString()),
          el("td", { class: "n" }, num(g.messages).toLocaleString()),
          el("td", { class: "n" }, String(num(g.sessions))),
          el("td", { class: "n" }, money(g)),
        ),
      ),
    ),
  );
}

async function showUsage(): Promise<void> {
  for (const c of charts.splice(0)) c.destroy();
  usageView.replaceChildren(el("p", { class: "muted" }, "Totalling…"));
  let byDay: unknown;
  let byModel: unknown;
  let byHarness: unknown;
  try {
    [byDay, byModel, byHarness] = await Promise.all(
      ["day", "model", "harness"].map((by) => getJson(`/api/usage?by=${by}`)),
    );
  } catch (e) {
    usageView.replaceChildren(el("p", {}, e instanceof Error ? e.message : String(e)));
    return;
  }
  if (!isRecord(byDay) || !isRecord(byModel) || !isRecord(byHarness)) return;
  const totals = isRecord(byDay.totals) ? byDay.totals : {};
  const cost = typeof totals.cost === "number" ? `$${totals.cost.toFixed(2)}` : "no price known";
  const fg = color("--fg");
  Chart.defaults.color = fg;
  Chart.defaults.animation = false;
  const canvas = (id: string, label: string) => {
    const c = el("canvas", { id, role: "img", "aria-label": label });
    return {
      c,
      box: el(
        "figure",
        { class: "chart" },
        el("figcaption", {}, label),
        el("div", { class: "plot" }, c),
      ),
    };
  };
  const day = canvas("chart-day", "Tokens by day");
  const model = canvas("chart-model", "Tokens by model");
  const harness = canvas("chart-harness", "Tokens by harness");
  usageView.replaceChildren(
    el(
      "p",
      { id: "usage-totals" },
      `${num(totals.total_tokens).toLocaleString()} tokens · ${num(totals.messages).toLocaleString()} responses · ${num(totals.sessions)} sessions · ${cost}`,
    ),
    el("div", { class: "charts" }, day.box, model.box, harness.box),
    costTable(arr(byModel.groups).filter(isRecord)),
  );
  const dayGroups = arr(byDay.groups).filter(isRecord);
  const kinds: [string, string][] = [
    ["input_tokens", "input"],
    ["output_tokens", "output"],
    ["cache_read_input_tokens", "cache read"],
    ["cache_creation_input_tokens", "cache write"],
  ];
  const drawn = (c: HTMLCanvasElement) => c.setAttribute("data-drawn", "1");
  charts.push(
    new Chart(day.c, {
      type: "bar",
      data: {
        labels: dayGroups.map((g) => str(g.key)),
        datasets: kinds.map(([k, label], i) => ({
          label,
          data: dayGroups.map((g) => num(g[k])),
          backgroundColor: PALETTE[i % PALETTE.length] ?? "#888",
        })),
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        scales: { x: { stacked: true }, y: { stacked: true } },
      },
    }),
  );
  drawn(day.c);
  const modelGroups = arr(byModel.groups).filter(isRecord);
  charts.push(
    new Chart(model.c, {
      type: "bar",
      data: {
        labels: modelGroups.map((g) => str(g.key) || "(unknown model)"),
        datasets: [
          {
            label: "tokens",
            data: modelGroups.map((g) => num(g.total_tokens)),
            backgroundColor: PALETTE[0] ?? "#888",
          },
        ],
      },
      options: { indexAxis: "y", responsive: true, maintainAspectRatio: false },
    }),
  );
  drawn(model.c);
  const harnessGroups = arr(byHarness.groups).filter(isRecord);
  charts.push(
    new Chart(harness.c, {
      type: "doughnut",
      data: {
        labels: harnessGroups.map((g) => str(g.key)),
        datasets: [
          {
            label: "tokens",
            data: harnessGroups.map((g) => num(g.total_tokens)),
            backgroundColor: harnessGroups.map((_, i) => PALETTE[i % PALETTE.length] ?? "#888"),
          },
        ],
      },
      options: { responsive: true, maintainAspectRatio: false },
    }),
  );
  drawn(harness.c);
}

// ---- routing, keys and live updates ------------------------------------

function route(): void {
  const hash = location.hash.replace(/^#/, "") || "/";
  const [path, query = ""] = hash.split("?", 2);
  for (const id of ["tab-sessions", "tab-search", "tab-usage"])
    document.getElementById(id)?.removeAttribute("aria-current");
  if (path === "/search") {
    current = "search";
    document.getElementById("tab-search")?.setAttribute("aria-current", "page");
    view.replaceChildren(searchView);
    void runSearch(new URLSearchParams(query).get("q") ?? "");
    searchBox.focus();
  } else if (path === "/usage") {
    current = "usage";
    document.getElementById("tab-usage")?.setAttribute("aria-current", "page");
    view.replaceChildren(usageView);
    void showUsage();
  } else {
    current = "sessions";
    document.getElementById("tab-sessions")?.setAttribute("aria-current", "page");
    view.replaceChildren(listView);
    void loadList();
  }
}

document.addEventListener("keydown", (e) => {
  const typing = e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement;
  if (e.key === "/" && !typing) {
    e.preventDefault();
    (current === "search" ? searchBox : filterBox).focus();
    return;
  }
  if (current !== "sessions" || typing || e.metaKey || e.ctrlKey || e.altKey) return;
  const rows = tbody.querySelectorAll("tr").length;
  if (e.key === "j" || e.key === "ArrowDown") {
    list.selected = Math.min(rows - 1, list.selected + 1);
    mark();
    e.preventDefault();
  } else if (e.key === "k" || e.key === "ArrowUp") {
    list.selected = Math.max(0, list.selected - 1);
    mark();
    e.preventDefault();
  } else if (e.key === "Enter") {
    const href = tbody.querySelectorAll("tr")[list.selected]?.getAttribute("data-href");
    if (href) location.href = href;
  }
});

// A session added or grown elsewhere: the list refreshes itself where it stands.
const events = new EventSource("/api/events");
events.addEventListener("sessions", (e) => {
  const version = e instanceof MessageEvent ? String(e.data) : "";
  // Before the first listing arrives there is nothing to bring up to date.
  if (list.version === "" || version === list.version) return;
  if (current === "sessions") {
    void loadList();
    live.textContent = `updated ${new Date().toLocaleTimeString()}`;
  }
});

let saved: string | null = null;
try {
  saved = localStorage.getItem("txcript-theme");
} catch {
  saved = null;
}
setTheme(saved ?? "auto");
window.addEventListener("hashchange", route);
route();
