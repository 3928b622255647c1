// Pure helpers for the words on the page: no DOM, so Node's test runner imports them
// (tests/js/). js/common.js re-exports them beside the helpers that build elements. Words in
// the page's language come from i18n.js (English until a page has loaded its language).

import { fmtList, has, t, tMessage } from "./i18n.js";

// Colour is never the only signal: every seat also has a symbol (and its name).
export const SEAT_COLOURS = [
  { name: "red", css: "#c2412d", symbol: "●" },
  { name: "blue", css: "#2d6cc2", symbol: "■" },
  { name: "green", css: "#2f8f4e", symbol: "▲" },
  { name: "amber", css: "#b7791f", symbol: "◆" },
  { name: "purple", css: "#7b4fb3", symbol: "★" },
  { name: "teal", css: "#1f8a8a", symbol: "✚" },
];

export function seatColour(seat) {
  return SEAT_COLOURS[((seat % SEAT_COLOURS.length) + SEAT_COLOURS.length) % SEAT_COLOURS.length];
}

/** A seat's colour as a word in the page's language ("red", "rosso", "rojo"): for labels,
 *  beside its symbol (colour is never the only signal). */
export function colourName(seat) {
  const ids = {
    red: t("nemeton.web.colour.red"), blue: t("nemeton.web.colour.blue"), green: t("nemeton.web.colour.green"),
    amber: t("nemeton.web.colour.amber"), purple: t("nemeton.web.colour.purple"), teal: t("nemeton.web.colour.teal"),
  };
  return ids[seatColour(seat).name];
}

/** A message the server sent beside its English (`english`): in the page's language when the
 *  catalogues know it, else that English (a game or server without the message). */
export function shownMessage(message, english) {
  const known = message !== null && typeof message === "object" && typeof message.id === "string" && has(message.id);
  return known ? tMessage(message) : english;
}

/** The seats as the server sent them ([{seat, name, name_msg?, ...}]) with each name the server
 *  made up ("Birch (AI)", "Open seat", "Player 2": its name_msg) in the page's language; a name
 *  somebody gave stays as written. The server's English stays in `name_en`. */
export function localSeats(seats) {
  if (!Array.isArray(seats)) return seats;
  return seats.map((s) => (s && s.name_msg && typeof s.name === "string" && !("name_en" in s)
    ? { ...s, name: shownMessage(s.name_msg, s.name), name_en: s.name } : s));
}

/** An agent's label in the page's language: `agents` is a game's list from /api/games
 *  ([{name, label, label_msg?}]), `name` what a seat names; the name itself when unknown. */
export function agentLabel(agents, name) {
  const found = (Array.isArray(agents) ? agents : []).find((a) => a && (a.name === name || a.spec === name));
  return found ? shownMessage(found.label_msg, found.label || name) : name;
}

/** A seat's name from the snapshot's seats ([{seat, name, ...}]); "Player N" (N from 1) when
 *  the list does not name it. Never the engine's 0-based index. */
export function seatNameOf(seats, seat) {
  const list = Array.isArray(seats) ? seats : [];
  const found = list.find((s) => s && s.seat === seat) || list[seat];
  const name = found && typeof found.name === "string" && found.name.trim() ? found.name : null;
  return name || t("nemeton.web.player_n", { n: Number(seat) + 1 });
}

function isSeatRef(part) {
  return part !== null && typeof part === "object" && Number.isInteger(part.seat);
}

/**
 * The engine's structured sentence (a list of strings and {seat: n} objects, n 0-based) as
 * segments: {text} for words, {seat, name, colour, symbol} for a seat. Adjacent words merge;
 * anything else in the list is shown as its text (never dropped silently).
 */
export function partsToSegments(parts, seats) {
  const out = [];
  for (const part of Array.isArray(parts) ? parts : []) {
    if (part === null || part === undefined) continue;
    if (isSeatRef(part)) {
      const c = seatColour(part.seat);
      out.push({ seat: part.seat, name: seatNameOf(seats, part.seat), colour: c.css, symbol: c.symbol });
      continue;
    }
    const text = typeof part === "string" ? part
      : typeof part === "object" && typeof part.text === "string" ? part.text : String(part);
    if (!text) continue;
    const prev = out[out.length - 1];
    if (prev && "text" in prev) prev.text += text;
    else out.push({ text });
  }
  return out;
}

/** The segments as plain text (a title, an aria-label): seats by name. */
export function segmentsText(segments) {
  return segments.map((s) => ("text" in s ? s.text : s.name)).join("");
}

/** A sentence's plain text: from its parts when it has them, else its text as it is. */
export function partsText(parts, seats, fallbackText = "") {
  if (!Array.isArray(parts)) return String(fallbackText ?? "");
  return segmentsText(partsToSegments(parts, seats));
}

/** "A", "A and B", "A, B and C" (as the page's language lists them: "A, B e C", "A, B y C"). */
export function joinWords(words) {
  return fmtList(words.filter((w) => w !== null && w !== undefined && w !== ""));
}

/** A name cut to `max` characters with an ellipsis (the full name goes in a title). */
export function shortName(name, max = 24) {
  const chars = [...String(name)];
  return chars.length <= max ? chars.join("") : `${chars.slice(0, max - 1).join("")}…`;
}
