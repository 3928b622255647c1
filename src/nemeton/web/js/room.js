// A room's page: one seat's table (/rooms/ROOM?token=T), every seat this device holds in turn
// (hotseat: a "pass the device" screen between people), or the spectator's (no token, ?watch).
// It draws only what the server sends: the seat's view, its legal actions and its log.

import { MAX_NAME, api, forgetSeat, h as domH, isMessage, loadRenderer, loadTokens, myName, rememberSeat,
  renderParts, saveTokens, seatColour, takeOpenSeat, toast } from "./common.js";
import { clear, drawGame, drawScoreSheet, entryParts, h, linkRow, logRounds, parts, render, seatBadge } from "./kit.js";
import { agentLabel, colourName, localSeats, partsText, seatNameOf } from "./text.js";
import { fmtNumber, fmtPercent, language, msgParts, startPage, t, tNodes } from "./i18n.js";
import { showRules } from "./rules.js";

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
        fatal(event.reason || t("nemeton.web.room.refused"));
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
      if (message.seats) message.seats = localSeats(message.seats);  // names the server made up, in this page's language
      this.snap = message;
      this.seats = message.seats || this.seats;
      this.pending = false;
      update();
    } else if (message.type === "seats") {
      this.seats = localSeats(message.seats);
      update();
    } else if (message.type === "ok") {
      // the new state was pushed just before
    } else if (message.type === "error") {
      this.pending = false;
      const told = isMessage(message.msg) ? msgParts(message.msg) : message.parts;
      toast(domH("span", {}, renderParts(told, this.seats, message.message)), "error");
      update();
    }
  }

  send(message) {
    if (!this.connected) { toast(t("nemeton.web.room.not_connected"), "error"); return false; }
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
  $("connection").textContent = down ? t("nemeton.web.room.reconnecting") : t("nemeton.web.room.connected");
  $("connection").classList.toggle("down", down > 0);
}

function fatal(message) {
  $("title").textContent = t("nemeton.web.room.cannot_open");
  render(h("p", { class: "fatal" }, message, " ", h("a", { href: "/" }, t("nemeton.web.back_to_lobby"))), $("board"));
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
  page.info.seats = localSeats(page.info.seats);
  const game = page.catalogue.find((g) => g.name === page.info.game);
  document.title = `${game ? game.title : page.info.game} · Nemeton`;
  for (const id of ["rules-button", "rules-tab"]) {  // the top bar's, and a phone's (the tabs')
    $(id).hidden = false;
    $(id).addEventListener("click", () => showRules(page.info.game, language()));
  }
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
  document.querySelectorAll(".tabs button[data-tab]").forEach((b) => b.addEventListener("click", () => showTab(b.dataset.tab)));
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
  document.querySelectorAll(".tabs button[data-tab]").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.tab === tab)));
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
  $("pass-title").textContent = t("nemeton.web.room.pass_to", { name });
  $("pass-text").textContent = t("nemeton.web.room.pass_text", { name });
  $("pass-ready").textContent = t("nemeton.web.room.pass_ready", { name });
  pass.hidden = false;
  $("pass-ready").focus();
}

function drawHeader(conn, snap, seats, names) {
  const game = page.catalogue.find((g) => g.name === page.info.game);
  const title = game ? game.title : page.info.game;
  $("title").textContent = snap.view.round ? t("nemeton.web.room.title_round", { game: title, round: snap.view.round }) : title;
  let said;
  if (snap.terminal) {
    said = t("nemeton.web.room.game_over");
  } else if (snap.waiting) {
    said = t("nemeton.web.room.waiting_open_seats", { count: (snap.open_seats || []).length });
  } else if (conn.seat !== null && snap.legal_actions.length) {
    said = h("strong", { class: "your-turn" }, hotseat() ? t("nemeton.web.room.your_turn_name", { name: names(conn.seat) }) : t("nemeton.web.room.your_turn"));
  } else {
    const acting = snap.acting.map((s, i) => [
      i ? ", " : null, seatBadge(s, names(s)),
      seats[s] && (seats[s].kind === "ai" || seats[s].stand_in) ? h("span", { class: "spinner", "aria-label": t("nemeton.web.room.thinking") }) : null]);
    said = acting.length ? tNodes("nemeton.web.room.waiting_for", {}, { seats: acting }) : null;
  }
  const standIn = conn.snap.stand_in && conn.snap.stand_in.until_return
    ? [" · ", t("nemeton.web.room.stand_in", { agent: agentName(conn.snap.stand_in.agent) }), " ",
      h("button", { type: "button", onclick: () => conn.send({ type: "return" }) }, t("nemeton.web.room.back"))] : null;
  render([said, standIn], $("status"));
}

// An agent's label in the page's language ("Euristica" for heuristic), as the lobby offered it.
function agentName(agent) {
  const game = page.catalogue.find((g) => g.name === page.info.game);
  return agentLabel(game && game.agents, agent);
}

function drawPlayers(conn, snap, seats) {
  const rows = seats.map((s) => {
    const acting = snap.acting.includes(s.seat) && !snap.terminal && !snap.waiting;
    const score = snap.view.scores ? snap.view.scores[s.seat] : null;
    return h("li", { key: s.seat, class: `player${acting ? " acting" : ""}${s.seat === conn.seat ? " me" : ""}`,
                     style: `--seat:${seatColour(s.seat).css}` },
      h("span", { class: "marker", "aria-hidden": "true" }, acting ? "▶" : ""),
      seatBadge(s.seat, s.name),
      s.seat === conn.seat ? h("span", { class: "tag" }, t("nemeton.web.room.you_tag")) : null,
      h("span", { class: "kind" }, s.kind === "ai" ? t("nemeton.web.ai_kind", { agent: agentName(s.agent) }) : s.open ? t("nemeton.web.room.open_seat_kind")
        : (s.stand_in ? t("nemeton.web.room.played_by", { agent: agentName(s.stand_in) }) : (s.connected ? t("nemeton.web.room.online") : t("nemeton.web.away")))),
      acting ? h("span", { class: "tag acting-tag" }, t("nemeton.web.room.to_act")) : null,
      score !== null && score !== undefined ? h("span", { class: "score", title: t("nemeton.web.score") }, String(score)) : null);
  });
  render([h("h2", {}, t("nemeton.web.players")), h("ul", {}, rows)], $("players"));
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
  $("moves").querySelector("summary").textContent = t("nemeton.web.room.moves_count", { count: legal.length });
  render(legal.map((a) => h("li", { key: JSON.stringify(a) },
    h("button", { type: "button", class: "move", onclick: () => conn.act(a) }, label(a)))), $("moves-list"));
}

function drawControls(conn, snap) {
  const out = [];
  if (!snap.terminal && snap.moves > 0) {
    out.push(h("a", { class: "button", id: "replay-so-far", href: `/rooms/${encodeURIComponent(roomId)}/replay` },
      t("nemeton.web.room.replay_so_far")), " ");
  }
  if (snap.undo && conn.seat !== null && !snap.terminal && !snap.waiting) {
    // offered only when the server would grant it; else disabled, with the server's reason
    const info = snap.take_back || { allowed: false, reason: "", parts: [] };
    const seats = conn.seats.length ? conn.seats : page.info.seats;
    const why = info.allowed ? null : h("span", { id: "undo-reason", class: "hint" }, parts(info.parts, seats, info.reason || ""));
    out.push(h("button", { type: "button", id: "undo", disabled: !info.allowed || conn.pending,
                           title: info.allowed ? t("nemeton.web.room.undo_title") : partsText(info.parts, seats, info.reason || ""),
                           "aria-describedby": why ? "undo-reason" : null,
                           onclick: () => conn.send({ type: "undo" }) }, t("nemeton.web.room.undo")), why ? " " : null, why);
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
  const out = [h("h2", {}, t("nemeton.web.hint.title"))];
  if (ask || thinking) {
    const seconds = hintSeconds();
    out.push(h("div", { class: "hint-ask" },
      h("label", { class: "hint-time" }, t("nemeton.web.hint.think_for"), " ",
        h("select", { id: "hint-seconds", "aria-label": t("nemeton.web.hint.seconds_label"), disabled: thinking,
                      onchange: (e) => { try { localStorage.setItem(HINT_KEY, e.target.value); } catch (err) { /* private mode */ } update(); } },
          HINT_SECONDS.map((s) => h("option", { key: s, value: String(s), selected: s === seconds }, t("nemeton.web.hint.seconds", { seconds: s }))))),
      h("button", { type: "button", id: "hint-button", class: "primary", disabled: thinking,
                    onclick: () => askHint(conn) }, shown.length ? t("nemeton.web.hint.ask_again") : t("nemeton.web.hint.title"))));
  }
  if (thinking) {
    const elapsed = (performance.now() - hint.started) / 1000;
    out.push(h("div", { class: "hint-progress", role: "status" },
      h("progress", { id: "hint-progress", max: elapsed < hint.seconds ? hint.seconds : null,
                      value: elapsed < hint.seconds ? elapsed : null, "aria-label": t("nemeton.web.hint.thinking_label") }),
      h("span", {}, t("nemeton.web.hint.thinking", { elapsed: fmtNumber(Math.min(elapsed, hint.seconds), 1), seconds: hint.seconds }))));
  } else if (shown.length) {
    out.push(h("ol", { id: "hint-list", class: "hint-list" }, shown.map((m) => h("li", { key: m.rank, dataset: { rank: m.rank } },
      h("span", { class: "hint-rank", "aria-hidden": "true" }, String(m.rank)),
      h("span", { class: "hint-move" }, label(m.action)),
      h("span", { class: "hint-win" }, t("nemeton.web.hint.win_chance", { percent: fmtPercent(m.win) }))))),
    h("p", { class: "hint" }, t("nemeton.web.hint.explained")));
  } else if (!ask) {
    out.push(h("p", { class: "hint" }, t("nemeton.web.hint.on_in_room")));
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
  const out = [h("h2", {}, t("nemeton.web.room.waiting_title")),
    h("p", {}, t("nemeton.web.room.starts_when_taken", { count: open.length }))];
  const link = `${location.origin}/rooms/${encodeURIComponent(roomId)}`;
  out.push(h("p", { class: "hint" }, t("nemeton.web.room.anyone_with_link")),
    linkRow(link, { id: "open-link", label: t("nemeton.web.room.open_link_label"), onCopy: copy }));
  if (!mine.length) {  // a visitor: take a seat with a name (what they type survives a push)
    out.push(h("label", { class: "field" }, t("nemeton.web.your_name"), " ",
      h("input", { id: "join-name", maxlength: MAX_NAME, defaultValue: myName(), autocomplete: "nickname",
                   placeholder: t("nemeton.web.name_placeholder"), "aria-label": t("nemeton.web.your_name") })),
    h("p", { class: "error", role: "alert", id: "join-error" }),
    h("div", { class: "button-row" }, open.map((s) => h("button", {
      key: s, type: "button", class: "primary take-seat", dataset: { seat: s },
      "aria-label": t("nemeton.web.take_open_seat_label", { colour: colourName(s), symbol: seatColour(s).symbol }),
      onclick: (e) => takeOpenSeat(roomId, s, $("join-name"), $("join-error"), e.currentTarget, seats) },
      tNodes("nemeton.web.room.take_seat", {}, { seat: seatBadge(s, t("nemeton.web.open_seat")) })))));
  } else {
    for (const seat of mine) {
      if (page.tokens.joined && page.tokens.joined[seat]) {
        out.push(h("button", { key: `leave-${seat}`, type: "button", class: "leave-seat", onclick: () => leave(seat) },
          t("nemeton.web.room.leave_seat", { name: seatNameOf(seats, seat) })));
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
    const out = [seatBadge(s.seat, s.open ? t("nemeton.web.open_seat") : s.name)];
    const token = invites[s.seat];
    if (token && !s.open) {
      const link = `${location.origin}/rooms/${encodeURIComponent(roomId)}?token=${encodeURIComponent(token)}`;
      out.push(linkRow(link, { label: t("nemeton.web.room.invite_label", { name: s.name }), dataset: { seat: s.seat }, buttonClass: "copy-invite", onCopy: copy }),
        h("span", { class: "hint" }, s.connected ? t("nemeton.web.room.here") : t("nemeton.web.room.not_here_yet")));
    }
    if (!snap.terminal && !s.open && !snap.waiting) {
      out.push(s.stand_in
        ? h("button", { type: "button", onclick: () => handSeat(s.seat, null) }, t("nemeton.web.room.give_back", { name: s.name }))
        : h("button", { type: "button", onclick: () => handSeat(s.seat, "heuristic") }, t("nemeton.web.room.hand_to_ai")));
    }
    return h("li", { key: s.seat }, out);
  });
  const watch = `${location.origin}/rooms/${encodeURIComponent(roomId)}?watch`;
  // open while a friend has yet to come (their link is what they need), folded away after;
  // a person's own opening or folding stays until that changes (preact sets `open` only then)
  const expected = seats.some((s) => invites[s.seat] && !s.connected && !s.open) || Boolean(snap.waiting);
  render(h("details", { open: expected }, h("summary", {}, h("h2", {}, t("nemeton.web.room.your_room"))),
    h("p", { class: "hint" }, Object.keys(invites).length
      ? t("nemeton.web.room.creator_invites")
      : t("nemeton.web.room.creator")),
    h("p", { class: "hint" }, page.info.listed === false ? t("nemeton.web.room.unlisted")
      : t("nemeton.web.room.listed")),
    h("p", { class: "hint", id: "hints-setting" }, snap.hints ? t("nemeton.web.room.hints_on")
      : t("nemeton.web.room.hints_off")),
    h("ul", { class: "creator-seats" }, items),
    h("div", { class: "invite-row" }, h("label", { class: "field" }, t("nemeton.web.room.spectators"), " ",
      h("input", { class: "invite", id: "watch-link", readonly: true, value: watch, "aria-label": t("nemeton.web.room.spectators_label") })),
      h("button", { type: "button", onclick: () => copy(watch) }, t("nemeton.web.copy_link")))), box);
}

async function copy(text) {
  try { await navigator.clipboard.writeText(text); toast(t("nemeton.web.room.copied")); } catch (err) { toast(t("nemeton.web.room.copy_failed"), "error"); }
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
  render(last ? parts(entryParts(last), seats, last.text) : null, $("score-winner"));
  drawScoreSheet(page.game, $("score-body"), { ...page.ctx, view: snap.view, legal: [], mode: "score" }, seats);
  render([
    h("a", { class: "button", href: `/rooms/${encodeURIComponent(roomId)}/replay` }, t("nemeton.web.replay_button")),
    h("a", { class: "button", id: "analyse", href: `/rooms/${encodeURIComponent(roomId)}/analysis` }, t("nemeton.web.analyse_game")),
    rematchButton(snap),
    h("button", { type: "button", onclick: () => { page.scoreDismissed = true; update(); } }, t("nemeton.web.room.see_table")),
    h("a", { class: "button", href: "/" }, t("nemeton.web.lobby_button"))], $("score-actions"));
  box.hidden = false;
}

function rematchButton(snap) {
  if (snap.rematch) return h("button", { type: "button", class: "primary", onclick: () => goRematch(snap.rematch) }, t("nemeton.web.room.go_rematch"));
  if (!page.tokens.creator) return h("span", { class: "hint" }, t("nemeton.web.room.creator_rematch"));
  return h("button", { type: "button", class: "primary", onclick: async () => {
    try {
      const made = await api("POST", `/api/rooms/${encodeURIComponent(roomId)}/rematch`, { token: page.tokens.creator });
      goRematch(made.room);
    } catch (err) { toast(err.message, "error"); }
  } }, t("nemeton.web.room.rematch"));
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

startPage().then(start);
