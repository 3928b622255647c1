// A room's page: one seat's table (/rooms/ROOM?token=T), every seat this device holds in turn
// (hotseat: a "pass the device" screen between people), or the spectator's (no token, ?watch).
// It draws only what the server sends: the seat's view, its legal actions and its log.

import { MAX_NAME, api, forgetSeat, h as domH, loadRenderer, loadTokens, myName, rememberSeat,
  renderParts, saveTokens, seatColour, takeOpenSeat, toast } from "./common.js";
import { clear, drawGame, drawScoreSheet, h, linkRow, logRounds, parts, render, seatBadge } from "./kit.js";
import { partsText, seatNameOf } from "./text.js";

const roomId = decodeURIComponent(location.pathname.split("/")[2] || "");
const params = new URLSearchParams(location.search);
const $ = (id) => document.getElementById(id);

const page = {
  info: null,        // the room's public description (GET /api/rooms/ROOM)
  game: null,        // the game's renderer (/games/<game>/renderer.js), or null: the moves list only
  catalogue: null,
  conns: new Map(),  // seat (or "watch") -> Connection
  focus: null,       // the Connection whose table is shown
  passTo: null,      // hotseat: the seat the device must be passed to, until its person says so
  tokens: loadTokens(roomId),
  scoreDismissed: false,
  revealed: null,    // the decision whose highlighted moves were last brought into view
  clicks: 0,
};

// ----- connections -------------------------------------------------------------------------
class Connection {
  constructor(seat, token) {
    this.seat = seat;            // null: the spectator
    this.token = token;
    this.snap = null;            // the latest snapshot
    this.log = [];
    this.seats = [];
    this.pending = false;        // an action sent and not yet answered
    this.hint = null;            // {key, state: "thinking"|"shown", seconds, started, moves}: this seat's hint
    this.retry = 0;
    this.open();
  }

  open() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const query = this.token ? `?token=${encodeURIComponent(this.token)}` : "";
    this.ws = new WebSocket(`${scheme}//${location.host}/ws/rooms/${encodeURIComponent(roomId)}${query}`);
    this.ws.onopen = () => { this.retry = 0; showConnection(); };
    this.ws.onmessage = (event) => this.receive(JSON.parse(event.data));
    this.ws.onclose = (event) => {
      this.pending = false;
      showConnection();
      if (event.code >= 4400 && event.code < 4500) {  // refused (unknown room or token): do not retry
        fatal(event.reason || "this room refused the connection");
        return;
      }
      const delay = Math.min(10000, 500 * 2 ** this.retry++);
      setTimeout(() => this.open(), delay);
    };
  }

  get connected() { return this.ws && this.ws.readyState === WebSocket.OPEN; }

  receive(message) {
    if (message.type === "state") {
      const first = this.snap === null || message.resync || message.seat !== undefined;
      this.log = first ? message.log.slice() : this.log.concat(message.log);
      this.snap = message;
      this.seats = message.seats || this.seats;
      this.pending = false;
      update();
    } else if (message.type === "seats") {
      this.seats = message.seats;
      update();
    } else if (message.type === "ok") {
      // the new state was pushed just before
    } else if (message.type === "error") {
      this.pending = false;
      toast(domH("span", {}, renderParts(message.parts, this.seats, message.message)), "error");
      update();
    }
  }

  send(message) {
    if (!this.connected) { toast("not connected: reconnecting…", "error"); return false; }
    this.ws.send(JSON.stringify({ ...message, version: this.snap ? this.snap.version : undefined }));
    return true;
  }

  act(action) {
    if (this.pending) return;
    if (this.send({ type: "action", action })) { this.pending = true; update(); }
  }
}

function showConnection() {
  const all = [...page.conns.values()];
  const down = all.filter((c) => !c.connected).length;
  $("connection").textContent = down ? "Reconnecting…" : "Connected";
  $("connection").classList.toggle("down", down > 0);
}

function fatal(message) {
  $("title").textContent = "This room cannot be opened";
  render(h("p", { class: "fatal" }, message, " ", h("a", { href: "/" }, "Back to the lobby")), $("board"));
}

// ----- start -----------------------------------------------------------------------------
async function start() {
  const urlToken = params.get("token");
  try {
    [page.info, page.catalogue] = await Promise.all([api("GET", `/api/rooms/${encodeURIComponent(roomId)}`),
                                                     api("GET", "/api/games")]);
  } catch (err) {
    fatal(err.message);
    return;
  }
  const game = page.catalogue.find((g) => g.name === page.info.game);
  document.title = `${game ? game.title : page.info.game} · Nemeton`;
  document.body.dataset.game = page.info.game;
  page.game = await loadRenderer(page.info.game);  // null without one: the moves list still plays the game
  if (params.has("watch")) {
    page.conns.set("watch", new Connection(null, null));
  } else if (urlToken) {
    // An invite link: find which seat it is (the server says, through the first snapshot).
    const probe = await api("GET", `/api/rooms/${encodeURIComponent(roomId)}/view?token=${encodeURIComponent(urlToken)}&since=999999999`)
      .catch((err) => { fatal(err.message); return null; });
    if (!probe) return;
    const seat = probe.view.seat;
    rememberSeat(roomId, seat, urlToken);
    page.tokens = loadTokens(roomId);
    page.conns.set(seat, new Connection(seat, urlToken));
  } else {
    const seats = Object.keys(page.tokens.seats).map(Number).sort((a, b) => a - b);
    for (const seat of seats) page.conns.set(seat, new Connection(seat, page.tokens.seats[seat]));
    if (!seats.length) page.conns.set("watch", new Connection(null, null));
  }
  page.focus = page.conns.values().next().value;
  page.firstPass = hotseat();  // once every seat's state is in: pass to whoever acts first
  document.querySelectorAll(".tabs button").forEach((b) => b.addEventListener("click", () => showTab(b.dataset.tab)));
  $("board").addEventListener("click", () => requestAnimationFrame(() => revealLegal(`click:${++page.clicks}`)));
  $("pass-ready").addEventListener("click", () => {
    page.focus = page.conns.get(page.passTo) || page.focus;
    page.passTo = null;
    update();
  });
  update();
}

function hotseat() {
  return [...page.conns.keys()].filter((k) => k !== "watch").length > 1;
}

function showTab(tab) {
  document.body.dataset.tab = tab;
  document.querySelectorAll(".tabs button").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.tab === tab)));
}

// ----- which seat is shown (hotseat) ---------------------------------------------------------
function chooseFocus() {
  if (!hotseat()) return;
  const ready = [...page.conns.values()].filter((c) => c.snap);
  const waiting = ready.filter((c) => c.snap.legal_actions.length && !c.snap.terminal);
  if (page.firstPass) {
    if (ready.length < page.conns.size) return;
    page.firstPass = false;
    const first = waiting.sort((a, b) => a.seat - b.seat)[0] || page.focus;
    page.focus = first;
    page.passTo = first.seat;
    return;
  }
  const focus = page.focus;
  if (focus && focus.snap && focus.snap.legal_actions.length) return;  // the shown seat still acts
  const next = waiting.sort((a, b) => a.seat - b.seat)[0];
  if (next && next !== focus && page.passTo === null) page.passTo = next.seat;
}

// ----- drawing -----------------------------------------------------------------------------
function update() {
  if (!page.focus || !page.focus.snap) return;
  chooseFocus();
  if (page.firstPass) return;
  const conn = page.focus;
  const snap = conn.snap;
  const seats = conn.seats.length ? conn.seats : page.info.seats;
  const names = (s) => seatNameOf(seats, s);
  document.body.dataset.seat = conn.seat === null ? "watch" : String(conn.seat);
  document.body.dataset.terminal = String(snap.terminal);

  drawPass(names);
  drawHeader(conn, snap, seats, names);
  drawPlayers(conn, snap, seats);
  if (page.passTo === null) drawLog(conn);
  const hidden = page.passTo !== null;
  $("table").hidden = hidden;
  if (hidden) {  // nothing of the previous seat's table stays in the page
    for (const id of ["board", "actionbar", "moves-list", "log-list"]) clear($(id));
  } else {
    drawBoard(conn, snap, seats, names);
    drawMoves(conn, snap);
    drawControls(conn, snap);
  }
  drawHint(conn, snap);
  drawWaiting(conn, snap, seats);
  drawCreator(snap, seats);
  drawScore(conn, snap, seats);
}

function drawPass(names) {
  const pass = $("pass");
  if (page.passTo === null) { pass.hidden = true; return; }
  const name = names(page.passTo);
  $("pass-title").textContent = `Pass to ${name}`;
  $("pass-text").textContent = `Hand the device to ${name}. Nothing of their hand is shown until they are ready.`;
  $("pass-ready").textContent = `I am ${name}: show my table`;
  pass.hidden = false;
  $("pass-ready").focus();
}

function drawHeader(conn, snap, seats, names) {
  const game = page.catalogue.find((g) => g.name === page.info.game);
  $("title").textContent = `${game ? game.title : page.info.game}${snap.view.round ? ` · round ${snap.view.round}` : ""}`;
  let said;
  if (snap.terminal) {
    said = "The game is over.";
  } else if (snap.waiting) {
    const open = (snap.open_seats || []).length;
    said = `Waiting for players: ${open} open seat${open === 1 ? "" : "s"}`;
  } else if (conn.seat !== null && snap.legal_actions.length) {
    said = h("strong", { class: "your-turn" }, hotseat() ? `${names(conn.seat)}, your turn` : "Your turn");
  } else {
    const acting = snap.acting;
    said = [acting.length ? "Waiting for " : null, ...acting.map((s, i) => [
      i ? ", " : null, seatBadge(s, names(s)),
      seats[s] && (seats[s].kind === "ai" || seats[s].stand_in) ? h("span", { class: "spinner", "aria-label": "thinking" }) : null])];
  }
  const standIn = conn.snap.stand_in && conn.snap.stand_in.until_return
    ? [" · ", `${conn.snap.stand_in.agent} is playing for you while you were away `,
      h("button", { type: "button", onclick: () => conn.send({ type: "return" }) }, "I'm back")] : null;
  render([said, standIn], $("status"));
}

function drawPlayers(conn, snap, seats) {
  const rows = seats.map((s) => {
    const acting = snap.acting.includes(s.seat) && !snap.terminal && !snap.waiting;
    const score = snap.view.scores ? snap.view.scores[s.seat] : null;
    return h("li", { key: s.seat, class: `player${acting ? " acting" : ""}${s.seat === conn.seat ? " me" : ""}`,
                     style: `--seat:${seatColour(s.seat).css}` },
      h("span", { class: "marker", "aria-hidden": "true" }, acting ? "▶" : ""),
      seatBadge(s.seat, s.name),
      s.seat === conn.seat ? h("span", { class: "tag" }, "you") : null,
      h("span", { class: "kind" }, s.kind === "ai" ? `AI · ${s.agent}` : s.open ? "open seat"
        : (s.stand_in ? `played by ${s.stand_in}` : (s.connected ? "online" : "away"))),
      acting ? h("span", { class: "tag acting-tag" }, "to act") : null,
      score !== null && score !== undefined ? h("span", { class: "score", title: "score" }, String(score)) : null);
  });
  render([h("h2", {}, "Players"), h("ul", {}, rows)], $("players"));
}

function drawLog(conn) {
  const list = $("log-list");
  const nearBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  render(logRounds(conn.log, conn.seats.length ? conn.seats : page.info.seats), list);
  if (nearBottom || list.dataset.filled !== "1") list.scrollTop = list.scrollHeight;
  list.dataset.filled = "1";
}

function freshEntries(conn) {
  const log = conn.log;
  let j = -1;
  if (conn.seat !== null) {
    for (let k = log.length - 1; k >= 0; k--) if (log[k].seat === conn.seat) { j = k; break; }
  } else {
    let seen = 0;
    for (let k = log.length - 1; k >= 0; k--) if (log[k].seat !== null && log[k].seat !== undefined && ++seen === 2) { j = k; break; }
  }
  return log.slice(j + 1);
}

function drawBoard(conn, snap, seats, names) {
  const playing = conn.seat !== null && !conn.pending && !snap.waiting;  // nothing is played before every seat is taken
  const legal = playing ? snap.legal_actions : [];
  const ctx = {
    view: snap.view, legal, log: conn.log, fresh: freshEntries(conn), seat: conn.seat,
    mode: conn.seat === null ? "watch" : "play", seats, waiting: Boolean(snap.waiting),
    act: (action) => conn.act(action),
    hints: hintsShown(conn, snap),
    seatName: names,
    components: page.info.components || {},
  };
  page.ctx = ctx;
  drawGame(page.game, $("board"), $("actionbar"), ctx);
  const key = `${conn.seat}:${snap.version}`;
  if (legal.length) requestAnimationFrame(() => revealLegal(key));  // once the renderer's own layout pass is done
}

// Highlighted moves inside a box of the table that scrolls on its own (Edora's board in its
// column on a laptop) are brought into that box's view, once per decision and after each click
// on the table (a half-made choice highlights new things); the window itself never moves.
function revealLegal(key) {
  if (page.revealed === key) return;
  page.revealed = key;
  const board = $("board");
  const boxes = new Map();
  for (const e of board.querySelectorAll(".legal")) {
    if (!e.getClientRects().length) continue;
    for (let a = e.parentElement; a && a !== board; a = a.parentElement) {
      const o = getComputedStyle(a).overflowY;
      if (o !== "auto" && o !== "scroll") continue;
      if (a.scrollHeight > a.clientHeight + 1) boxes.set(a, [...(boxes.get(a) || []), e.getBoundingClientRect()]);
      break;
    }
  }
  for (const [box, rects] of boxes) {
    const viewTop = box.getBoundingClientRect().top + box.clientTop;
    const viewBottom = viewTop + box.clientHeight;
    const top = Math.min(...rects.map((r) => r.top)) - 8;
    const bottom = Math.max(...rects.map((r) => r.bottom)) + 8;
    if (top >= viewTop && bottom <= viewBottom) continue;
    // all of them when they fit in the box, else from the first
    box.scrollTop += bottom - top <= box.clientHeight && top >= viewTop ? bottom - viewBottom : top - viewTop;
  }
}

function label(action) {
  if (page.game && page.game.label) {
    try { return page.game.label(action, page.ctx); } catch (err) { /* fall back to the JSON */ }
  }
  return Object.entries(action).map(([k, v]) => `${k}: ${typeof v === "object" ? JSON.stringify(v) : v}`).join(", ");
}

function drawMoves(conn, snap) {
  const legal = conn.seat !== null && !conn.pending && !snap.waiting ? snap.legal_actions : [];
  $("moves").querySelector("summary").textContent = `Moves (${legal.length})`;
  render(legal.map((a) => h("li", { key: JSON.stringify(a) },
    h("button", { type: "button", class: "move", onclick: () => conn.act(a) }, label(a)))), $("moves-list"));
}

function drawControls(conn, snap) {
  const out = [];
  if (!snap.terminal && snap.moves > 0) {
    out.push(h("a", { class: "button", id: "replay-so-far", href: `/rooms/${encodeURIComponent(roomId)}/replay` },
      "Replay the moves so far"), " ");
  }
  if (snap.undo && conn.seat !== null && !snap.terminal && !snap.waiting) {
    // offered only when the server would grant it; else disabled, with the server's reason
    const info = snap.take_back || { allowed: false, reason: "", parts: [] };
    const seats = conn.seats.length ? conn.seats : page.info.seats;
    const why = info.allowed ? null : h("span", { id: "undo-reason", class: "hint" }, parts(info.parts, seats, info.reason || ""));
    out.push(h("button", { type: "button", id: "undo", disabled: !info.allowed || conn.pending,
                           title: info.allowed ? "Take back your last move" : partsText(info.parts, seats, info.reason || ""),
                           "aria-describedby": why ? "undo-reason" : null,
                           onclick: () => conn.send({ type: "undo" }) }, "Take back my last move"), why ? " " : null, why);
  }
  render(out, $("controls"));
}

// ----- hints: the search's preferred moves, from this seat's view ----------------------------------
const HINT_SECONDS = [1, 2, 5];
const HINT_KEY = "nemeton:hint-seconds";

function hintSeconds() {
  try {
    const s = Number(localStorage.getItem(HINT_KEY));
    return HINT_SECONDS.includes(s) ? s : 2;
  } catch (err) { return 2; }
}

// A hint holds while the seat's choices are those it was asked for: it vanishes when the seat moves.
function decisionKey(snap) {
  return JSON.stringify(snap.legal_actions || []);
}

function hintsShown(conn, snap) {
  const hint = conn.hint;
  if (!hint || hint.state !== "shown" || conn.pending || hint.key !== decisionKey(snap)) return [];
  return hint.moves;
}

function canAskHint(conn, snap) {
  return conn.seat !== null && snap.hints && !snap.terminal && !snap.waiting && !snap.stand_in
    && snap.legal_actions.length > 0 && !conn.pending && page.passTo === null;
}

async function askHint(conn) {
  const seconds = hintSeconds();
  const key = decisionKey(conn.snap);
  const mine = { key, state: "thinking", seconds, started: performance.now(), moves: [] };
  conn.hint = mine;
  update();
  const clock = setInterval(() => { if (conn.hint === mine) drawHint(page.focus, page.focus.snap); }, 100);
  try {
    const answer = await api("POST", `/api/rooms/${encodeURIComponent(roomId)}/hint`, { token: conn.token, seconds });
    if (conn.hint !== mine) return;
    conn.hint = { ...mine, state: "shown", moves: answer.hints.map((m, i) => ({ ...m, rank: i + 1 })) };
  } catch (err) {
    if (conn.hint === mine) conn.hint = null;
    toast(err.message, "error");
  } finally {
    clearInterval(clock);
  }
  if (page.focus === conn) update();
}

function drawHint(conn, snap) {
  const box = $("hint-panel");
  const own = conn.seat !== null && snap.hints && !snap.terminal && !snap.waiting && page.passTo === null;
  box.hidden = !own;
  if (!own) { clear(box); return; }
  const hint = conn.hint && conn.hint.key === decisionKey(snap) ? conn.hint : null;
  const thinking = hint && hint.state === "thinking";
  const shown = hintsShown(conn, snap);
  const ask = canAskHint(conn, snap);
  const out = [h("h2", {}, "Hint")];
  if (ask || thinking) {
    const seconds = hintSeconds();
    out.push(h("div", { class: "hint-ask" },
      h("label", { class: "hint-time" }, "Think for ",
        h("select", { id: "hint-seconds", "aria-label": "how long the hint thinks", disabled: thinking,
                      onchange: (e) => { try { localStorage.setItem(HINT_KEY, e.target.value); } catch (err) { /* private mode */ } update(); } },
          HINT_SECONDS.map((s) => h("option", { key: s, value: String(s), selected: s === seconds }, `${s} s`)))),
      h("button", { type: "button", id: "hint-button", class: "primary", disabled: thinking,
                    onclick: () => askHint(conn) }, shown.length ? "Ask again" : "Hint")));
  }
  if (thinking) {
    const elapsed = (performance.now() - hint.started) / 1000;
    out.push(h("div", { class: "hint-progress", role: "status" },
      h("progress", { id: "hint-progress", max: elapsed < hint.seconds ? hint.seconds : null,
                      value: elapsed < hint.seconds ? elapsed : null, "aria-label": "the search is thinking" }),
      h("span", {}, `Thinking… ${Math.min(elapsed, hint.seconds).toFixed(1)} of ${hint.seconds} s`)));
  } else if (shown.length) {
    out.push(h("ol", { id: "hint-list", class: "hint-list" }, shown.map((m) => h("li", { key: m.rank, dataset: { rank: m.rank } },
      h("span", { class: "hint-rank", "aria-hidden": "true" }, String(m.rank)),
      h("span", { class: "hint-move" }, label(m.action)),
      h("span", { class: "hint-win" }, `${Math.round(m.win * 100)}% win chance`)))),
    h("p", { class: "hint" }, "Marked on the table. Worked out from what you can see only: the search does not know the hidden cards."));
  } else if (!ask) {
    out.push(h("p", { class: "hint" }, "Hints are on in this room: ask for one when it is your turn."));
  }
  render(out, box);
}

// ----- open seats: waiting for players -------------------------------------------------------
function drawWaiting(conn, snap, seats) {
  const box = $("waiting");
  if (!snap.waiting || snap.terminal) { box.hidden = true; clear(box); return; }
  box.hidden = false;
  const open = snap.open_seats || [];
  const mine = [...page.conns.keys()].filter((k) => k !== "watch");
  const out = [h("h2", {}, "Waiting for players"),
    h("p", {}, `The game starts when every seat is taken: ${open.length} open seat${open.length === 1 ? "" : "s"} left.`)];
  const link = `${location.origin}/rooms/${encodeURIComponent(roomId)}`;
  out.push(h("p", { class: "hint" }, "Anyone with this link can take an open seat:"),
    linkRow(link, { id: "open-link", label: "link to take an open seat", onCopy: copy }));
  if (!mine.length) {  // a visitor: take a seat with a name (what they type survives a push)
    out.push(h("label", { class: "field" }, "Your name ",
      h("input", { id: "join-name", maxlength: MAX_NAME, defaultValue: myName(), autocomplete: "nickname",
                   placeholder: "the name others see", "aria-label": "your name" })),
    h("p", { class: "error", role: "alert", id: "join-error" }),
    h("div", { class: "button-row" }, open.map((s) => h("button", {
      key: s, type: "button", class: "primary take-seat", dataset: { seat: s },
      "aria-label": `Take the ${seatColour(s).name} ${seatColour(s).symbol} open seat`,
      onclick: (e) => takeOpenSeat(roomId, s, $("join-name"), $("join-error"), e.currentTarget, seats) }, "Take ", seatBadge(s, "Open seat")))));
  } else {
    for (const seat of mine) {
      if (page.tokens.joined && page.tokens.joined[seat]) {
        out.push(h("button", { key: `leave-${seat}`, type: "button", class: "leave-seat", onclick: () => leave(seat) },
          `Leave my seat (${seatNameOf(seats, seat)})`));
      }
    }
  }
  render(out, box);
}

async function leave(seat) {
  try {
    await api("POST", `/api/rooms/${encodeURIComponent(roomId)}/leave`, { token: page.tokens.seats[seat] });
    forgetSeat(roomId, seat);
    location.href = `/rooms/${encodeURIComponent(roomId)}?watch`;
  } catch (err) { toast(err.message, "error"); }
}

// The creator's panel: updated in place at every push (a copy button keeps the focus).
function drawCreator(snap, seats) {
  const box = $("creator");
  const creator = page.tokens.creator;
  if (!creator) { box.hidden = true; return; }
  box.hidden = false;
  const invites = page.tokens.invites || {};
  const items = seats.filter((s) => s.kind === "human").map((s) => {
    const out = [seatBadge(s.seat, s.open ? "Open seat" : s.name)];
    const token = invites[s.seat];
    if (token && !s.open) {
      const link = `${location.origin}/rooms/${encodeURIComponent(roomId)}?token=${encodeURIComponent(token)}`;
      out.push(linkRow(link, { label: `invite link for ${s.name}`, dataset: { seat: s.seat }, buttonClass: "copy-invite", onCopy: copy }),
        h("span", { class: "hint" }, s.connected ? "here" : "not here yet: send them this link"));
    }
    if (!snap.terminal && !s.open && !snap.waiting) {
      out.push(s.stand_in
        ? h("button", { type: "button", onclick: () => handSeat(s.seat, null) }, `Give back to ${s.name}`)
        : h("button", { type: "button", onclick: () => handSeat(s.seat, "heuristic") }, "Hand to the AI"));
    }
    return h("li", { key: s.seat }, out);
  });
  const watch = `${location.origin}/rooms/${encodeURIComponent(roomId)}?watch`;
  // open while a friend has yet to come (their link is what they need), folded away after;
  // a person's own opening or folding stays until that changes (preact sets `open` only then)
  const expected = seats.some((s) => invites[s.seat] && !s.connected && !s.open) || Boolean(snap.waiting);
  render(h("details", { open: expected }, h("summary", {}, h("h2", {}, "Your room")),
    h("p", { class: "hint" }, Object.keys(invites).length
      ? "You created this room: send each friend their own invite link (it is their seat: keep it private); hand an absent player's seat to the AI and back."
      : "You created this room: hand an absent player's seat to the AI and back."),
    h("p", { class: "hint" }, page.info.listed === false ? "Unlisted: the lobby does not show this room; only its links lead here."
      : "Listed in the lobby: anyone may watch."),
    h("p", { class: "hint", id: "hints-setting" }, snap.hints ? "Hints on: each player may ask the search for its preferred moves."
      : "Hints off in this room."),
    h("ul", { class: "creator-seats" }, items),
    h("div", { class: "invite-row" }, h("label", { class: "field" }, "Spectators ",
      h("input", { class: "invite", id: "watch-link", readonly: true, value: watch, "aria-label": "link for spectators" })),
      h("button", { type: "button", onclick: () => copy(watch) }, "Copy link"))), box);
}

async function copy(text) {
  try { await navigator.clipboard.writeText(text); toast("Link copied"); } catch (err) { toast("Select the link and copy it", "error"); }
}

async function handSeat(seat, agent) {
  try {
    await api("POST", `/api/rooms/${encodeURIComponent(roomId)}/seats/${seat}`, { token: page.tokens.creator, agent });
  } catch (err) { toast(err.message, "error"); }
}

function drawScore(conn, snap, seats) {
  const box = $("score");
  if (!snap.terminal || page.scoreDismissed || page.passTo !== null) { box.hidden = true; return; }
  const last = [...conn.log].reverse().find((e) => e.kind === "game_won" || e.kind === "game_end");
  render(last ? parts(last.parts, seats, last.text) : null, $("score-winner"));
  drawScoreSheet(page.game, $("score-body"), { ...page.ctx, view: snap.view, legal: [], mode: "score" }, seats);
  render([
    h("a", { class: "button", href: `/rooms/${encodeURIComponent(roomId)}/replay` }, "Replay"),
    h("a", { class: "button", id: "analyse", href: `/rooms/${encodeURIComponent(roomId)}/analysis` }, "Analyse the game"),
    rematchButton(snap),
    h("button", { type: "button", onclick: () => { page.scoreDismissed = true; update(); } }, "See the table"),
    h("a", { class: "button", href: "/" }, "Lobby")], $("score-actions"));
  box.hidden = false;
}

function rematchButton(snap) {
  if (snap.rematch) return h("button", { type: "button", class: "primary", onclick: () => goRematch(snap.rematch) }, "Go to the rematch");
  if (!page.tokens.creator) return h("span", { class: "hint" }, "The room's creator can start a rematch.");
  return h("button", { type: "button", class: "primary", onclick: async () => {
    try {
      const made = await api("POST", `/api/rooms/${encodeURIComponent(roomId)}/rematch`, { token: page.tokens.creator });
      goRematch(made.room);
    } catch (err) { toast(err.message, "error"); }
  } }, "Rematch (same seats)");
}

function goRematch(newRoom) {
  saveTokens(newRoom, page.tokens);  // every person keeps their token in the rematch
  const single = params.get("token");
  location.href = `/rooms/${encodeURIComponent(newRoom)}${single ? `?token=${encodeURIComponent(single)}` : ""}`;
}

// For tests and debugging: what this page was last sent (nothing it was not sent).
window.nemeton = {
  get snapshot() { return page.focus && page.focus.snap; },
  get seat() { return page.focus && page.focus.seat; },
  get pending() { return Boolean(page.focus && page.focus.pending); },  // a move on its way
};

start();
