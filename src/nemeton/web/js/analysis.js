// A finished game's analysis (/rooms/ROOM/analysis): starts it if nobody has, shows its
// progress, then each seat's win chance over the game, the costly moves (each a link to that
// moment of the replay, seen by the seat that made it) and each seat's accuracy.

import { api, loadRenderer } from "./common.js";
import { h, render, seatBadge } from "./kit.js";
import { CLASSES, costly, winGraph } from "./analysis-graph.js";
import { localSeats, seatNameOf } from "./text.js";
import { fmtNumber, fmtPercent, startPage, t } from "./i18n.js";

const roomId = decodeURIComponent(location.pathname.split("/")[2] || "");
const $ = (id) => document.getElementById(id);
const page = { info: null, game: null };
const room = `/api/rooms/${encodeURIComponent(roomId)}`;

async function start() {
  try {
    page.info = await api("GET", room);
    page.info.seats = localSeats(page.info.seats);  // names the server made up, in the page's language
  } catch (err) { return fail(err.message); }
  const catalogue = await api("GET", "/api/games").catch(() => []);
  const game = catalogue.find((g) => g.name === page.info.game);
  const title = game ? game.title : page.info.game;
  document.title = t("nemeton.web.analysis.document_title", { game: title });
  $("title").textContent = t("nemeton.web.analysis.heading", { game: title });
  document.body.dataset.game = page.info.game;
  render([h("a", { class: "button", href: `/rooms/${encodeURIComponent(roomId)}/replay` }, t("nemeton.web.replay_button")), " ",
    h("a", { class: "button", href: "/" }, t("nemeton.web.lobby_button"))], $("links"));
  if (page.info.status !== "finished") return fail(t("nemeton.web.analysis.not_ended"));
  page.game = await loadRenderer(page.info.game);  // the moves' words, seats by name
  let state;
  try {
    state = await api("GET", `${room}/analysis`);
    if (state.state === "none" || state.state === "failed") state = await api("POST", `${room}/analysis`);
  } catch (err) { return fail(err.message); }
  while (state.state === "running") {
    progress(state);
    await new Promise((r) => setTimeout(r, 500));
    try { state = await api("GET", `${room}/analysis`); } catch (err) { return fail(err.message); }
  }
  if (state.state !== "done") return fail(state.message || t("nemeton.web.analysis.failed"));
  draw(state.analysis);
}

function fail(message) {
  render(h("p", { class: "error", role: "alert" }, message), $("progress"));
}

function progress(state) {
  const known = state.total > 0;
  render([h("h2", {}, t("nemeton.web.analysis.analysing")),
    h("progress", { id: "analysis-progress", max: known ? state.total : null, value: known ? state.done : null,
                    "aria-label": t("nemeton.web.analysis.progress_label") }),
    h("p", { class: "hint" }, known ? t("nemeton.web.analysis.progress", { done: state.done, count: state.total })
      : t("nemeton.web.analysis.starting"))], $("progress"));
}

const name = (seat) => seatNameOf(page.info.seats, seat);
const replayAt = (d) => `/rooms/${encodeURIComponent(roomId)}/replay?step=${d.index}&seat=${d.seat}`;

// A move in the renderer's words (seats by name), read against the view its seat had then (the
// replay's); the teacher's own words where that cannot be had.
function words(entry, view) {
  if (page.game && page.game.label && entry.action && view) {
    try { return page.game.label(entry.action, { view, seat: view.seat, seats: page.info.seats, seatName: name, legal: [], mode: "replay", components: page.info.components || {} }); }
    catch (err) { /* the teacher's words */ }
  }
  return entry.text;
}

/** The teacher's comment in the renderer's words where the moment's view is at hand: what was
 *  played cost about N% win chance (before to after); the best move kept it. */
function comment(d, view) {
  if (!view || !page.game || !page.game.label) return d.comment;
  const args = { move: words(d, view), loss: pct(d.loss), before: pct(d.before), after: pct(d.after) };
  return d.best ? t("nemeton.web.analysis.comment_best", { ...args, best: lower(words(d.best, view)) })
    : t("nemeton.web.analysis.comment", args);
}

const lower = (text) => text.charAt(0).toLowerCase() + text.slice(1);

const MAX_VIEWS = 40;  // the costly moves whose words are read against their moment's view

async function viewsAt(list) {
  const views = new Map();
  await Promise.all(list.slice(0, MAX_VIEWS).map(async (d) => {
    try {
      const data = await api("GET", `${room}/replay?step=${d.index}&seat=${d.seat}`);
      views.set(d.index, data.view);
    } catch (err) { /* the teacher's words */ }
  }));
  return views;
}

async function draw(analysis) {
  const list = costly(analysis);
  const views = await viewsAt(list);
  $("progress").hidden = true;
  $("result").hidden = false;
  render(winGraph(analysis, { moves: page.info.moves, name, href: replayAt }), $("graph"));
  const teams = analysis.teams;
  const legendSeat = (s) => h("li", { key: s.seat }, seatBadge(s.seat, name(s.seat)));
  render(teams ? h("ul", { class: "legend" }, teams.map((team, k) => h("li", { key: k }, t("nemeton.web.analysis.team_legend", { n: k + 1 }), " ",
    h("ul", { class: "legend-team" }, team.map((seat) => legendSeat({ seat }))))))
    : h("ul", { class: "legend" }, analysis.seats.map(legendSeat)), $("legend"));
  render(h("table", { class: "score-table accuracy" },
    h("thead", {}, h("tr", {}, h("th", {}, t("nemeton.web.analysis.player")), teams ? h("th", {}, t("nemeton.web.analysis.team")) : null,
      h("th", {}, t("nemeton.web.analysis.accuracy")), h("th", {}, t("nemeton.web.analysis.decisions")),
      h("th", {}, t("nemeton.web.analysis.inaccuracies")), h("th", {}, t("nemeton.web.analysis.mistakes")),
      h("th", {}, t("nemeton.web.analysis.blunders")))),
    h("tbody", {}, analysis.seats.map((s) => h("tr", { key: s.seat, dataset: { seat: s.seat } },
      h("th", {}, seatBadge(s.seat, name(s.seat))), teams ? h("td", {}, s.team === null ? "" : t("nemeton.web.analysis.team_n", { n: s.team + 1 })) : null,
      h("td", {}, s.accuracy === null || s.accuracy === undefined ? "–" : fmtPercent(s.accuracy / 100, 1)),
      h("td", {}, String(s.decisions)), h("td", {}, String(s.inaccuracies)), h("td", {}, String(s.mistakes)),
      h("td", {}, String(s.blunders)))))), $("accuracy"));
  render(list.length ? list.map((d) => h("li", { key: d.index, class: `costly-move ${d.class}`, dataset: { index: d.index } },
    h("a", { href: replayAt(d), class: "costly-link" },
      h("span", { class: `mark ${d.class}`, "aria-hidden": "true" }, CLASSES[d.class].mark), " ",
      t("nemeton.web.analysis.move_n", { n: d.index + 1 }), " · ", seatBadge(d.seat, name(d.seat)), " · ", CLASSES[d.class].words,
      ` (−${pct(d.loss)})`),
    h("p", { class: "costly-comment" }, comment(d, views.get(d.index)))))
    : h("li", { class: "hint" }, t("nemeton.web.analysis.none_costly", { percent: pct(0.05) })), $("costly"));
  const b = analysis.budget || {};
  const limits = analysis.thresholds || {};
  $("budget").textContent = t("nemeton.web.analysis.budget", {
    iterations: typeof b.iterations === "number" ? b.iterations : String(b.iterations), seed: String(b.seed), engine: String(b.engine),
    inaccuracy: pct(limits.inaccuracy), mistake: pct(limits.mistake), blunder: pct(limits.blunder) });
  document.body.dataset.ready = "1";
}

const pct = (p) => fmtPercent(p || 0);

startPage().then(start);
