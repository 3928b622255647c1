// The lobby: create a game (game, players, options with their help, who sits where), and the
// list of games to join, watch or replay.

import { MAX_NAME, agentLabel, api, colourName, h, loadTokens, localSeats, myName, renderParts, saveTokens, seatBadge, seatColour,
  shownMessage, takeOpenSeat } from "./common.js";
import { fmtDate, fmtRelative, language, startPage, t } from "./i18n.js";
import { showRules } from "./rules.js";

const $ = (id) => document.getElementById(id);
let catalogue = [];
let game = null;
let filter = "open";

// who plays a seat (the words are drawn in the page's language, once it is loaded)
const SEAT_KINDS = () => [
  { value: "here", label: t("nemeton.web.lobby.kind_here") },
  { value: "invite", label: t("nemeton.web.lobby.kind_invite") },
  { value: "open", label: t("nemeton.web.lobby.kind_open") },
  { value: "ai", label: t("nemeton.web.lobby.kind_ai") },
];

async function start() {
  try {
    catalogue = await api("GET", "/api/games");
  } catch (err) {
    $("form-error").textContent = t("nemeton.web.lobby.unreachable", { error: err.message });
    return;
  }
  // each game: its choice and a button that opens its rules summary in the page's language
  $("game-choice").replaceChildren(...catalogue.map((g, i) => h("span", { class: "game-card", dataset: { game: g.name } },
    h("label", { class: "game-option" },
      h("input", { type: "radio", name: "game", value: g.name, checked: i === 0, onchange: () => choose(g.name) }),
      h("span", {}, g.title)),
    h("button", { type: "button", class: "rules-button", "aria-label": t("nemeton.web.rules.open_game", { game: g.title }),
                  title: t("nemeton.web.rules.open_game", { game: g.title }), onclick: () => showRules(g.name, language()) },
      t("nemeton.web.rules.open")))));
  choose(catalogue[0].name);
  $("players").addEventListener("change", drawSeats);
  $("new-game").addEventListener("submit", create);
  $("hints").addEventListener("change", () => { hintsChosen = true; });
  document.querySelectorAll(".rooms-filter button").forEach((b) => b.addEventListener("click", () => {
    filter = b.dataset.filter;
    document.querySelectorAll(".rooms-filter button").forEach((x) => x.setAttribute("aria-pressed", String(x === b)));
    listRooms();
  }));
  $("my-name").value = myName();
  $("my-name").maxLength = MAX_NAME;
  listRooms();
  setInterval(listRooms, 5000);
}

function choose(name) {
  game = catalogue.find((g) => g.name === name);
  $("game-summary").textContent = shownMessage(game.summary_msg, game.summary);
  $("players").replaceChildren(...game.players.map((n) => h("option", { value: n }, t("nemeton.web.players_count", { count: n }))));
  drawSeats();
  drawOptions();
}

function drawSeats() {
  const n = Number($("players").value);
  const old = [...$("seat-list").children].map((li) => ({
    kind: li.querySelector(".seat-kind").value, name: li.querySelector(".seat-name").value,
    agent: li.querySelector(".seat-agent").value }));
  const rows = [];
  for (let i = 0; i < n; i++) {
    const was = old[i] || { kind: i === 0 ? "here" : "ai", name: i === 0 ? t("nemeton.web.lobby.you_name") : "", agent: "heuristic" };
    const kind = h("select", { class: "seat-kind", "aria-label": t("nemeton.web.lobby.seat_kind_label", { n: i + 1 }) },
      SEAT_KINDS().map((k) => h("option", { value: k.value, selected: k.value === was.kind }, k.label)));
    const name = h("input", { class: "seat-name", value: was.name, placeholder: t("nemeton.web.player_n", { n: i + 1 }), maxlength: MAX_NAME,
                              "aria-label": t("nemeton.web.lobby.seat_name_label", { n: i + 1 }) });
    const agent = h("select", { class: "seat-agent", "aria-label": t("nemeton.web.lobby.seat_agent_label", { n: i + 1 }) },
      game.agents.map((a) => h("option", { value: a.spec, selected: a.spec === was.agent, title: shownMessage(a.help_msg, a.help) },
        agentLabel([a], a.spec))));
    const sync = () => { name.hidden = kind.value === "ai" || kind.value === "open"; agent.hidden = kind.value !== "ai"; };
    kind.addEventListener("change", sync);
    kind.addEventListener("change", suggestHints);
    sync();
    rows.push(h("li", { class: "seat-row" }, seatBadge(i, ""), kind, name, agent));
  }
  $("seat-list").replaceChildren(...rows);
  suggestHints();
}

// Hints are on by default against the AI and when everyone plays on this device (hotseat), off
// when two or more people play from their own links (online); the creator's own choice stays.
let hintsChosen = false;
function suggestHints() {
  const kinds = [...$("seat-list").children].map((li) => li.querySelector(".seat-kind").value);
  const people = kinds.filter((k) => k !== "ai");
  const online = people.length >= 2 && people.some((k) => k !== "here");
  $("hints-default").textContent = online ? t("nemeton.web.lobby.hints_off_default")
    : t("nemeton.web.lobby.hints_on_default");
  if (!hintsChosen) $("hints").checked = !online;
}

// An option's words in the page's language (its messages from the server), else the English.
const optionLabel = (o) => shownMessage(o.label_msg, o.name.replaceAll("_", " "));
const optionHelp = (o) => shownMessage(o.help_msg, o.help);
const optionAllowed = (o) => shownMessage(o.allowed_msg, o.allowed);
const choiceLabel = (o, c) => shownMessage(o.choices_msg && o.choices_msg[c], c);

function drawOptions() {
  const fields = game.options.map((o) => {
    let input;
    if (o.kind === "bool") {
      input = h("input", { type: "checkbox", name: o.name, checked: !!o.default });
      return h("div", { class: "option" }, h("label", { class: "check" }, input, " ", optionLabel(o)),
        h("p", { class: "hint" }, optionHelp(o)));
    }
    if (o.kind === "choice") {
      input = h("select", { name: o.name }, o.choices.map((c) => h("option", { value: c, selected: c === String(o.default) }, choiceLabel(o, c))));
    } else if (o.kind === "int") {
      input = h("input", { type: "number", name: o.name, value: o.default ?? "", placeholder: o.default === null ? t("nemeton.web.lobby.option_none") : "" });
    } else if (o.kind === "data") {
      input = h("input", { type: "file", name: o.name, accept: ".toml,.json,.yaml,.yml,.txt" });
    } else {
      input = h("input", { name: o.name, value: o.default ?? "" });
    }
    return h("div", { class: "option" }, h("label", { class: "field" }, optionLabel(o), " ", input),
      h("p", { class: "hint" }, `${optionHelp(o)} (${optionAllowed(o)})`));
  });
  $("options").replaceChildren(...(fields.length ? fields : [h("p", { class: "hint" }, t("nemeton.web.lobby.no_options"))]));
}

async function readOptions() {
  const options = {};
  for (const o of game.options) {
    const input = $("options").querySelector(`[name="${o.name}"]`);
    if (!input) continue;
    if (o.kind === "bool") { if (input.checked !== !!o.default) options[o.name] = input.checked; }
    else if (o.kind === "int") { if (input.value !== "") options[o.name] = Number(input.value); }
    else if (o.kind === "data") { if (input.files && input.files[0]) options[o.name] = await input.files[0].text(); }
    else if (input.value !== String(o.default ?? "")) options[o.name] = input.value;
  }
  return options;
}

async function create(event) {
  event.preventDefault();
  $("form-error").textContent = "";
  const rows = [...$("seat-list").children].map((li, i) => ({
    kind: li.querySelector(".seat-kind").value, typed: li.querySelector(".seat-name").value.trim(),
    name: li.querySelector(".seat-name").value.trim() || t("nemeton.web.player_n", { n: i + 1 }),
    agent: li.querySelector(".seat-agent").value }));
  // a seat left without a name is named by the server ("Player 2"), which every reader sees in their language
  const seats = rows.map((r) => (r.kind === "ai" ? { kind: "ai", agent: r.agent }
    : r.kind === "open" ? { kind: "open" } : r.typed ? { kind: "human", name: r.typed } : { kind: "human" }));
  const body = { game: game.name, options: { players: rows.length, ...(await readOptions()) }, seats,
                 undo: $("undo").checked, listed: $("listed").checked, hints: $("hints").checked };
  if ($("timeout").value) body.turn_timeout_s = Number($("timeout").value);
  $("create").disabled = true;
  try {
    const made = await api("POST", "/api/rooms", body);
    const tokens = { seats: {}, invites: {}, creator: made.creator };
    for (const s of made.seats) {
      if (rows[s.seat].kind === "here") tokens.seats[s.seat] = s.token;
      else tokens.invites[s.seat] = s.token;
    }
    saveTokens(made.room, tokens);
    location.href = `/rooms/${encodeURIComponent(made.room)}${Object.keys(tokens.seats).length ? "" : "?watch"}`;
  } catch (err) {  // the server names seats as references: drawn with the form's names
    $("form-error").replaceChildren(...renderParts(err.parts, rows.map((r, i) => ({ seat: i, name: r.kind === "ai" ? t("nemeton.web.lobby.the_ai") : r.kind === "open" ? t("nemeton.web.lobby.the_open_seat") : r.name })), err.message));
    $("create").disabled = false;
  }
}

// Take an open seat of a room with the name typed above the list; then open its page.
async function takeSeat(room, seat, button) {
  if (!(await takeOpenSeat(room, seat, $("my-name"), $("join-error"), button))) listRooms();
}

async function listRooms() {
  const asked = filter;
  let rooms;
  try { rooms = await api("GET", "/api/rooms?limit=100"); } catch (err) { return; }
  if (asked !== filter) return;  // another filter was chosen meanwhile: its own listing follows
  const mine = (r) => Object.keys(loadTokens(r.room).seats).length > 0 || loadTokens(r.room).creator;
  const shown = rooms.filter((r) => (filter === "finished" ? r.status === "finished"
    : filter === "yours" ? mine(r)
      : filter === "playing" ? r.status !== "finished"
        : r.status === "waiting" && r.open_seats.length && !mine(r)));
  $("join-box").hidden = filter !== "open" || !shown.length;
  const title = (name) => (catalogue.find((g) => g.name === name) || { title: name }).title;
  const agents = (name) => (catalogue.find((g) => g.name === name) || { agents: [] }).agents;
  $("rooms").replaceChildren(...(shown.length ? shown.map((r) => {
    const links = [];
    if (mine(r) && r.status !== "finished") links.push(h("a", { class: "button primary", href: `/rooms/${r.room}` }, t("nemeton.web.lobby.continue")));
    if (r.status !== "finished") links.push(h("a", { class: "button", href: `/rooms/${r.room}?watch` }, t("nemeton.web.lobby.watch")));
    else links.push(h("a", { class: "button", href: `/rooms/${r.room}/replay` }, t("nemeton.web.replay_button")));
    const seat = (s) => {
      if (s.open) {
        const take = h("button", { type: "button", class: "take-seat primary", dataset: { seat: s.seat },
                                   "aria-label": t("nemeton.web.take_open_seat_label", { colour: colourName(s.seat), symbol: seatColour(s.seat).symbol }),
                                   onclick: (e) => takeSeat(r.room, s.seat, e.currentTarget) }, t("nemeton.web.lobby.take_it"));
        return h("span", { class: "room-seat open-seat" }, seatBadge(s.seat, t("nemeton.web.open_seat")), " ", mine(r) ? "" : take);
      }
      return h("span", { class: "room-seat" }, seatBadge(s.seat, s.kind === "ai" ? t("nemeton.web.lobby.ai_agent", { agent: agentLabel(agents(r.game), s.agent) }) : s.name),
        s.kind === "human" && !s.connected && r.status === "playing" ? [" ", h("em", {}, t("nemeton.web.away"))] : "");
    };
    const status = r.status === "finished" ? ` · ${t("nemeton.web.lobby.finished")}` : r.status === "waiting"
      ? ` · ${t("nemeton.web.lobby.waiting_for", { count: r.open_seats.length })}` : "";
    return h("li", { class: "room", dataset: { room: r.room } },
      h("div", { class: "room-title" }, h("strong", {}, title(r.game)), ` · ${t("nemeton.web.players_count", { count: r.players })}`, status,
        r.created_at ? [" · ", h("time", { class: "room-created", datetime: r.created_at, title: fmtDate(r.created_at) }, fmtRelative(r.created_at))] : ""),
      h("div", { class: "room-seats" }, localSeats(r.seats).map(seat)),
      h("div", { class: "room-links" }, links));
  }) : [h("li", { class: "hint" }, filter === "open" ? t("nemeton.web.lobby.none_open") : t("nemeton.web.lobby.none_yet"))]));
  $("rooms").dataset.filter = filter;  // what the list shows now (tests wait for it)
}

startPage().then(start);
