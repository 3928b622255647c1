// Shared by every page: DOM helpers, the API, seat colours, and the tokens this browser holds.

import * as kit from "./kit.js";
import { toNodes } from "./kit.js";
import { has, msgParts, t, tMessage } from "./i18n.js";

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
  // parts: the server's structured sentence (strings and {seat: n}), when it sends one
  constructor(status, message, parts = null) { super(message); this.status = status; this.parts = parts; }
}

export async function api(method, path, body, headers = {}) {
  const init = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    throw new ApiError(0, t("nemeton.web.server_unreachable"));
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    // a refusal the server sends as a message too: shown in the reader's language
    if (isMessage(data.msg)) throw new ApiError(response.status, tMessage(data.msg), msgParts(data.msg));
    throw new ApiError(response.status, typeof data.detail === "string" ? data.detail : response.statusText,
                       Array.isArray(data.parts) ? data.parts : null);
  }
  return data;
}

/** Whether `value` is a message ({id, args}) this page's catalogues know. */
export function isMessage(value) {
  return value !== null && typeof value === "object" && typeof value.id === "string" && has(value.id);
}

// ----- seats -------------------------------------------------------------------------------
// Colours, symbols and names live in text.js (no DOM there: Node's tests import it).
export { SEAT_COLOURS, agentLabel, colourName, localSeats, seatColour, seatNameOf, shownMessage, partsToSegments, partsText, segmentsText, joinWords, shortName } from "./text.js";

// A seat's badge and an engine sentence as real nodes, for code that builds the DOM by hand
// (the lobby, toasts); kit.js draws them (seatBadge, parts) for everything rendered by preact.
export function seatBadge(seat, name) {
  return toNodes(kit.seatBadge(seat, name))[0];
}

export function renderParts(parts, seats, fallbackText = "", options = {}) {
  return toNodes(kit.parts(parts, seats, fallbackText, options));
}

// ----- tokens this browser holds (per room) -----------------------------------------------
const KEY = (room) => `nemeton:room:${room}`;

export function loadTokens(room) {
  try {
    const data = JSON.parse(localStorage.getItem(KEY(room)) || "null");
    if (data && typeof data === "object") {
      return { seats: data.seats || {}, invites: data.invites || {}, joined: data.joined || {}, creator: data.creator || null };
    }
  } catch (err) { /* unreadable: none */ }
  return { seats: {}, invites: {}, joined: {}, creator: null };
}

export function saveTokens(room, tokens) {
  try { localStorage.setItem(KEY(room), JSON.stringify(tokens)); } catch (err) { /* private mode */ }
}

// A seat this browser took in a room's open seats (it may leave it before the game starts).
export function rememberJoined(room, seat, token) {
  const tokens = loadTokens(room);
  tokens.seats[seat] = token;
  tokens.joined[seat] = true;
  saveTokens(room, tokens);
}

export function forgetSeat(room, seat) {
  const tokens = loadTokens(room);
  delete tokens.seats[seat];
  delete tokens.joined[seat];
  saveTokens(room, tokens);
}

// The name this browser last played under (offered when taking an open seat).
export function myName() {
  try { return localStorage.getItem("nemeton:name") || ""; } catch (err) { return ""; }
}

export function setMyName(name) {
  try { localStorage.setItem("nemeton:name", name); } catch (err) { /* private mode */ }
}

export const MAX_NAME = 24;  // the server's limit on a person's name

// Take an open seat of ``room`` with the name typed in ``input`` (the refusal shown in
// ``error``, drawn with ``seats``' names), then open the room's page as that seat.
export async function takeOpenSeat(room, seat, input, error, button, seats = []) {
  const name = input.value.trim();
  error.textContent = "";
  if (!name) { error.textContent = t("nemeton.web.name_first"); input.focus(); return false; }
  button.disabled = true;
  try {
    const joined = await api("POST", `/api/rooms/${encodeURIComponent(room)}/seats/${seat}/join`, { name });
    setMyName(name);
    rememberJoined(room, joined.seat, joined.token);
    location.href = `/rooms/${encodeURIComponent(room)}`;
    return true;
  } catch (err) {
    error.replaceChildren(...renderParts(err.parts, seats, err.message));
    button.disabled = false;
    return false;
  }
}

export function rememberSeat(room, seat, token) {
  const tokens = loadTokens(room);
  tokens.seats[seat] = token;
  saveTokens(room, tokens);
}

// A game's renderer and its stylesheet, served from the game's own folder (games/<g>/web) at
// /games/<g>/: the module, or null when the game has none (the moves list still plays it).
export async function loadRenderer(game) {
  const base = `/games/${encodeURIComponent(game)}/`;
  const css = document.getElementById("game-css");
  if (css) css.href = `${base}style.css`;
  try {
    return await import(`${base}renderer.js`);
  } catch (err) {
    console.error(err);
    return null;
  }
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

