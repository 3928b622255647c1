// Messages in the reader's language (docs/web.md, "Languages"): English, Italian and Spanish.
//
// The catalogues are src/nemeton/web/i18n/<lang>.json, compiled from the gettext catalogues by
// scripts/catalogues.py (every domain: the shell's nemeton.web.*, each game's <game>.*). A
// message is {id, args} as the server sends it (nemeton.i18n); t() and msgParts() render it
// exactly as Python's nemeton.i18n.render does: placeholders {name}; a plural message's form
// chosen by args.count; numbers and lists as the language writes them; a nested {msg}; a seat
// as a part ({seat: n}, which kit.parts() draws as the player's badge) or, in plain text, the
// word of the id nemeton.seat ("seat n").
//
// English is always here (imported with this module, so t() works before anything is loaded:
// Node's tests, a page's first lines); a page awaits loadLanguage() (or startPage()) before its
// first drawing, then t() is synchronous. An id the language lacks is written in English, an
// id no catalogue has as the id itself (with its arguments), never an error.

import english from "../i18n/en.json" with { type: "json" };

export const LANGUAGES = ["en", "it", "es"];
/** Each language's name in itself (the switcher's labels). */
export const NATIVE_NAMES = { en: "English", it: "Italiano", es: "Español" };
/** The locale each language formats numbers and lists in (as the server: British English). */
const FORMAT_LOCALE = { en: "en-GB", it: "it-IT", es: "es-ES" };
const STORE = "nemeton:lang";
const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
const SEAT_OPEN = "\ue000";
const SEAT_CLOSE = "\ue001";
const MARKER = /\ue000(0|[1-9][0-9]{0,5})\ue001/g;
const STRAY = /[\ue000\ue001]/g;
const SENTENCE_END = /(^|[.!?]\s|\n)\s*$/;

const ENGLISH = (english && english.messages) || {};
const state = { lang: "en", messages: ENGLISH };

/** "it-IT", "it_IT.UTF-8", "IT" -> "it"; null for a language we lack. */
export function normalize(tag) {
  if (typeof tag !== "string" || !tag.trim()) return null;
  const code = tag.trim().toLowerCase().split(/[-_.@]/)[0];
  return LANGUAGES.includes(code) ? code : null;
}

/** The language to show: the reader's stored choice, else the first of the browser's
 *  languages we have, else English. */
export function preferredLanguage() {
  try {
    const stored = normalize(globalThis.localStorage && globalThis.localStorage.getItem(STORE));
    if (stored) return stored;
  } catch (err) { /* no storage (private mode): the browser's languages decide */ }
  const nav = globalThis.navigator;
  const tags = nav ? (Array.isArray(nav.languages) && nav.languages.length ? nav.languages : [nav.language]) : [];
  for (const tag of tags) {
    const code = normalize(tag);
    if (code) return code;
  }
  return "en";
}

/** Use `messages` (a catalogue's "messages") for `lang`, English beneath it. For Node's tests,
 *  which read the JSON files themselves; pages call loadLanguage(). */
export function useCatalogue(lang, messages) {
  const code = normalize(lang) || "en";
  state.lang = code;
  state.messages = code === "en" ? ENGLISH : { ...ENGLISH, ...(messages || {}) };
  formats.clear();
  if (globalThis.document && globalThis.document.documentElement) globalThis.document.documentElement.lang = code;
  return code;
}

/** Load `lang`'s catalogue (the preferred language by default) from /static/i18n/ and make it
 *  the page's language (<html lang> too). English where it cannot be had. */
export async function loadLanguage(lang) {
  const code = normalize(lang) || preferredLanguage();
  if (code === "en") return useCatalogue("en");
  try {
    const response = await fetch(`/static/i18n/${code}.json`);
    if (!response.ok) throw new Error(`${response.status}`);
    const data = await response.json();
    return useCatalogue(code, data.messages);
  } catch (err) {
    console.warn(`the ${code} catalogue could not be loaded: English instead`, err);
    return useCatalogue("en");
  }
}

/** The page's language ("en", "it" or "es"). */
export function language() {
  return state.lang;
}

/** Remember `lang` as this browser's choice and show the page again in it. */
export function setLanguage(lang) {
  const code = normalize(lang);
  if (!code) return;
  try { globalThis.localStorage.setItem(STORE, code); } catch (err) { /* private mode: this page only */ }
  if (globalThis.location) globalThis.location.reload();
}

/** Whether a catalogue (this language's or English) has message `id`. */
export function has(id) {
  return Object.prototype.hasOwnProperty.call(state.messages, id);
}

// ----- formatting ----------------------------------------------------------------------------
const formats = new Map();
function format(kind, options, make) {
  const key = `${kind}:${JSON.stringify(options)}`;
  if (!formats.has(key)) formats.set(key, make(FORMAT_LOCALE[state.lang] || "en-GB", options));
  return formats.get(key);
}

/** A number as the page's language writes it (1,234.5 / 12.345,5; Italian and Spanish group
 *  from five digits: 1234), as the server writes numbers; `digits`: exactly that many decimals
 *  (a time in seconds: "1.2"), else up to three. */
export function fmtNumber(value, digits = null) {
  const options = digits === null || digits === undefined
    ? { maximumFractionDigits: 3 }
    : { minimumFractionDigits: digits, maximumFractionDigits: digits };
  return format("number", options, (l, o) => new Intl.NumberFormat(l, o)).format(Number(value));
}

/** A share (0.63) as the page's language writes a percentage ("63%", "63 %"). */
export function fmtPercent(share, digits = 0) {
  const options = { style: "percent", minimumFractionDigits: digits, maximumFractionDigits: digits };
  return format("percent", options, (l, o) => new Intl.NumberFormat(l, o)).format(Number(share) || 0);
}

/** Words joined as the language lists them ("a, b and c", "a, b e c", "a, b y c"). */
export function fmtList(items) {
  const list = (items || []).map(String);
  if (!list.length) return "";
  return format("list", { type: "conjunction" }, (l, o) => new Intl.ListFormat(l, o)).format(list);
}

const RELATIVE_UNITS = [["year", 365 * 86400], ["month", 30 * 86400], ["week", 7 * 86400], ["day", 86400],
                        ["hour", 3600], ["minute", 60], ["second", 1]];

/** How long ago (or from now) `when` is, as the page's language says it ("5 minutes ago",
 *  "5 minuti fa", "hace 5 minutos"; "now", "ora", "ahora" within a minute); `now` for tests. */
export function fmtRelative(when, now = Date.now()) {
  const seconds = Math.round((new Date(when).getTime() - now) / 1000);
  if (!Number.isFinite(seconds)) return "";
  const rtf = format("relative", { numeric: "auto" }, (l, o) => new Intl.RelativeTimeFormat(l, o));
  if (Math.abs(seconds) < 60) return rtf.format(0, "second");
  const [unit, size] = RELATIVE_UNITS.find(([, s]) => Math.abs(seconds) >= s);
  return rtf.format(Math.trunc(seconds / size), unit);
}

/** A date and time as the page's language writes them ("4 Dec 2026, 14:05", "4 dic 2026, 14:05"). */
export function fmtDate(when) {
  const date = new Date(when);
  if (Number.isNaN(date.getTime())) return "";
  return format("date", { dateStyle: "medium", timeStyle: "short" }, (l, o) => new Intl.DateTimeFormat(l, o)).format(date);
}

function pluralCategory(count) {
  return format("plural", {}, (l) => new Intl.PluralRules(l)).select(count);
}

// ----- rendering -------------------------------------------------------------------------------
function template(id, count) {
  const entry = state.messages[id];
  if (entry === undefined || entry === null) return null;
  if (typeof entry === "object") {  // plural forms by CLDR category: {one, other}
    const category = typeof count === "number" ? pluralCategory(count) : "other";
    return entry[category] ?? entry.other ?? Object.values(entry)[0];
  }
  return String(entry);
}

const own = (obj, key) => Object.prototype.hasOwnProperty.call(obj, key);

// `message` as text, each seat written by seat(n) (a marker, for msgParts)
function render(message, seat) {
  const m = message && typeof message === "object" ? message : { id: String(message) };
  const args = m.args && typeof m.args === "object" ? m.args : {};
  const text = template(String(m.id), typeof args.count === "number" ? args.count : null);
  if (text === null) {
    const shown = Object.entries(args).map(([k, v]) => `${k}=${renderArg(v, seat)}`).join(", ");
    return `${m.id}${shown ? ` (${shown})` : ""}`;
  }
  return text.replace(PLACEHOLDER, (whole, name) => (own(args, name) ? renderArg(args[name], seat) : whole));
}

function renderArg(value, seat) {
  if (typeof value === "boolean") return String(value);
  if (typeof value === "number") return fmtNumber(value);
  if (typeof value === "string") return value;
  if (value && typeof value === "object") {
    if (own(value, "seat")) return seat(value.seat);
    if (own(value, "msg") && value.msg && typeof value.msg === "object") return render(value.msg, seat);
    if (own(value, "list") && Array.isArray(value.list)) return fmtList(value.list.map((v) => renderArg(v, seat)));
  }
  return String(value);
}

const marker = (n) => (Number.isInteger(n) ? `${SEAT_OPEN}${n}${SEAT_CLOSE}` : String(n));

/** A message ({id, args}) as parts: strings and {seat: n}, like the engine's entries' parts
 *  (adjacent strings merged, no empty string). */
export function msgParts(message) {
  return splitMarkers(render(message, marker));
}

function splitMarkers(text) {
  const out = [];
  const add = (piece) => {
    const clean = piece.replace(STRAY, "");
    if (!clean) return;
    if (out.length && typeof out[out.length - 1] === "string") out[out.length - 1] += clean;
    else out.push(clean);
  };
  let pos = 0;
  for (const m of text.matchAll(MARKER)) {
    add(text.slice(pos, m.index));
    out.push({ seat: Number(m[1]) });
    pos = m.index + m[0].length;
  }
  add(text.slice(pos));
  return out;
}

/** Parts as plain text, each seat as the language's word ("seat 2", capital where a sentence
 *  starts), as the server's plain text (nemeton.i18n.render_parts). */
export function partsPlain(parts) {
  const word = template("nemeton.seat", null) || "seat {n}";
  let out = "";
  for (const part of parts) {
    if (typeof part === "string") { out += part; continue; }
    const w = word.replace("{n}", String(part.seat));
    out += SENTENCE_END.test(out) ? w.charAt(0).toUpperCase() + w.slice(1) : w;
  }
  return out;
}

/** Message `id` with `args` in the page's language, as text. */
export function t(id, args) {
  return partsPlain(msgParts(args ? { id, args } : { id }));
}

/** A message object ({id, args}) as text. */
export function tMessage(message) {
  return partsPlain(msgParts(message));
}

/** Message `id` as a list of strings and `nodes`: each placeholder named in `nodes` is that
 *  value itself (a badge, a button), the rest rendered as t() does. */
export function tNodes(id, args, nodes) {
  const keys = Object.keys(nodes || {});
  const marks = Object.fromEntries(keys.map((k, i) => [k, `\u0000${i}\u0000`]));
  const text = t(id, { ...(args || {}), ...marks });
  const out = [];
  text.split(/\u0000(\d+)\u0000/).forEach((piece, k) => {
    if (k % 2) out.push(nodes[keys[Number(piece)]]);
    else if (piece) out.push(piece);
  });
  return out;
}

// ----- the page ----------------------------------------------------------------------------------
/** Fill `root`'s elements marked data-i18n="id" (their text) and data-i18n-attr="attr:id;attr:id"
 *  (attributes: aria-label, title, placeholder), `root` itself included. */
export function translatePage(root = globalThis.document) {
  if (!root || !root.querySelectorAll) return;
  const all = [...(root.matches ? [root] : []), ...root.querySelectorAll("[data-i18n], [data-i18n-attr]")];
  for (const el of all) {
    if (el.dataset && el.dataset.i18n) el.textContent = t(el.dataset.i18n);
    const attrs = el.dataset && el.dataset.i18nAttr;
    if (!attrs) continue;
    for (const pair of attrs.split(";")) {
      const [attr, id] = pair.split(":").map((s) => s.trim());
      if (attr && id) el.setAttribute(attr, t(id));
    }
  }
}

/** The language switcher (a <select>): the languages by their own names, this one chosen; a
 *  choice is remembered and the page shown again in it. */
export function languageSwitcher(select) {
  if (!select) return;
  select.replaceChildren(...LANGUAGES.map((code) => {
    const option = globalThis.document.createElement("option");
    option.value = code;
    option.lang = code;
    option.textContent = NATIVE_NAMES[code];
    option.selected = code === state.lang;
    return option;
  }));
  select.value = state.lang;
  select.addEventListener("change", () => setLanguage(select.value));
}

/** What every page does before its first drawing: load the reader's language, translate the
 *  page's fixed text and fill the header's switcher (#language). */
export async function startPage() {
  const lang = await loadLanguage();
  translatePage(globalThis.document);
  languageSwitcher(globalThis.document.getElementById("language"));
  return lang;
}
