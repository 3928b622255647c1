// Shared by every page: DOM helpers, the API, seat colours, and the tokens this browser holds.

export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  return fill(el, attrs, children);
}

const SVG_NS = "http://www.w3.org/2000/svg";
export function svg(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  return fill(el, attrs, children);
}

function fill(el, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "class" && el instanceof HTMLElement) el.className = value;
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

// Make a non-button element behave as a button for keyboard users.
export function clickable(el, onActivate, label) {
  el.setAttribute("role", "button");
  el.tabIndex = 0;
  if (label) el.setAttribute("aria-label", label);
  el.addEventListener("click", onActivate);
  el.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); onActivate(e); }
  });
  return el;
}

// ----- the server's API ------------------------------------------------------------------
export class ApiError extends Error {
  constructor(status, message) { super(message); this.status = status; }
}

export async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    throw new ApiError(0, "the server cannot be reached");
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(response.status, data.detail || response.statusText);
  return data;
}

// ----- seats -------------------------------------------------------------------------------
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

export function seatBadge(seat, name) {
  const c = seatColour(seat);
  return h("span", { class: "seat-badge", style: `--seat:${c.css}`, title: `seat ${seat + 1} (${c.name})` },
    h("span", { class: "seat-symbol", "aria-hidden": "true" }, c.symbol), " ", name);
}

// ----- tokens this browser holds (per room) -----------------------------------------------
const KEY = (room) => `nemeton:room:${room}`;

export function loadTokens(room) {
  try {
    const data = JSON.parse(localStorage.getItem(KEY(room)) || "null");
    if (data && typeof data === "object") return { seats: data.seats || {}, creator: data.creator || null };
  } catch (err) { /* unreadable: none */ }
  return { seats: {}, creator: null };
}

export function saveTokens(room, tokens) {
  try { localStorage.setItem(KEY(room), JSON.stringify(tokens)); } catch (err) { /* private mode */ }
}

export function rememberSeat(room, seat, token) {
  const tokens = loadTokens(room);
  tokens.seats[seat] = token;
  saveTokens(room, tokens);
}

export function gameTitle(catalogue, name) {
  const g = (catalogue || []).find((x) => x.name === name);
  return g ? g.title : name;
}

export function toast(message, kind = "info") {
  let box = document.getElementById("toasts");
  if (!box) {
    box = h("div", { id: "toasts", role: "status", "aria-live": "polite" });
    document.body.append(box);
  }
  const item = h("div", { class: `toast ${kind}` }, message);
  box.append(item);
  setTimeout(() => item.remove(), kind === "error" ? 6000 : 3500);
}

// The engine's sentences name seats by index ("seat 2" is the third seat); people read names.
export function nameText(text, names) {
  return String(text).replace(/\b[Ss]eat (\d+)\b/g, (m, n) => names(Number(n)) || m);
}
