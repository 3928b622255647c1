// The replay of a game: step through it as any seat or the spectator saw it. While the game is
// still on, the moves so far, as the spectator saw them or as a seat this browser holds.

import { api, loadRenderer, loadTokens } from "./common.js";
import { clear, drawGame, drawScoreSheet, h, logEntry, render, seatBadge } from "./kit.js";
import { agentLabel, localSeats, seatNameOf } from "./text.js";
import { startPage, t, tNodes } from "./i18n.js";

const roomId = decodeURIComponent(location.pathname.split("/")[2] || "");
const $ = (id) => document.getElementById(id);
const page = { info: null, game: null, agents: [], seat: null, step: 0, steps: 0, data: null, timer: null, cache: new Map() };

async function start() {
  try {
    page.info = await api("GET", `/api/rooms/${encodeURIComponent(roomId)}`);
    page.info.seats = localSeats(page.info.seats);  // names the server made up, in the page's language
  } catch (err) {
    render(h("p", { class: "fatal" }, err.message, " ", h("a", { href: "/" }, t("nemeton.web.back_to_lobby"))), $("board"));
    return;
  }
  const catalogue = await api("GET", "/api/games");
  const game = catalogue.find((g) => g.name === page.info.game);
  page.agents = game ? game.agents : [];  // the agents' labels in the reader's language
  document.title = t("nemeton.web.replay.document_title", { game: game ? game.title : page.info.game });
  $("title").textContent = t("nemeton.web.replay.heading", { game: game ? game.title : page.info.game });
  document.body.dataset.game = page.info.game;
  page.game = await loadRenderer(page.info.game);
  page.tokens = loadTokens(roomId);
  page.over = page.info.status === "finished";
  // a game still on: the spectator's replay, or the replay of a seat this browser holds
  const viewers = page.info.seats.filter((s) => page.over || page.tokens.seats[s.seat]);
  render([h("option", { value: "" }, t("nemeton.web.replay.the_spectator")),
    ...viewers.map((s) => h("option", { value: s.seat }, aiName(s)))], $("viewer"));
  $("note").hidden = page.over;
  $("note").textContent = page.over ? "" : t("nemeton.web.replay.still_playing");
  $("viewer").addEventListener("change", () => { page.seat = $("viewer").value === "" ? null : Number($("viewer").value); page.cache.clear(); go(page.step); });
  $("first").addEventListener("click", () => go(0));
  $("back").addEventListener("click", () => go(page.step - 1));
  $("forward").addEventListener("click", () => go(page.step + 1));
  $("last").addEventListener("click", () => go(page.steps));
  $("play").addEventListener("click", togglePlay);
  $("step").addEventListener("input", () => go(Number($("step").value)));
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    if (e.key === "ArrowLeft") go(page.step - 1);
    if (e.key === "ArrowRight") go(page.step + 1);
  });
  // a link may ask for a moment and a seat (the analysis' moves): ?step=N&seat=S
  const asked = new URLSearchParams(location.search);
  const seat = asked.get("seat");
  if (seat !== null && viewers.some((s) => String(s.seat) === seat)) {
    page.seat = Number(seat);
    $("viewer").value = seat;
  }
  if (page.over) {
    render(h("a", { class: "button", id: "analyse", href: `/rooms/${encodeURIComponent(roomId)}/analysis` }, t("nemeton.web.analyse_game")),
      $("analyse-box"));
  }
  const step = Number(asked.get("step"));
  await go(asked.has("step") && Number.isInteger(step) && step >= 0 ? step : 0, true);
}

async function fetchStep(step) {
  const key = `${page.seat}:${step}`;
  if (!page.cache.has(key)) {
    const query = new URLSearchParams(step === null ? {} : { step: String(step) });
    const headers = {};
    if (page.seat !== null) {
      query.set("seat", String(page.seat));
      if (!page.over && page.tokens.seats[page.seat]) headers.Authorization = `Bearer ${page.tokens.seats[page.seat]}`;
    }
    const asked = api("GET", `/api/rooms/${encodeURIComponent(roomId)}/replay?${query}`, undefined, headers);
    if (step === null) return asked;  // "the latest": a game still on moves on, not kept
    page.cache.set(key, asked);
  }
  return page.cache.get(key);
}

async function go(step, first = false) {
  if (!first && (step < 0 || step > page.steps)) {
    if (!page.over && step === page.steps + 1) step = null; else return;  // a game still on: look for new moves
  }
  let data;
  try { data = await fetchStep(step); } catch (err) {  // the last drawing stays; the reason is said where it shows
    $("replay-error").textContent = err.message;
    stop();
    return;
  }
  $("replay-error").textContent = "";
  page.data = data;
  page.step = data.step;
  page.steps = data.steps;
  $("step").max = String(data.steps);
  $("step").value = String(data.step);
  $("step-text").textContent = t("nemeton.web.replay.step_of", { step: data.step, steps: data.steps });
  draw();
  if (page.step >= page.steps) stop();
}

// An AI seat's name says so once ("Birch (AI)" from the server, "Bob (AI)" when it was named).
function aiName(s) {
  const name = seatNameOf(page.info.seats, s.seat);
  const marked = t("nemeton.web.ai_name", { name });
  return s.kind === "ai" && !name.endsWith("(AI)") && !name.endsWith(marked.slice(name.length)) ? marked : name;
}

function togglePlay() {
  if (page.timer) { stop(); return; }
  if (page.step >= page.steps) go(0);
  page.timer = setInterval(() => go(page.step + 1), 700);
  $("play").textContent = t("nemeton.web.replay.pause");
}

function stop() {
  clearInterval(page.timer);
  page.timer = null;
  $("play").textContent = t("nemeton.web.replay.play");
}

function draw() {
  const data = page.data;
  const seats = localSeats(data.seats);
  const names = (s) => seatNameOf(seats, s);
  const last = data.last;
  const acting = data.acting.map((s, i) => [i ? ", " : null, seatBadge(s, names(s))]);
  render(data.terminal ? t("nemeton.web.replay.the_end") : !data.acting.length ? null
    : tNodes(data.over === false && data.step === data.steps ? "nemeton.web.replay.now_to_act" : "nemeton.web.replay.to_act", {}, { seats: acting }),
  $("status"));
  render([h("h2", {}, t("nemeton.web.players")), h("ul", {}, seats.map((s) => h("li", { key: s.seat, class: `player${data.acting.includes(s.seat) ? " acting" : ""}` },
    seatBadge(s.seat, s.name), h("span", { class: "kind" }, s.kind === "ai" ? t("nemeton.web.ai_kind", { agent: agentLabel(page.agents, s.agent) }) : t("nemeton.web.replay.person")),
    data.view.scores && data.view.scores[s.seat] !== null ? h("span", { class: "score", title: t("nemeton.web.score") }, String(data.view.scores[s.seat])) : null)))],
  $("players"));
  const log = data.log;
  const lastMove = last === null ? -1 : log.map((e) => e.seat).lastIndexOf(last);
  const fresh = lastMove < 0 ? [] : log.slice(lastMove).filter((e, i) => i === 0 || e.seat !== last);
  render(h("ol", {}, log.map((e) => logEntry(e, seats))), $("log-list"));
  $("log-list").scrollTop = $("log-list").scrollHeight;
  const ctx = { view: data.view, legal: [], log, fresh, seat: data.seat, mode: "replay", seats,
                act: () => {}, seatName: names,
                components: page.info.components || {} };
  drawGame(page.game, $("board"), $("actionbar"), ctx);
  if (data.terminal) drawScoreSheet(page.game, $("score-inline"), ctx);
  else clear($("score-inline"));
}

startPage().then(start);
